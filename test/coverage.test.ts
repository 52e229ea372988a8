// Coverage of states: after a run of known hits and misses, GET /__mock/coverage and
// `petstore-kit coverage` tell which documented statuses each operation answered.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { AUTH, KEY, QUICK_SHUTDOWN, runCli } from './helpers.js';

const JSON_BODY = { ...AUTH, 'Content-Type': 'application/json' };

let mock: RunningMock;
let origin: string;

beforeAll(async () => {
  mock = await startMock({ ...QUICK_SHUTDOWN, apiKeys: [KEY], seedCount: 2 });
  origin = new URL(mock.url).origin;
});
afterAll(() => mock.close());
beforeEach(() => mock.mock.reset());

/** The known run: 5 of the bundled spec's 13 documented statuses, a fault and a delay. */
async function knownRun(headers: Record<string, string> = {}): Promise<void> {
  const get = (extra: Record<string, string>) =>
    fetch(`${mock.url}/categories`, { headers: { ...headers, ...extra } });
  await get(AUTH);
  await get(AUTH);
  await get({}); // 401
  await get({ ...AUTH, Prefer: 'code=500' }); // the spec documents no 500: its `default`
  await get({ ...AUTH, Prefer: 'delay=20' }); // 200, and a delay
  await expect(get({ ...AUTH, Prefer: 'fault=reset' })).rejects.toThrow();
  const post = (body: unknown) =>
    fetch(`${mock.url}/categories`, {
      method: 'POST',
      headers: { ...headers, ...JSON_BODY },
      body: JSON.stringify(body),
    });
  expect((await post({ name: 'Newts' })).status).toBe(201);
  expect((await post({ name: 42 })).status).toBe(400);
}

async function coverage(session?: string): Promise<unknown> {
  const headers = session ? { ...AUTH, 'Mock-Session': session } : AUTH;
  const res = await fetch(`${origin}/__mock/coverage`, { headers });
  expect(res.status).toBe(200);
  return res.json();
}

/** Rows by scheme: what the bearer key and no credential got, and what the spec expects of each. */
const schemes = (
  bearer: { status: string; hits: number }[],
  none: { status: string; hits: number }[] = [],
) => [row('bearerAuth', 'accepted', bearer), row('none', '401', none)];
const row = (scheme: string, expected: string, got: { status: string; hits: number }[]) => ({
  scheme,
  expected,
  documented: true,
  hits: got.reduce((sum, { hits }) => sum + hits, 0),
  got,
});

const EXPECTED = {
  covered: 5,
  total: 13,
  percent: 38.5,
  schemesCovered: 3,
  schemesTotal: 8,
  operations: [
    {
      method: 'GET',
      path: '/v1/categories',
      operationId: 'listCategories',
      statuses: [
        { status: '200', documented: true, hits: 3 },
        { status: '401', documented: true, hits: 1 },
        { status: 'default', documented: true, hits: 1 },
        { status: 'delay', documented: false, hits: 1 },
        { status: 'fault:reset', documented: false, hits: 1 },
      ],
      schemes: schemes(
        [
          { status: '200', hits: 3 },
          { status: '500', hits: 1 },
          { status: 'fault:reset', hits: 1 },
        ],
        [{ status: '401', hits: 1 }],
      ),
    },
    {
      method: 'POST',
      path: '/v1/categories',
      operationId: 'createCategory',
      statuses: [
        { status: '201', documented: true, hits: 1 },
        { status: '400', documented: true, hits: 1 },
        { status: '401', documented: true, hits: 0 },
        { status: 'default', documented: true, hits: 0 },
      ],
      schemes: schemes([
        { status: '201', hits: 1 },
        { status: '400', hits: 1 },
      ]),
    },
    {
      method: 'GET',
      path: '/v1/pets/{petId}',
      operationId: 'getPetById',
      statuses: [
        { status: '200', documented: true, hits: 0 },
        { status: '401', documented: true, hits: 0 },
        { status: 'default', documented: true, hits: 0 },
      ],
      schemes: schemes([]),
    },
    {
      method: 'GET',
      path: '/v1/store/orders',
      operationId: 'listStoreOrders',
      statuses: [
        { status: '200', documented: true, hits: 0 },
        { status: '401', documented: true, hits: 0 },
        { status: 'default', documented: true, hits: 0 },
      ],
      schemes: schemes([]),
    },
  ],
};

describe('GET /__mock/coverage', () => {
  it('counts every documented status of every operation, hit or missed, and forced scenarios apart', async () => {
    await knownRun();
    expect(await coverage()).toEqual(EXPECTED);
  });

  it('starts again at reset', async () => {
    await knownRun();
    await mock.mock.reset();
    const after = (await coverage()) as { covered: number; percent: number };
    expect(after.covered).toBe(0);
    expect(after.percent).toBe(0);
  });

  it('keeps a session’s coverage apart, its 401s included, and leaves the default state’s alone', async () => {
    const session = { 'Mock-Session': 'worker-3' };
    await fetch(`${mock.url}/categories`, { headers: { ...AUTH, ...session } });
    await fetch(`${mock.url}/categories`, { headers: session }); // 401, in the session
    const mine = (await coverage('worker-3')) as typeof EXPECTED;
    expect(mine.operations[0]!.statuses.slice(0, 2)).toEqual([
      { status: '200', documented: true, hits: 1 },
      { status: '401', documented: true, hits: 1 },
    ]);
    expect(mine.covered).toBe(2);
    expect(((await coverage()) as typeof EXPECTED).covered).toBe(0);
  });
});

describe('petstore-kit coverage', () => {
  /** `petstore-kit coverage --api-key KEY ...args`, in process. */
  const coverageCli = (...args: string[]) => runCli('coverage', '--api-key', KEY, ...args);

  it('prints the table as text, and exits 1 below --min after printing it', async () => {
    await knownRun();
    const { out, err, code } = await coverageCli('--url', mock.url, '--min', '80');
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toBe('coverage: 38.5% (5 of 13 documented statuses)');
    expect(lines).toContain('  GET /v1/categories  200  3');
    expect(lines).toContain('  GET /v1/categories  fault:reset  1');
    expect(lines).toContain('  POST /v1/categories  401  missed');
    expect(lines[1]).toBe(
      'security: 3 of 8 (operation, scheme) pairs exercised; `expected 401` where the operation does not take the scheme',
    );
    expect(lines).toContain(
      '  GET /v1/categories  scheme bearerAuth  expected accepted  got 200 ×3, 500 ×1, fault:reset ×1',
    );
    expect(lines).toContain('  GET /v1/categories  scheme none  expected 401  got 401 ×1');
    expect(lines).toContain('  POST /v1/categories  scheme none  expected 401  missed');
    expect(err).toContain('below --min 80%');
    expect(code).toBe(1);
  });

  it('exits 0 at or above --min', async () => {
    await knownRun();
    expect((await coverageCli('--url', origin, '--min', '38.5')).code).toBe(0);
  });

  it('prints JSON as the admin API gives it, and JUnit with a skipped case per missed status', async () => {
    await knownRun();
    const json = await coverageCli('--url', mock.url, '--format', 'json');
    expect(JSON.parse(json.out)).toEqual(EXPECTED);
    const junit = (await coverageCli('--url', mock.url, '--format', 'junit')).out;
    expect(junit).toContain('<testsuite name="coverage" tests="23" failures="0" skipped="13">');
    expect(junit).toContain(
      '<testcase classname="GET /v1/categories" name="scheme none: expected 401">\n    <system-out>got 401 ×1</system-out>',
    );
    expect(junit).toContain('<testcase classname="GET /v1/categories" name="200"/>');
    expect(junit).toContain(
      '<testcase classname="GET /v1/pets/{petId}" name="401">\n    <skipped message="not exercised"/>\n  </testcase>',
    );
  });

  it('reads a session’s coverage with --session', async () => {
    await fetch(`${mock.url}/categories`, { headers: { ...AUTH, 'Mock-Session': 'cli-1' } });
    const { out } = await coverageCli('--url', mock.url, '--session', 'cli-1');
    expect(out.split('\n')[0]).toBe('coverage: 7.7% (1 of 13 documented statuses)');
  });

  it('says it cannot tell, exit 2, when no mock answers there', async () => {
    const { err, code } = await coverageCli('--url', 'http://127.0.0.1:9');
    expect(err).toContain('cannot reach the mock at http://127.0.0.1:9/__mock/coverage');
    expect(code).toBe(2);
  });
});
