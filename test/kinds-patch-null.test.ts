// A patch that clears a field with `null`, on a record of several kinds whose edit body is of
// several kinds too, only some letting that field be null (Discord's auto-moderation rules:
// `{trigger_metadata: null}`). The mock read the first kind of edit alone, took the null for a
// removal of a field the record requires, and refused a request its description allows (400).
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/kinds-patch-null.yaml', import.meta.url));

describe('a patch clearing a field of a record of several kinds', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('empties the field as the record allows, keeping the record of its kind', async () => {
    const created = await call('POST', '/rules', {
      name: 'No spam',
      trigger_type: 3,
      trigger_metadata: { threshold: 4 },
    });
    expect(created.status).toBe(200);
    const path = `/rules/${String(created.body.id)}`;
    const patched = await call('PATCH', path, { trigger_metadata: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'No spam', trigger_type: 3 });
    expect(typeof patched.body.trigger_metadata).toBe('object');
    expect((await call('GET', path)).body).toEqual(patched.body);
  });
});
