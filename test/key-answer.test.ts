// A create answering the new record's key alone, in a shape that holds none of the record's
// other fields (Coolify's environments answer `{uuid}`): the mock answered its example's
// made-up `uuid`, which named no record, so every later call on the record was a 404.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/key-answer.yaml', import.meta.url));

describe('a create that answers the key alone', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('answers the key the record is kept under, which lists, updates and deletes it', async () => {
    const project = await call('POST', '/projects', { name: 'shop' });
    expect(project.status).toBe(201);
    const base = `/projects/${String(project.body.uuid)}/environments`;
    const created = await call('POST', base, { name: 'staging' });
    expect(created.status).toBe(201);
    const { uuid } = created.body as { uuid: string };
    const listed = await call('GET', base);
    expect((listed.body as { uuid?: string }[]).map((one) => one.uuid)).toContain(uuid);
    const updated = await call('PATCH', `${base}/${uuid}`, { name: 'production' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ uuid, name: 'production' });
    expect((await call('DELETE', `${base}/${uuid}`)).status).toBe(204);
    expect((await call('PATCH', `${base}/${uuid}`, { name: 'gone' })).status).toBe(404);
  });
});
