// Sessions that cannot be used against the team (issue 30): only a request with a credential
// the mock accepts makes a session; anonymous ones (on operations the spec leaves open) use a
// session that exists, or the default state, so they cannot fill every slot of --max-sessions.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';

const SECURITY = fileURLToPath(new URL('./fixtures/specs/security.yaml', import.meta.url));
const started: InProcessMock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

async function sessionsOf(mock: InProcessMock): Promise<string[]> {
  const res = await mock.fetch(`${mock.url.replace(/\/api$/, '')}/__mock/sessions`, {
    headers: { Authorization: `Bearer ${KEY}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { sessions: { id: string }[] }).sessions.map(({ id }) => id);
}

describe('who makes a session', () => {
  it('100 anonymous requests make none, and a worker with the key then gets its session', async () => {
    const mock = await inProcessMock({ spec: SECURITY, apiKeys: [KEY], maxSessions: 3 });
    started.push(mock);
    for (let i = 0; i < 100; i++) {
      const res = await mock.fetch(`${mock.url}/public`, {
        headers: { 'Mock-Session': `anon-${i}` },
      });
      expect(res.status).toBe(200);
    }
    // A wrong key is no credential either.
    const wrong = await mock.fetch(`${mock.url}/public`, {
      headers: { 'Mock-Session': 'wrong-key', Authorization: 'Bearer not-the-key' },
    });
    expect(wrong.status).toBe(200);
    expect(await sessionsOf(mock)).toEqual([]);

    const worker = await mock.fetch(`${mock.url}/public`, {
      headers: { 'Mock-Session': 'worker-1', Authorization: `Bearer ${KEY}` },
    });
    expect(worker.status).toBe(200);
    expect(await sessionsOf(mock)).toEqual(['worker-1']);
    // Once made, anonymous requests may use it: no new session, no refusal.
    const anonymous = await mock.fetch(`${mock.url}/public`, {
      headers: { 'Mock-Session': 'worker-1' },
    });
    expect(anonymous.status).toBe(200);
    expect(await sessionsOf(mock)).toEqual(['worker-1']);
  });
});
