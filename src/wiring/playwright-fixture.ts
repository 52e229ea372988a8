import { test as base } from '@playwright/test';
import type { Coverage } from '../core/admin/coverage.js';
import type { Mock } from '../core/create-mock.js';
import type { Force, SettingsChange } from '../core/scenarios/settings.js';
import { DEFAULT_API_KEY, type MockOptions } from './options.js';
import { PAGE_CHANNEL, pageChannel, type PageChannel, type PageReport } from './page-channel.js';
import { startMock, type RunningMock } from './start-mock.js';

/** A request the page made, as the mock's request log keeps it (spec/admin.yaml's RecordedRequest). */
export interface LoggedRequest {
  id: number;
  method: string;
  /** The target as sent, query included. */
  path: string;
  /** None for a fault that sent no answer. */
  status?: number;
  durationMs: number;
  time: string;
  session?: string;
  fault?: string;
  headers?: Record<string, string>;
  body?: unknown;
  response?: { headers: Record<string, string>; body?: unknown };
}

/** Which logged requests `mock.requests()` returns; every field given must match. */
export interface RequestQuery {
  /** The path without its query (`/v1/categories`); ending in `*`, a prefix. */
  path?: string;
  method?: string;
  /** A status (`201`) or a class (`4xx`). */
  status?: string;
}

/**
 * How long `mock.force()` holds; given both a count and a time, it ends with the first to run
 * out. @default { until: 'cleared' }
 */
export interface ForceOptions {
  /** How many calls it holds for. */
  times?: number;
  /** How many milliseconds it holds for, from now. */
  for?: number;
  /** Until `mock.clear()` or the next test's reset (what it does given neither count nor time). */
  until?: 'cleared';
}

/** The mock as a test sees it: its own session, reset before the test. */
export interface TestMock {
  /** The mocked API's base URL: `http://127.0.0.1:4010/v1`. */
  readonly url: string;
  /**
   * The one `Mock` (`fetch`, `handle`, `states`), when this worker's fixture started it in
   * process (no `mockUrl`): the one serving now, also after `watch` reloads the spec. Undefined
   * for the mock at `mockUrl`, which runs in another process: reach that one at `url`.
   * @example await mock.mock?.fetch(new Request(`${mock.url}/categories`, { headers: { authorization: 'Bearer k', 'mock-session': mock.session } }))
   */
  readonly mock: Mock | undefined;
  /** The `Mock-Session` every request of this worker's pages carries. */
  readonly session: string;
  /** Back to the start-up data in this session (done before each test already). */
  reset(): Promise<void>;
  /**
   * Forces a scenario on this session's calls to the mocked API, as their `Prefer` header would:
   * `code=500`, `code=401`, `example=empty`, `fault=reset`, `delay=2000`. The session holds it,
   * so it reaches the mock however the page calls it (directly, or through a dev server's
   * proxy); a mock in the page (MSW's worker) gets it from the page's channel. By default it holds until `clear()` or the next test's reset: React's StrictMode
   * runs an effect twice and shows only the second answer. A second `force` replaces the first.
   * @example await mock.force('code=500'); await page.goto('/'); // the error state
   * @example await mock.force('code=500', { times: 1 }); // the next call only
   */
  force(prefer: string, options?: ForceOptions): Promise<void>;
  /** Ends the force in place, if any: the next calls are answered as usual. */
  clear(): Promise<void>;
  /**
   * Holds every answer of this session back for `ms` (or a time drawn from `{ min, max }`),
   * until the next test's reset.
   * @example await mock.latency(1500); // the loading state
   */
  latency(ms: number | { min: number; max: number }): Promise<void>;
  /**
   * The requests this worker's session sent the mocked API, oldest first.
   * @example expect(await mock.requests({ path: '/v1/categories', method: 'POST' })).toHaveLength(1);
   */
  requests(query?: RequestQuery): Promise<LoggedRequest[]>;
  /** The coverage of this session's requests since the test's reset (see `petstore-kit coverage`). */
  coverage(): Promise<Coverage>;
}

/** The fixture's options: set them in the config's `use`, or with `test.use`. */
export interface MockFixtureOptions {
  /**
   * The base URL of a mock already running, e.g. one the config's `webServer` starts. Without
   * it, each worker starts its own (with `mockOptions`) on a free port of 127.0.0.1.
   * @default process.env.PETSTORE_KIT_URL
   * @example 'http://127.0.0.1:4010/v1'
   */
  mockUrl: string | undefined;
  /**
   * A key the mock accepts, for its admin API (reset, settings, the request log).
   * @default DEFAULT_API_KEY, the key a mock started without keys accepts
   */
  mockKey: string;
  /**
   * The options of a mock the fixture starts (when there is no `mockUrl`).
   * @default {} (the bundled spec, seeded)
   */
  mockOptions: MockOptions;
}

interface WorkerFixtures extends MockFixtureOptions {
  /** The mock this worker's fixture started, in process; none for the mock at `mockUrl`. */
  mockRunning: RunningMock | undefined;
  /** The mock this worker uses: its base URL. */
  mockBase: string;
  /** This worker's session: `petstore-kit-worker-<parallel index>`. */
  mockSession: string;
}

interface TestFixtures {
  /** Resets the worker's session before each test, whether the test names `mock` or not. */
  mockReset: undefined;
  /** The test's controls for a mock in its pages (MSW in the browser), which each page asks for. */
  mockPages: PageChannel;
  mock: TestMock;
}

/**
 * Playwright's `test` with the mock: each worker its own `Mock-Session` (every request its
 * pages make carries it), each test a reset of that session, and `mock` to force a scenario,
 * set latency and read the requests the page made. Against the mock at `mockUrl` (the
 * config's `webServer`), else one each worker starts.
 * @example
 * import { expect, test } from 'petstore-kit/playwright';
 *
 * test('shows the error state', async ({ page, mock }) => {
 *   await mock.force('code=500');
 *   await page.goto('/');
 *   await expect(page.getByRole('alert')).toBeVisible();
 *   expect(await mock.requests({ path: '/v1/categories', method: 'GET' })).toHaveLength(1);
 * });
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  mockUrl: [process.env.PETSTORE_KIT_URL, { option: true, scope: 'worker' }],
  mockKey: [DEFAULT_API_KEY, { option: true, scope: 'worker' }],
  mockOptions: [{}, { option: true, scope: 'worker' }],
  mockRunning: [
    async ({ mockUrl, mockOptions }, use) => {
      if (mockUrl !== undefined) return use(undefined);
      const running = await startMock({ ...mockOptions, port: 0, host: '127.0.0.1' });
      try {
        await use(running);
      } finally {
        await running.close();
      }
    },
    { scope: 'worker' },
  ],
  mockBase: [
    async ({ mockUrl, mockRunning }, use) =>
      use(mockRunning?.url ?? (mockUrl ?? '').replace(/\/+$/, '')),
    { scope: 'worker' },
  ],
  mockSession: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => use(`petstore-kit-worker-${workerInfo.parallelIndex}`),
    { scope: 'worker' },
  ],
  extraHTTPHeaders: async ({ extraHTTPHeaders, mockSession }, use) =>
    use({ ...extraHTTPHeaders, 'Mock-Session': mockSession }),
  // eslint-disable-next-line no-empty-pattern -- as mockSession's
  mockPages: async ({}, use) => use(pageChannel()),
  context: async ({ context, mockPages }, use) => {
    // Bound before any page's scripts run, on every navigation: a mock in the page asks per request.
    await context.exposeBinding(PAGE_CHANNEL, (_source, report?: PageReport) =>
      mockPages.answer(report),
    );
    await use(context);
  },
  mockReset: [
    async ({ mockBase, mockKey, mockSession }, use) => {
      await admin(mockBase, mockKey, mockSession, 'POST', '/reset');
      await use(undefined);
    },
    { auto: true },
  ],
  mock: async ({ mockBase, mockKey, mockSession, mockPages, mockRunning }, use) => {
    const call = (method: string, path: string, body?: unknown) =>
      admin(mockBase, mockKey, mockSession, method, path, body);
    // Each control goes to the server's session and to the test's pages: the fixture cannot
    // tell which of the two answers the page (directly or through a proxy, or MSW in the page).
    const reset = async () => {
      await call('POST', '/reset');
      mockPages.reset();
    };
    const change = async (settings: SettingsChange) => {
      await call('PATCH', '/settings', settings);
      mockPages.change(settings);
    };
    await use({
      url: mockBase,
      // A getter: `watch` swaps the mock a running one holds.
      get mock() {
        return mockRunning?.mock;
      },
      session: mockSession,
      reset,
      force: (prefer, options = {}) => change({ force: forceOf(prefer, options) }),
      clear: () => change({ force: null }),
      async latency(ms) {
        await change({ delay: typeof ms === 'number' ? { min: ms, max: ms } : ms });
      },
      async requests(query = {}) {
        const search = new URLSearchParams({ limit: '1000' });
        for (const [name, value] of Object.entries(query))
          if (value !== undefined) search.set(name, value);
        const list = (await call('GET', `/requests?${search}`)) as { requests: LoggedRequest[] };
        return list.requests.reverse();
      },
      coverage: async () => (await call('GET', '/coverage')) as Coverage,
    });
  },
});

export { expect } from '@playwright/test';

/**
 * The force `PATCH /__mock/settings` takes (spec/admin.yaml's Force).
 * @throws {TypeError} for options that name no end the mock can keep.
 */
function forceOf(prefer: string, options: ForceOptions): Force {
  const { times, for: ms, until } = options;
  if (times !== undefined && !(Number.isInteger(times) && times >= 1))
    throw new TypeError(`mock.force(): times is a whole number of calls, at least 1, not ${times}`);
  if (ms !== undefined && !(Number.isFinite(ms) && ms > 0))
    throw new TypeError(`mock.force(): for is a time in milliseconds above 0, not ${ms}`);
  if (until !== undefined && until !== 'cleared')
    throw new TypeError(`mock.force(): until takes 'cleared', not ${JSON.stringify(until)}`);
  return {
    prefer,
    ...(times === undefined ? {} : { times }),
    ...(ms === undefined ? {} : { until: new Date(Date.now() + ms).toISOString() }),
  };
}

/**
 * One call to the mock's admin API (`/__mock`, at the origin of `base`) in the session.
 * @throws {Error} naming the call and the answer, when it is not a success.
 */
async function admin(
  base: string,
  key: string,
  session: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const url = `${new URL(base).origin}/__mock${path}`;
  const response = await fetch(url, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      'Mock-Session': session,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`petstore-kit: ${method} ${url} answered ${response.status}: ${text}`);
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}
