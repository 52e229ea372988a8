// A create that answers only the new record's key, under the item parameter's name rather than
// the record's (Jira's issue type schemes: `{"issueTypeSchemeId": "10010"}` for records keyed
// by `id`): the mock answered a made-up text, which named no record.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(
  new URL('./fixtures/specs/key-named-as-parameter.yaml', import.meta.url),
);

describe('a create answering the key under the item parameter’s name', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('answers the new record’s key there, which reads, lists and deletes it', async () => {
    const created = await call('POST', '/schemes', { name: 'Default' });
    expect(created.status).toBe(201);
    expect(created.body.schemeId).toMatch(/^[0-9]+$/);
    const key = String(created.body.schemeId);
    const read = await call('GET', `/schemes/${key}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: Number(key), name: 'Default' });
    const listed = (await call('GET', '/schemes')).body.values as { id: number }[];
    expect(listed.map((one) => one.id)).toContain(Number(key));
    expect((await call('DELETE', `/schemes/${key}`)).status).toBe(204);
    expect((await call('GET', `/schemes/${key}`)).status).toBe(404);
  });
});
