// A collection written with a trailing slash (`/services/`) whose item path has none
// (`/services/{addonName}`, as Netlify's): the mock found no item path for it, and a read of a
// listed add-on answered an example of another one.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/slash-items.yaml', import.meta.url));

describe('an item path without the trailing slash its collection has', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('reads each listed record at the item path, by the key its parameter names', async () => {
    const listed = (await call('GET', '/services/')).body as { name: string }[];
    expect(listed.length).toBeGreaterThan(1);
    for (const addon of listed.slice(0, 3)) {
      const read = await call('GET', `/services/${encodeURIComponent(addon.name)}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(addon);
    }
    expect((await call('GET', '/services/no-such-addon')).status).toBe(404);
  });
});
