// Records no create body names the key of, renamed by an edit whose body writes a new key
// (Gitea's actions variables: `PUT /variables/{variablename}` with a new `name`): the mock kept
// the record at its old name, and the client, which renamed it, found nothing at the new one.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/renamed-by-edit.yaml', import.meta.url));

describe('an edit that writes a new key', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('moves the record to the key it names', async () => {
    const [first] = (await call('GET', '/variables')).body as { name: string }[];
    const old = encodeURIComponent(String(first?.name));
    const edited = await call('PUT', `/variables/${old}`, { name: 'RENAMED', value: 'v2' });
    expect(edited.status).toBe(204);
    expect((await call('GET', '/variables/RENAMED')).status).toBe(200);
    expect((await call('GET', `/variables/${old}`)).status).toBe(404);
    expect((await call('DELETE', '/variables/RENAMED')).status).toBe(204);
  });
});
