// A create that answers only the new record's id, as text where the record's id is a number
// (Jira's `{"id": "10000"}`): the mock answered a made-up text, which named no record.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/id-as-text.yaml', import.meta.url));

describe('a create answering a numeric id as text', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('answers the new record’s own id, as the text the answer declares', async () => {
    const created = await call('POST', '/schemes', { name: 'Default' });
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^[0-9]+$/);
    const read = await call('GET', `/schemes/${String(created.body.id)}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: Number(created.body.id), name: 'Default' });
    const listed = (await call('GET', '/schemes')).body.values as { id: number }[];
    expect(listed.map((one) => one.id)).toContain(Number(created.body.id));
  });
});
