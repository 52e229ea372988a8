// The admin API at /__mock, as an end-to-end suite uses it: a known state before each test,
// and what the app under test sent.
import { afterEach, describe, expect, it } from 'vitest';
import { KEY, AUTH } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';

const mocks: InProcessMock[] = [];

afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
});

/** Calls the mock the running test opened (each opens one), with no port. */
function call(input: string, init?: RequestInit): Promise<Response> {
  return mocks.at(-1)!.fetch(input, init);
}

async function mock(): Promise<{ api: string; admin: string }> {
  const started = await inProcessMock({ apiKeys: [KEY], seedCount: 3 });
  mocks.push(started);
  return { api: started.url, admin: started.url.replace(/\/v1$/, '/__mock') };
}

async function create(api: string, name: string): Promise<{ id: number }> {
  const res = await call(`${api}/categories`, {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return (await res.json()) as { id: number };
}

async function list(api: string): Promise<{ id: number; name: string }[]> {
  return (await (await call(`${api}/categories`, { headers: AUTH })).json()) as {
    id: number;
    name: string;
  }[];
}

describe('POST /__mock/reset', () => {
  it('returns to the start-up state: the same seed data, ids counting from where they started', async () => {
    const { api, admin } = await mock();
    const before = await list(api);
    expect((await create(api, 'Ferret')).id).toBe(4);
    const res = await call(`${admin}/reset`, { method: 'POST', headers: AUTH });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await list(api)).toEqual(before);
    expect((await create(api, 'Ferret')).id).toBe(4);
  });

  it('needs the same bearer key as the API, and answers its errors in the Error shape', async () => {
    const { admin } = await mock();
    for (const headers of [{}, { Authorization: 'Bearer wrong' }] as Record<string, string>[]) {
      const res = await call(`${admin}/reset`, { method: 'POST', headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        code: expect.stringMatching(/credential/),
        message: expect.any(String),
        status: 401,
      });
    }
    const wrongMethod = await call(`${admin}/reset`, { headers: AUTH });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST, OPTIONS');
    const unknown = await call(`${admin}/nothing`, { headers: AUTH });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { status: number }).status).toBe(404);
  });
});

/** The logged requests, as `GET /__mock/requests` lists them (newest first). */
async function logged(
  admin: string,
  query = '',
): Promise<{ count: number; requests: Record<string, unknown>[] }> {
  const res = await call(`${admin}/requests${query}`, { headers: AUTH });
  expect(res.status).toBe(200);
  return (await res.json()) as { count: number; requests: Record<string, unknown>[] };
}

describe('GET /__mock/requests', () => {
  it('lists the recent requests newest first, with the JSON body the app sent', async () => {
    const { api, admin } = await mock();
    await list(api);
    await create(api, 'Quokka');
    await call(`${api}/nowhere`, { headers: AUTH });
    const { count, requests } = await logged(admin);
    expect(count).toBe(3);
    expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', '/v1/nowhere', 404],
      ['POST', '/v1/categories', 201],
      ['GET', '/v1/categories', 200],
    ]);
    expect(requests[1]).toEqual({
      id: 2,
      method: 'POST',
      path: '/v1/categories',
      status: 201,
      durationMs: expect.any(Number),
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      headers: expect.objectContaining({
        authorization: 'Bearer ***',
        'content-type': 'application/json',
      }),
      body: { name: 'Quokka' },
      response: {
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: { id: 4, name: 'Quokka' },
      },
    });
  });

  it('keeps no admin request, takes a limit, refuses a bad one, and is emptied by a reset', async () => {
    const { api, admin } = await mock();
    for (let i = 0; i < 5; i++) await list(api);
    const two = await logged(admin, '?limit=2');
    expect(two.requests).toHaveLength(2);
    // The count is of every match: a test asserts what its app sent, whatever the page.
    expect(two.count).toBe(5);
    expect((await logged(admin)).requests).toHaveLength(5);
    const bad = await call(`${admin}/requests?limit=0`, { headers: AUTH });
    expect(bad.status).toBe(400);
    await call(`${admin}/reset`, { method: 'POST', headers: AUTH });
    expect(await logged(admin)).toEqual({ count: 0, requests: [] });
  });

  it('filters by method, path (exact or a prefix), status (or its class) and time', async () => {
    const { api, admin } = await mock();
    await list(api);
    // Times have millisecond resolution: `since` a moment after the first request.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const since = new Date().toISOString();
    await create(api, 'Quokka');
    await create(api, 'Wombat');
    await call(`${api}/categories?x=1`, { headers: AUTH });
    await call(`${api}/pets/7`);
    expect((await logged(admin, '?method=post')).count).toBe(2);
    expect((await logged(admin, '?method=POST&path=/v1/categories')).count).toBe(2);
    expect((await logged(admin, '?path=/v1/categories')).count).toBe(4);
    expect((await logged(admin, '?path=/v1/*')).count).toBe(5);
    expect((await logged(admin, '?status=201')).count).toBe(2);
    // An unknown query parameter is a 400, and a missing key a 401.
    expect((await logged(admin, '?status=4xx')).requests).toEqual([
      expect.objectContaining({ path: '/v1/pets/7', status: 401 }),
      expect.objectContaining({ path: '/v1/categories?x=1', status: 400 }),
    ]);
    expect((await logged(admin, '?status=400')).count).toBe(1);
    expect((await logged(admin, `?since=${encodeURIComponent(since)}`)).count).toBe(4);
    for (const bad of ['?status=abc', '?since=yesterday', '?method=G%20T'])
      expect((await call(`${admin}/requests${bad}`, { headers: AUTH })).status).toBe(400);
  });

  it('keeps bodies of up to 16 KiB, so that it stays small, and says so of bigger ones', async () => {
    const { api, admin } = await mock();
    const name = 'x'.repeat(20 * 1024);
    await create(api, name);
    const [entry] = (await logged(admin)).requests;
    expect(entry).toMatchObject({
      method: 'POST',
      status: 201,
      bodyNote: expect.stringMatching(/^The body was \d+ bytes: more than the 16 KiB kept$/),
    });
    expect(entry).not.toHaveProperty('body');
    // The answer too: its size, and its first 16 KiB as text.
    const answered = JSON.stringify({ id: 4, name });
    expect(entry!.response).toEqual({
      headers: { 'content-type': 'application/json; charset=utf-8' },
      bodyBytes: Buffer.byteLength(answered),
      bodyStart: answered.slice(0, 16 * 1024),
    });
  });

  it('never breaks on what it keeps: a body nested too deep to read is refused and logged without it', async () => {
    const { api, admin } = await mock();
    const deep = '['.repeat(4200) + ']'.repeat(4200);
    const sent = await call(`${api}/categories`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: deep,
    });
    expect(sent.status).toBe(400);
    expect(((await sent.json()) as { code: string }).code).toBe('nested_too_deep');
    const { requests } = await logged(admin);
    expect(requests[0]).toMatchObject({ status: 400 });
    expect(requests[0]).not.toHaveProperty('body');
    await list(api);
    expect((await logged(admin)).count).toBe(2);
  });

  it('records a reset fault as a fault, with no status it never sent', async () => {
    const { api, admin } = await mock();
    await call(`${api}/categories`, { headers: { ...AUTH, Prefer: 'fault=reset' } }).catch(
      () => undefined,
    );
    const [entry] = (await logged(admin)).requests;
    expect(entry).toMatchObject({ method: 'GET', fault: 'reset' });
    expect(entry).not.toHaveProperty('status');
    expect(entry).not.toHaveProperty('response');
  });

  it('is bounded: the last 1,000 requests', async () => {
    const { api, admin } = await mock();
    await Promise.all(Array.from({ length: 1010 }, () => call(`${api}/nowhere`)));
    const all = await logged(admin);
    expect(all.requests).toHaveLength(1000);
    expect(all.count).toBe(1000);
  });
});
