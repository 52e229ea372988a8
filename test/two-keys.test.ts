// An item parameter that names two keys (`{ticketIdOrKey}`, as Jira's `{issueIdOrKey}`): the
// mock keyed the records by one (`key`), and a client reading by the `id` the create answered
// got a 404, as did everything it made under that record.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/two-keys.yaml', import.meta.url));

describe('an item parameter naming either of two keys', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('finds a record by either key, and the same record', async () => {
    const created = await call('POST', '/tickets', { summary: 'Disk full' });
    expect(created.status).toBe(201);
    const { id, key } = created.body;
    const byId = await call('GET', `/tickets/${String(id)}`);
    const byKey = await call('GET', `/tickets/${String(key)}`);
    expect(byId.status).toBe(200);
    expect(byKey.status).toBe(200);
    expect(byId.body).toEqual(byKey.body);
    expect(byId.body.summary).toBe('Disk full');
  });

  it('writes and deletes through the other key', async () => {
    const created = await call('POST', '/tickets', { summary: 'Slow' });
    const { id, key } = created.body;
    const replaced = await call('PUT', `/tickets/${String(id)}`, { summary: 'Very slow' });
    expect(replaced.status).toBe(200);
    expect(replaced.body.key).toBe(key);
    expect((await call('GET', `/tickets/${String(key)}`)).body.summary).toBe('Very slow');
    expect((await call('DELETE', `/tickets/${String(id)}`)).status).toBe(204);
    expect((await call('GET', `/tickets/${String(key)}`)).status).toBe(404);
    expect((await call('GET', `/tickets/${String(id)}`)).status).toBe(404);
  });

  it('keeps one set of children under a record, whichever key names it', async () => {
    const created = await call('POST', '/tickets', { summary: 'Printer' });
    const { id, key } = created.body;
    const comment = await call('POST', `/tickets/${String(id)}/comments`, { body: 'On it' });
    expect(comment.status).toBe(201);
    const listed = await call('GET', `/tickets/${String(key)}/comments`);
    expect(listed.status).toBe(200);
    expect((listed.body.comments as { id: string }[]).map((one) => one.id)).toContain(
      comment.body.id,
    );
    const read = await call('GET', `/tickets/${String(key)}/comments/${String(comment.body.id)}`);
    expect(read.status).toBe(200);
    expect(read.body.body).toBe('On it');
  });

  it('answers 404 for a value neither key holds', async () => {
    expect((await call('GET', '/tickets/OPS-999999')).status).toBe(404);
    expect((await call('GET', '/tickets/999999/comments')).status).toBe(404);
  });
});
