// Where a record's key may and may not live: not in an object that may be null (a reference to
// another record, such as the user who pushed a build), and never longer than the key's schema
// allows (a text id of at most 32 characters is no UUID).
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SPEC_PATH } from '../src/openapi/bundled.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/key-holders.yaml', import.meta.url));

describe('where a key lives', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    const [spec, adminSpec] = await Promise.all([loadSpec(SPEC), loadSpec(ADMIN_SPEC_PATH)]);
    app = createApp({ spec, adminSpec, apiKeys: [KEY], seed: 3 });
  });

  it('does not key records by the id of an object that may be null', async () => {
    expect(app.mock.resources.find((resource) => resource.name === 'builds')?.idWithin).toBe(
      undefined,
    );
    const listed = await call('GET', '/v1/builds');
    expect(listed.status).toBe(200);
    for (const build of listed.body as { pusher: unknown }[])
      expect(build.pusher === null || typeof build.pusher === 'object').toBe(true);
  });

  it('makes a text id no longer than its schema allows', async () => {
    for (const name of ['a', 'b', 'c']) {
      const created = await call('POST', '/v1/uploads', { name });
      expect(created.status).toBe(201);
      const { id } = created.body as { id: string };
      expect(id.length).toBeLessThanOrEqual(32);
      expect((await call('GET', `/v1/uploads/${encodeURIComponent(id)}`)).status).toBe(200);
    }
  });
});
