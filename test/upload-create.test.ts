// A create whose body holds none of the record (a file uploaded as multipart) but answers one of
// the listed records: the mock read it as no create, answered a made-up attachment, and neither
// the list nor a read found it.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { AUTH, KEY } from './helpers.js';
import { jsonCaller, request } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/upload-create.yaml', import.meta.url));

describe('a create by upload', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('adds the record it answers, under its parent, every field made by the service', async () => {
    const uploaded = await request(app)
      .post('/issues/3/assets')
      .set(AUTH)
      .attach('attachment', new TextEncoder().encode('hello'), {
        filename: 'hello.txt',
        contentType: 'text/plain',
      });
    expect(uploaded.status).toBe(201);
    const id = uploaded.body.id as number;
    expect(uploaded.body).not.toHaveProperty('attachment');
    const read = await call('GET', `/issues/3/assets/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(uploaded.body);
    const listed = (await call('GET', '/issues/3/assets')).body as { id: number }[];
    expect(listed.map((one) => one.id)).toContain(id);
    expect((await call('DELETE', `/issues/3/assets/${id}`)).status).toBe(204);
    expect((await call('GET', `/issues/3/assets/${id}`)).status).toBe(404);
  });
});
