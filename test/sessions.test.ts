// Sessions (issue 17): a Mock-Session header selects an isolated copy of the mock's state, so
// that parallel end-to-end workers never see each other's data; without it, the default state.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockOptions } from '../src/wiring/options.js';
import { startMock } from '../src/wiring/start-mock.js';
import { KEY, QUICK_SHUTDOWN } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';
import { tempFolder } from './temp-folders.js';

const started: InProcessMock[] = [];

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

async function mock(options: MockOptions = {}) {
  const running = await inProcessMock({ apiKeys: [KEY], seedCount: 3, ...options });
  started.push(running);
  const admin = running.url.replace(/\/v1$/, '/__mock');
  const headers = (session?: string): Record<string, string> => ({
    Authorization: `Bearer ${KEY}`,
    'Content-Type': 'application/json',
    ...(session === undefined ? {} : { 'Mock-Session': session }),
  });
  return {
    running,
    admin,
    headers,
    async list(session?: string) {
      const res = await running.fetch(`${running.url}/categories`, { headers: headers(session) });
      return { status: res.status, body: (await res.json()) as { id: number; name: string }[] };
    },
    async create(name: string, session?: string) {
      const res = await running.fetch(`${running.url}/categories`, {
        method: 'POST',
        headers: headers(session),
        body: JSON.stringify({ name }),
      });
      return { status: res.status, body: (await res.json()) as { id: number; name: string } };
    },
    async logged(session?: string) {
      const res = await running.fetch(`${admin}/requests`, { headers: headers(session) });
      return (await res.json()) as {
        count: number;
        requests: { path: string; session?: string }[];
      };
    },
  };
}

describe('Mock-Session', () => {
  it('four sessions in parallel each see only their own data, from the start-up data with the same ids', async () => {
    const m = await mock();
    const startup = (await m.list()).body;
    const sessions = ['w0', 'w1', 'w2', 'w3'];
    await Promise.all(
      sessions.map(async (session) => {
        for (let i = 0; i < 5; i++) await m.create(`${session}-${i}`, session);
      }),
    );
    for (const session of sessions) {
      const { body } = await m.list(session);
      expect(body.slice(0, 3)).toEqual(startup);
      // Its own id counter: every session's creates count from the start-up data.
      expect(body.slice(3)).toEqual(
        [0, 1, 2, 3, 4].map((i) => ({ id: 4 + i, name: `${session}-${i}` })),
      );
    }
    // The default state is as it was.
    expect((await m.list()).body).toEqual(startup);
  });

  it('a reset of one session leaves the others and the default state', async () => {
    const m = await mock();
    await m.create('kept by w1', 'w1');
    await m.create('dropped by w0', 'w0');
    await m.create('kept by default');
    const reset = await m.running.fetch(`${m.admin}/reset`, {
      method: 'POST',
      headers: m.headers('w0'),
    });
    expect(reset.status).toBe(204);
    expect((await m.list('w0')).body).toHaveLength(3);
    expect((await m.list('w1')).body.map((c) => c.name)).toContain('kept by w1');
    expect((await m.list()).body.map((c) => c.name)).toContain('kept by default');
  });

  it('keeps a request log per session', async () => {
    const m = await mock();
    await m.list('w0');
    await m.create('x', 'w0');
    await m.list('w1');
    await m.list();
    const w0 = await m.logged('w0');
    expect(w0.count).toBe(2);
    expect(w0.requests.every((entry) => entry.session === 'w0')).toBe(true);
    expect((await m.logged('w1')).count).toBe(1);
    expect((await m.logged()).count).toBe(1);
    // The inspector reads a session's log by its id.
    const byQuery = await m.running.fetch(`${m.admin}/requests?session=w1`, {
      headers: m.headers(),
    });
    expect(((await byQuery.json()) as { count: number }).count).toBe(1);
  });

  it('keeps scenario settings per session', async () => {
    const m = await mock();
    const set = await m.running.fetch(`${m.admin}/settings`, {
      method: 'PATCH',
      headers: m.headers('slow'),
      body: JSON.stringify({ delay: { min: 300, max: 300 } }),
    });
    expect(set.status).toBe(200);
    // Sent together: the slow session's 300 ms delay holds its own answer only, so the other
    // session's comes first, however busy the machine (a wall-clock bound on it was not).
    const answered: string[] = [];
    const started = performance.now();
    await Promise.all([
      m.list('slow').then(() => answered.push('slow')),
      m.list().then(() => answered.push('default')),
    ]);
    expect(answered).toEqual(['default', 'slow']);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it.each(['a'.repeat(65), 'has space', 'slash/ed', 'ünïcode', ''])(
    'refuses %j as a session id with a 400 Error',
    async (id) => {
      const m = await mock();
      const res = await m.running.fetch(`${m.running.url}/categories`, {
        headers: { ...m.headers(), 'Mock-Session': id },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'invalid_session', status: 400 });
    },
  );

  it('takes ids of 64 characters of A-Z a-z 0-9 . _ -', async () => {
    const m = await mock();
    const id = `${'Aa0._-'.repeat(10)}abcd`;
    expect(id).toHaveLength(64);
    expect((await m.create('long id', id)).status).toBe(201);
  });

  it('lists sessions and drops one, whose next use starts from the start-up data', async () => {
    const m = await mock();
    await m.create('x', 'w0');
    await m.create('y', 'w1');
    const listed = await m.running.fetch(`${m.admin}/sessions`, { headers: m.headers() });
    const { sessions } = (await listed.json()) as { sessions: { id: string }[] };
    expect(sessions.map((session) => session.id)).toEqual(['w0', 'w1']);
    const dropped = await m.running.fetch(`${m.admin}/sessions/w0`, {
      method: 'DELETE',
      headers: m.headers(),
    });
    expect(dropped.status).toBe(204);
    const again = await m.running.fetch(`${m.admin}/sessions/w0`, {
      method: 'DELETE',
      headers: m.headers(),
    });
    expect(again.status).toBe(404);
    expect((await m.list('w0')).body).toHaveLength(3);
    expect((await m.list('w1')).body).toHaveLength(4);
  });

  it('is bounded: past --max-sessions a new session gets a 503 that says why, until one expires', async () => {
    // The mock's clock (Date) stands still, and is moved past the TTL rather than waited out.
    vi.useFakeTimers({ toFake: ['Date'] });
    const m = await mock({ maxSessions: 2, sessionTtlSeconds: 3 });
    await m.list('w0');
    await m.list('w1');
    const refused = await m.running.fetch(`${m.running.url}/categories`, {
      headers: m.headers('w2'),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({
      code: 'too_many_sessions',
      message: expect.stringMatching(/limit of 2 sessions/),
    });
    // Sessions in use are never dropped to make room; idle past the TTL, they are.
    expect((await m.list('w0')).status).toBe(200);
    vi.advanceTimersByTime(3_100);
    expect((await m.list('w2')).status).toBe(200);
  });

  // A preflight is answered in front of the mock, by its Node listener: over a socket.
  it('lets a browser send the header: a preflight asking for it is allowed', async () => {
    const running = await startMock({ ...QUICK_SHUTDOWN, apiKeys: [KEY], seedCount: 3 });
    try {
      const res = await fetch(`${running.url}/categories`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://localhost:5173',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization,content-type,mock-session',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
        'mock-session',
      );
    } finally {
      await running.close();
    }
  });

  it('writes no session but the default to --data', async () => {
    const data = join(await tempFolder('sessions'), 'data.jsonl');
    const first = await mock({ data });
    await first.create('in the default state');
    await first.create('in a session', 'w0');
    await first.running.close();
    started.splice(started.indexOf(first.running), 1);
    const second = await mock({ data });
    const names = (await second.list()).body.map((category) => category.name);
    expect(names).toContain('in the default state');
    expect(names).not.toContain('in a session');
    expect((await second.list('w0')).body.map((category) => category.name)).toEqual(names);
  });
});
