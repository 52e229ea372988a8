// An item parameter written as one word (`{variablename}`, as Gitea's actions variables): no
// property's words matched it, the records had no `id`, and the collection was served from
// examples: a listed variable's read answered another one, and a deleted one stayed.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/run-together-key.yaml', import.meta.url));

describe('an item parameter naming a property in one word', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('reads, replaces and deletes a listed record by the property the word ends in', async () => {
    const listed = (await call('GET', '/variables')).body as { name: string }[];
    expect(listed.length).toBeGreaterThan(0);
    const name = (listed[0] as { name: string }).name;
    const target = `/variables/${encodeURIComponent(name)}`;
    const read = await call('GET', target);
    expect(read.status).toBe(200);
    expect((read.body as { name: string }).name).toBe(name);
    expect((await call('PUT', target, { value: 'blue' })).status).toBe(204);
    expect(((await call('GET', target)).body as { value: string }).value).toBe('blue');
    expect((await call('DELETE', target)).status).toBe(204);
    expect((await call('GET', target)).status).toBe(404);
  });
});
