// The coverage of a whole run (issue 47, item 4): a Playwright suite resets each test's session,
// and each reset cleared that session's tally, so a green suite read 3.3%. The run's tally counts
// every request of every state since the mock started, and no reset clears it.
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { AUTH, KEY, QUICK_SHUTDOWN, runCli } from './helpers.js';
import { tempFolder } from './temp-folders.js';

let mock: RunningMock;
let origin: string;

beforeAll(async () => {
  mock = await startMock({ ...QUICK_SHUTDOWN, apiKeys: [KEY], seedCount: 2 });
  origin = new URL(mock.url).origin;
});
afterAll(() => mock.close());

const inSession = (session: string) => ({ ...AUTH, 'Mock-Session': session });

/** Two workers' tests, each test's session reset first, as the Playwright fixture does. */
async function suite(): Promise<void> {
  for (const session of ['worker-0', 'worker-1']) {
    const reset = await fetch(`${origin}/__mock/reset`, {
      method: 'POST',
      headers: inSession(session),
    });
    expect(reset.status).toBe(204);
  }
  expect((await fetch(`${mock.url}/categories`, { headers: inSession('worker-0') })).status).toBe(
    200,
  );
  const created = await fetch(`${mock.url}/categories`, {
    method: 'POST',
    headers: { ...inSession('worker-1'), 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Newts' }),
  });
  expect(created.status).toBe(201);
  expect(
    (await fetch(`${mock.url}/categories`, { headers: { 'Mock-Session': 'worker-1' } })).status,
  ).toBe(401);
  // The next test of each worker starts with a reset of its session.
  for (const session of ['worker-0', 'worker-1'])
    await fetch(`${origin}/__mock/reset`, { method: 'POST', headers: inSession(session) });
}

interface Coverage {
  covered: number;
  operations: { method: string; path: string; statuses: { status: string; hits: number }[] }[];
}

const hitsOf = (coverage: Coverage, method: string, status: string) =>
  coverage.operations
    .find((operation) => operation.method === method && operation.path === '/v1/categories')
    ?.statuses.find((entry) => entry.status === status)?.hits;

describe('the coverage of a whole run', () => {
  it('counts every session’s requests, through every reset', async () => {
    await suite();
    const res = await fetch(`${origin}/__mock/coverage?scope=run`, { headers: AUTH });
    expect(res.status).toBe(200);
    const run = (await res.json()) as Coverage;
    expect(hitsOf(run, 'GET', '200')).toBe(1);
    expect(hitsOf(run, 'POST', '201')).toBe(1);
    expect(hitsOf(run, 'GET', '401')).toBe(1);
    expect(run.covered).toBe(3);
    // A session's own table still starts again at its reset.
    const own = await fetch(`${origin}/__mock/coverage`, { headers: inSession('worker-0') });
    expect(((await own.json()) as Coverage).covered).toBe(0);
  });

  it('is what `petstore-kit coverage --run` prints', async () => {
    const { out, code } = await runCli('coverage', '--api-key', KEY, '--url', origin, '--run');
    expect(code).toBe(0);
    expect(out).toContain('  GET /v1/categories  200  1');
    expect(out).toContain('  POST /v1/categories  201  1');
  });

  it('refuses --run with --session: one names a state, the other every state', async () => {
    const { err, code } = await runCli(
      'coverage',
      '--api-key',
      KEY,
      '--url',
      origin,
      '--run',
      '--session',
      'worker-0',
    );
    expect(code).toBe(2);
    expect(err).toContain('--run reads every session, --session one');
  });

  it('is kept in --coverage-file while the mock runs and when it stops, for `coverage --coverage-file`', async () => {
    const dir = await tempFolder('coverage-file');
    const path = join(dir, 'coverage.json');
    // The file is written every half second: the test moves that clock on instead of waiting.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const kept = await startMock({ ...QUICK_SHUTDOWN, apiKeys: [KEY], coverageFile: path });
    try {
      const url = `${kept.url}/categories`;
      for (const session of ['worker-0', 'worker-1']) {
        expect((await fetch(url, { headers: inSession(session) })).status).toBe(200);
        await fetch(`${new URL(kept.url).origin}/__mock/reset`, {
          method: 'POST',
          headers: inSession(session),
        });
      }
      // Written while it runs: a mock killed at the end of a run (Playwright's webServer) leaves it.
      await vi.advanceTimersByTimeAsync(500);
      await vi.waitFor(
        async () =>
          expect(hitsOf(JSON.parse(await readFile(path, 'utf8')) as Coverage, 'GET', '200')).toBe(
            2,
          ),
        { timeout: 20_000, interval: 100 },
      );
      vi.useRealTimers();
      expect((await fetch(url, { headers: { 'Mock-Session': 'worker-0' } })).status).toBe(401);
      await kept.close();
      const { out, code } = await runCli('coverage', '--coverage-file', path);
      expect(code).toBe(0);
      expect(out).toContain('  GET /v1/categories  200  2');
      expect(out).toContain('  GET /v1/categories  401  1');
    } finally {
      vi.useRealTimers();
      await kept.close();
    }
  });

  it('says what to give when it has neither a mock nor a file, or a file that holds no table', async () => {
    const neither = await runCli('coverage');
    expect(neither.code).toBe(2);
    expect(neither.err).toContain('--url');
    const missing = await runCli(
      'coverage',
      '--coverage-file',
      join(tmpdir(), 'no-such-coverage.json'),
    );
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('cannot read');
  });
});
