// A create whose body names the record it adds by the item parameter's name (`{member_id}`
// for `/members/{member_id}`, OpenAI's group roles and users, vector store files): the mock
// made up another key, so the member the client added was neither listed nor read at the id
// it named.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/member-keys.yaml', import.meta.url));

describe('a create body naming the key of the record it adds', () => {
  let app: MockApp;
  let group: string;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
    group = String((await call('POST', '/groups', { name: 'Ops' })).body.id);
  });

  it('adds the record at the key the body names, listed and read there', async () => {
    const added = await call('POST', `/groups/${group}/members`, { member_id: 'user-ada' });
    expect(added.status).toBe(201);
    expect(added.body.id).toBe('user-ada');
    const listed = await call('GET', `/groups/${group}/members`);
    expect((listed.body.data as { id: string }[]).map((one) => one.id)).toContain('user-ada');
    expect((await call('GET', `/groups/${group}/members/user-ada`)).status).toBe(200);
    expect((await call('DELETE', `/groups/${group}/members/user-ada`)).status).toBe(204);
    expect((await call('GET', `/groups/${group}/members/user-ada`)).status).toBe(404);
  });

  it('refuses the same key twice with a 409', async () => {
    expect((await call('POST', `/groups/${group}/members`, { member_id: 'user-bob' })).status).toBe(
      201,
    );
    expect((await call('POST', `/groups/${group}/members`, { member_id: 'user-bob' })).status).toBe(
      409,
    );
  });

  it('makes a key of its own where the named one cannot be the record’s', async () => {
    const added = await call('POST', `/groups/${group}/members`, { member_id: 'not a user id' });
    expect(added.status).toBe(201);
    expect(added.body.id).toMatch(/^user-[A-Za-z0-9]+$/);
  });
});
