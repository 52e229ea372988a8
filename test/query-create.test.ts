// A create that takes its fields in the query and no body (Netlify's
// `POST /agent_runners?site_id=...`): the mock read no create in it, answered its example, and
// the runner it told of was on no list and at no path.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/query-create.yaml', import.meta.url));

describe('a create whose fields are in its query', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('keeps the record the query describes, listed, read and deleted by its id', async () => {
    const created = await call('POST', '/runners?site_id=blog&prompt=Fix%20the%20footer');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ site_id: 'blog', prompt: 'Fix the footer' });
    const id = String(created.body.id);
    const listed = await call('GET', '/runners?site_id=blog');
    expect((listed.body as { id: string }[]).map((one) => one.id)).toEqual([id]);
    expect((await call('GET', `/runners/${id}`)).body).toEqual(created.body);
    expect((await call('DELETE', `/runners/${id}`)).status).toBe(202);
    expect((await call('GET', `/runners/${id}`)).status).toBe(404);
  });

  it("is the mock's create of the collection", () => {
    const runners = app.mock.resources.find((one) => one.collectionPath === '/runners');
    expect([...(runners?.actions.values() ?? [])]).toContain('create');
  });
});
