// Records whose key a parameter names by its initials: a JSON Web Key's `kid` at
// `/keys/{keyId}` (Okta's credentials keys). The mock found no key in `keyId` and served the
// keys statelessly: a created key was on no list and at no path.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { initialsPropertyFor } from '../src/openapi/item-key.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/initials-key.yaml', import.meta.url));

describe('a key named by the initials of its parameter', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('keeps a created key, listed, read and deleted by its kid', async () => {
    const created = await call('POST', '/keys', { validityYears: 2 });
    expect(created.status).toBe(200);
    const kid = String(created.body.kid);
    const listed = (await call('GET', '/keys')).body as { kid: string }[];
    expect(listed.map((one) => one.kid)).toContain(kid);
    expect((await call('GET', `/keys/${kid}`)).body).toEqual(created.body);
    expect((await call('DELETE', `/keys/${kid}`)).status).toBe(204);
    expect((await call('GET', `/keys/${kid}`)).status).toBe(404);
  });

  it('reads only an id named so, by the first letters of the words before it', () => {
    expect(initialsPropertyFor('keyId', ['kty', 'kid'])).toBe('kid');
    expect(initialsPropertyFor('user_id', ['uid', 'name'])).toBe('uid');
    expect(initialsPropertyFor('keyName', ['kn', 'kname'])).toBeUndefined();
    expect(initialsPropertyFor('id', ['id'])).toBeUndefined();
  });
});
