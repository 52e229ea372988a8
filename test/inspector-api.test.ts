// What the admin API gives the inspector page (and any end-to-end suite): each logged request
// whole, with its headers (credentials redacted) and its answer, and the collections with their
// records, counted in the state the request is served from.
import { fileURLToPath } from 'node:url';
import supertest from 'supertest';
import { request } from './in-process-request.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { credentialPlaces, redactHeaders, redactTarget } from '../src/core/admin/redact.js';
import { ADMIN_SPEC_PATH } from '../src/openapi/bundled.js';
import { loadSpec, type LoadedSpec } from '../src/openapi/load.js';
import { securitySchemesOf } from '../src/openapi/security-schemes.js';
import { createApp } from '../src/wiring/create-app.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { AUTH, expectError, KEY } from './helpers.js';
import { ownConnections } from './own-connections.js';
import { startRedisServer, type RedisServer } from './redis/redis-server.js';
import { withRedis } from './redis/with-redis.js';

const mocks: RunningMock[] = [];
const { closeConnections } = ownConnections();

afterEach(async () => {
  await closeConnections();
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
});

async function mock(seedCount = 3): Promise<{ api: string; admin: string; mock: RunningMock }> {
  const started = await startMock({ apiKeys: [KEY], seedCount });
  mocks.push(started);
  return { api: started.url, admin: started.url.replace(/\/v1$/, '/__mock'), mock: started };
}

async function adminGet<T = Record<string, unknown>>(
  admin: string,
  path: string,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${admin}${path}`, { headers: AUTH });
  return { status: res.status, body: (await res.json()) as T };
}

async function create(api: string, name: string): Promise<Response> {
  return fetch(`${api}/categories`, {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
  });
}

type Logged = { count: number; requests: Record<string, unknown>[] };

describe('GET /__mock/requests/{id} and ?view=summary', () => {
  it('lists rows without headers or bodies, and gives each one whole by its id', async () => {
    const { api, admin } = await mock();
    await create(api, 'Quokka');
    await fetch(`${api}/categories/999`, { headers: AUTH });
    const rows = (await adminGet<Logged>(admin, '/requests?view=summary')).body;
    expect(rows).toEqual({
      count: 2,
      requests: [
        {
          id: 2,
          method: 'GET',
          path: '/v1/categories/999',
          status: 404,
          durationMs: expect.any(Number),
          time: expect.any(String),
        },
        expect.objectContaining({ id: 1, method: 'POST', status: 201 }),
      ],
    });
    const full = (await adminGet<Logged>(admin, '/requests')).body.requests;
    const one = await adminGet(admin, '/requests/1');
    expect(one.status).toBe(200);
    expect(one.body).toEqual(full[1]);
    expect(one.body).toMatchObject({
      body: { name: 'Quokka' },
      response: { body: { id: 4, name: 'Quokka' } },
    });
    const missing = await adminGet(admin, '/requests/2');
    expect(missing.body).toMatchObject({
      status: 404,
      response: { body: { code: 'not_found', status: 404 } },
    });
  });

  it('numbers requests for as long as the mock runs: a reset empties the log, not the numbers', async () => {
    const { api, admin } = await mock();
    await create(api, 'Quokka');
    await fetch(`${admin}/reset`, { method: 'POST', headers: AUTH });
    const gone = await fetch(`${admin}/requests/1`, { headers: AUTH });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ code: 'not_found', status: 404 });
    await create(api, 'Wombat');
    const { requests } = (await adminGet<Logged>(admin, '/requests')).body;
    expect(requests.map((r) => r.id)).toEqual([2]);
    expect((await adminGet(admin, '/requests/2')).body).toMatchObject({ body: { name: 'Wombat' } });
  });

  it('refuses an id that is not a positive integer, and a view it does not know', async () => {
    const { admin } = await mock();
    for (const path of ['/requests/abc', '/requests/0', '/requests?view=everything']) {
      const res = await fetch(`${admin}${path}`, { headers: AUTH });
      expect(res.status, path).toBe(400);
    }
    expect((await fetch(`${admin}/requests/1`)).status).toBe(401);
  });

  it('keeps the start and the size of an answer bigger than 16 KiB', async () => {
    const { api, admin } = await mock(400);
    const sent = await fetch(`${api}/categories`, { headers: AUTH });
    const text = await sent.text();
    expect(text.length).toBeGreaterThan(16 * 1024);
    const [entry] = (await adminGet<Logged>(admin, '/requests')).body.requests;
    expect(entry!.response).toEqual({
      headers: { 'content-type': 'application/json; charset=utf-8' },
      bodyBytes: Buffer.byteLength(text),
      bodyStart: Buffer.from(text)
        .subarray(0, 16 * 1024)
        .toString(),
    });
  });

  it('keeps no body for HEAD, which sends none, and the headers it sends', async () => {
    const { api, admin } = await mock();
    await fetch(`${api}/categories`, { method: 'HEAD', headers: AUTH });
    const [entry] = (await adminGet<Logged>(admin, '/requests')).body.requests;
    expect(entry).toMatchObject({ method: 'HEAD', status: 200 });
    expect(entry!.response).toEqual({
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  });
});

describe('bodies the log does not keep', () => {
  it('notes a body of a media type it does not read, with its size and type', async () => {
    const bodies = fileURLToPath(new URL('./fixtures/specs/bodies.yaml', import.meta.url));
    const [spec, adminSpec] = await Promise.all([loadSpec(bodies), loadSpec(ADMIN_SPEC_PATH)]);
    const app = createApp({ spec, adminSpec, apiKeys: [KEY] });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const sent = await request(app).put('/api/images').set('Content-Type', 'image/png').send(png);
    expect(sent.status).toBe(204);
    const [entry] = ((await request(app).get('/__mock/requests').set(AUTH)).body as Logged)
      .requests;
    expect(entry).toMatchObject({
      method: 'PUT',
      status: 204,
      bodyNote: 'A body of 8 bytes of image/*, not kept',
      response: { headers: {} },
    });
    expect(entry).not.toHaveProperty('body');
  });
});

describe('credentials in the log', () => {
  const SECURITY = fileURLToPath(new URL('./fixtures/specs/security.yaml', import.meta.url));
  let spec: LoadedSpec;
  let adminSpec: LoadedSpec;

  beforeAll(async () => {
    [spec, adminSpec] = await Promise.all([loadSpec(SECURITY), loadSpec(ADMIN_SPEC_PATH)]);
  });

  it('are redacted wherever the spec puts them: Authorization, API-key headers, query and cookies', async () => {
    const app = createApp({ spec, adminSpec, apiKeys: [KEY], basic: ['alice:wonder'] });
    const sends: [string, Record<string, string>][] = [
      ['/api/alternatives', { Authorization: `Bearer ${KEY}` }],
      ['/api/alternatives', { 'X-API-Key': KEY }],
      [`/api/query?limit=2&api_key=${KEY}`, {}],
      ['/api/cookie', { Cookie: `theme=dark; session=${KEY}; lang=en` }],
      ['/api/basic', { Authorization: `Basic ${Buffer.from('alice:wonder').toString('base64')}` }],
      ['/api/authorization-key', { Authorization: `SSWS ${KEY}` }],
    ];
    for (const [path, headers] of sends) {
      const res = await request(app).get(path).set(headers);
      expect(res.status, path).toBe(200);
    }
    const log = await request(app).get('/__mock/requests').set(AUTH);
    expect(log.status).toBe(200);
    // The key (and the basic password) appear nowhere in what the log shows.
    expect(log.text).not.toContain(KEY);
    expect(log.text).not.toContain(Buffer.from('alice:wonder').toString('base64'));
    const shown = (log.body as Logged).requests.reverse();
    expect(shown.map(({ path, headers }) => ({ path, headers }))).toEqual([
      {
        path: '/api/alternatives',
        headers: expect.objectContaining({ authorization: 'Bearer ***' }),
      },
      { path: '/api/alternatives', headers: expect.objectContaining({ 'x-api-key': '***' }) },
      { path: '/api/query?limit=2&api_key=***', headers: expect.any(Object) },
      {
        path: '/api/cookie',
        headers: expect.objectContaining({ cookie: 'theme=dark; session=***; lang=en' }),
      },
      { path: '/api/basic', headers: expect.objectContaining({ authorization: 'Basic ***' }) },
      {
        path: '/api/authorization-key',
        headers: expect.objectContaining({ authorization: 'SSWS ***' }),
      },
    ]);
  });

  it('are redacted however they are written', () => {
    const places = credentialPlaces(securitySchemesOf(spec.resolved));
    expect(
      redactTarget(`/api/query?api%5Fkey=${KEY}&api_key&other=${KEY.toUpperCase()}`, places),
    ).toBe(`/api/query?api%5Fkey=***&api_key=***&other=${KEY.toUpperCase()}`);
    expect(
      redactHeaders(
        {
          authorization: KEY,
          'proxy-authorization': `Basic  ${KEY}`,
          'x-api-key': KEY,
          cookie: `session=${KEY};session=again`,
          accept: ['a', 'b'],
        },
        places,
      ),
    ).toEqual({
      authorization: '***',
      'proxy-authorization': 'Basic ***',
      'x-api-key': '***',
      cookie: 'session=***;session=***',
      accept: 'a, b',
    });
  });
});

describe('GET /__mock/collections and /__mock/collections/{name}', () => {
  it('lists the collections the spec describes, with their paths and counts', async () => {
    const { api, admin } = await mock();
    expect((await adminGet(admin, '/collections')).body).toEqual({
      collections: [{ name: 'categories', path: '/v1/categories', count: 3 }],
    });
    await create(api, 'Quokka');
    expect((await adminGet(admin, '/collections')).body).toEqual({
      collections: [{ name: 'categories', path: '/v1/categories', count: 4 }],
    });
  });

  it('gives the records of one, newest first, as many as asked for', async () => {
    const { api, admin } = await mock();
    const listed = (await (await fetch(`${api}/categories`, { headers: AUTH })).json()) as {
      id: number;
    }[];
    await create(api, 'Quokka');
    const all = await adminGet<{ records: { id: number }[] }>(admin, '/collections/categories');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      name: 'categories',
      path: '/v1/categories',
      count: 4,
      records: [{ id: 4, name: 'Quokka' }, ...listed.reverse()],
    });
    const two = await adminGet(admin, '/collections/categories?limit=2');
    expect(two.body).toMatchObject({ count: 4, records: all.body.records.slice(0, 2) });
  });

  it('is back at the start-up counts after a reset', async () => {
    const { api, admin } = await mock();
    await create(api, 'Quokka');
    await create(api, 'Wombat');
    await fetch(`${admin}/reset`, { method: 'POST', headers: AUTH });
    expect((await adminGet(admin, '/collections')).body).toEqual({
      collections: [{ name: 'categories', path: '/v1/categories', count: 3 }],
    });
  });

  it('answers a collection it does not have with a 404 naming those it has, and a bad limit with a 400', async () => {
    const { mock: started } = await mock();
    const server = `${new URL(started.url).origin}`;
    const missing = await supertest(server).get('/__mock/collections/nope').set(AUTH);
    expectError(missing, 404, 'not_found');
    expect(missing.body.message).toContain('there are: categories');
    expectError(
      await supertest(server).get('/__mock/collections/categories?limit=0').set(AUTH),
      400,
    );
    expectError(await supertest(server).get('/__mock/collections').set({}), 401);
  });
});

describe('with sessions', () => {
  it('counts the collections and finds requests in the state of the session asked for', async () => {
    const { api, admin } = await mock();
    const session = { 'Mock-Session': 'worker-1' };
    await fetch(`${api}/categories`, {
      method: 'POST',
      headers: { ...AUTH, ...session, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Quokka' }),
    });
    const counts = async (headers: Record<string, string>) =>
      (
        (await (
          await fetch(`${admin}/collections`, { headers: { ...AUTH, ...headers } })
        ).json()) as {
          collections: { count: number }[];
        }
      ).collections[0]!.count;
    expect(await counts(session)).toBe(4);
    expect(await counts({})).toBe(3);
    const records = (await (
      await fetch(`${admin}/collections/categories?limit=1`, { headers: { ...AUTH, ...session } })
    ).json()) as { records: unknown[] };
    expect(records.records).toEqual([{ id: 4, name: 'Quokka' }]);

    // The session's log numbers its own requests: by its header, or by `session`.
    const byHeader = await fetch(`${admin}/requests/1`, { headers: { ...AUTH, ...session } });
    expect(await byHeader.json()).toMatchObject({ id: 1, session: 'worker-1', status: 201 });
    const byQuery = await adminGet(admin, '/requests/1?session=worker-1');
    expect(byQuery.body).toMatchObject({ id: 1, session: 'worker-1', body: { name: 'Quokka' } });
    // The default log has none.
    expect((await adminGet(admin, '/requests/1')).status).toBe(404);
    expect((await adminGet(admin, '/requests/1?session=nobody')).status).toBe(404);
  });
});

describe('on Redis, a log every replica shares', () => {
  if (!withRedis()) return;
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
    return () => redis.stop();
  });

  it('numbers its entries across replicas, shows rows and whole entries, credentials redacted', async () => {
    const options = { apiKeys: [KEY], seedCount: 3, redis: redis.url, redisPrefix: 'inspector:' };
    const one = await startMock(options);
    mocks.push(one);
    const two = await startMock(options);
    mocks.push(two);
    const admin = one.url.replace(/\/v1$/, '/__mock');
    await create(one.url, 'Quokka');
    await create(two.url, 'Wombat');
    await fetch(`${two.url}/categories`, { headers: AUTH });
    const rows = (await adminGet<Logged>(admin, '/requests?view=summary')).body;
    expect(rows.requests.map(({ id, method, status }) => [id, method, status])).toEqual([
      [3, 'GET', 200],
      [2, 'POST', 201],
      [1, 'POST', 201],
    ]);
    expect(rows.requests[0]).not.toHaveProperty('headers');
    const whole = await adminGet(admin, '/requests/2');
    expect(whole.body).toMatchObject({
      id: 2,
      headers: { authorization: 'Bearer ***' },
      body: { name: 'Wombat' },
      response: { body: { id: 5, name: 'Wombat' } },
    });
    const full = (await adminGet<Logged>(two.url.replace(/\/v1$/, '/__mock'), '/requests')).body;
    expect(full.requests[1]).toEqual(whole.body);
    expect(JSON.stringify(full)).not.toContain(KEY);
    // A reset empties the log; the numbers go on.
    await fetch(`${admin}/reset`, { method: 'POST', headers: AUTH });
    expect((await adminGet(admin, '/requests/3')).status).toBe(404);
    await create(two.url, 'Numbat');
    expect((await adminGet<Logged>(admin, '/requests')).body.requests).toEqual([
      expect.objectContaining({ id: 4, body: { name: 'Numbat' } }),
    ]);
  });
});
