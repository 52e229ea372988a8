// Records with no id, whose item path names them by their name (DigitalOcean's
// `/v2/tags/{tag_id}`) or their slug (ReadMe's `/changelogs/{identifier}`): the mock found no
// key and served them statelessly, so a created tag could not be read back, nor gone once deleted.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/named-records.yaml', import.meta.url));

describe('records with no id', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('are keyed by their name', async () => {
    expect((await call('POST', '/tags', { name: 'blue-team' })).status).toBe(201);
    const read = await call('GET', '/tags/blue-team');
    expect(read.status).toBe(200);
    expect(read.body.tag.name).toBe('blue-team');
    const listed = (await call('GET', '/tags')).body.tags as { name: string }[];
    expect(listed.map((one) => one.name)).toContain('blue-team');
    expect((await call('POST', '/tags', { name: 'blue-team' })).status).toBe(409);
    expect((await call('DELETE', '/tags/blue-team')).status).toBe(204);
    expect((await call('GET', '/tags/blue-team')).status).toBe(404);
  });

  it('are keyed by their slug, which the service makes', async () => {
    const created = await call('POST', '/notes', { title: 'Release 2' });
    expect(created.status).toBe(201);
    const slug = String(created.body.slug);
    const read = await call('GET', `/notes/${encodeURIComponent(slug)}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ slug, title: 'Release 2' });
    expect((await call('DELETE', `/notes/${encodeURIComponent(slug)}`)).status).toBe(204);
    expect((await call('GET', `/notes/${encodeURIComponent(slug)}`)).status).toBe(404);
  });
});
