import { http, type HttpHandler } from 'msw';
import type { SchemeSummary } from '../core/security.js';
import { ADMIN_SPEC_PATH } from '../openapi/bundled.js';
import { loadSpec } from '../openapi/load.js';
import type { Resource } from '../openapi/resources.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import { buildMock } from './create-core.js';
import { resolveOptions, type MockOptions } from './options.js';

/**
 * The options of mockHandlers: the mock's, but those of a server (where it listens, its HTTP
 * bounds, CORS, a data file, Redis, watching the spec's file), which MSW has no use for.
 */
export interface MswMockOptions extends Omit<
  MockOptions,
  | 'port'
  | 'host'
  | 'limits'
  | 'cors'
  | 'data'
  | 'redis'
  | 'redisPrefix'
  | 'watch'
  | 'logRequests'
  | 'storeHasData'
> {
  /**
   * The origin the handlers answer for: requests to other origins are left to MSW (and to its
   * `onUnhandledRequest`). A page's own relative URLs (`fetch('/v1/pets')`) are of its origin.
   * @default any origin: every request under the spec's base path (`/v1`) or the admin API's
   * @example 'http://localhost:5173'
   */
  origin?: string;
}

/** The mock as MSW request handlers, and what a test setup needs of it. */
export interface MswMock {
  /**
   * One handler for every path of the mocked API (`/v1/...`) and of its admin API
   * (`/__mock/...`): give them to `setupServer` or `setupWorker`.
   */
  readonly handlers: readonly HttpHandler[];
  /** The mocked API's base path, from the spec's servers: `/v1`. */
  readonly basePath: string;
  /** The keys it accepts (or the default one), as given. */
  readonly apiKeys: readonly string[];
  /** The basic credentials it accepts (or the default one), `user:password`. */
  readonly basic: readonly string[];
  /** What each security scheme of the spec accepts, one line per scheme. */
  readonly security: readonly SchemeSummary[];
  /** The collections inferred from the spec. */
  readonly resources: readonly Resource[];
  readonly store: Store;
  /**
   * Back to the start-up data (as `POST /__mock/reset` does): the default state's records,
   * scenario settings and request log. A session is reset by `POST /__mock/reset` with its
   * `Mock-Session` header, or dropped by `DELETE /__mock/sessions/{id}`.
   */
  reset(): Promise<void>;
  /**
   * Fills the collections (all, or those named) with generated records, over what they hold:
   * reset first for exactly these.
   * @example await mock.reset(); await mock.seed({ count: 3, seed: 7 }, ['categories']);
   */
  seed(settings: { count: number; seed: number }, only?: readonly string[]): Promise<void>;
  /** Closes the store. */
  close(): Promise<void>;
}

/**
 * The mock as MSW 2 request handlers: the same core and spec as the server, so the answers
 * are the server's (state kept across requests, every request and answer checked against the
 * spec, credentials, `Prefer` scenarios, `Mock-Session` sessions, errors in the spec's own
 * shape), with no port: for Vitest or Jest (`setupServer`) and for a page or Storybook
 * (`setupWorker`). Network faults are MSW's network error (`reset`, and `timeout` after
 * `faultTimeoutMs`); `malformed` sends half the JSON.
 * @throws {StartupError} for a spec it cannot serve (SpecError).
 * @example
 * import { setupServer } from 'msw/node';
 * import { mockHandlers } from 'petstore-kit/msw';
 *
 * const mock = await mockHandlers({ apiKeys: ['test-key'] });
 * const server = setupServer(...mock.handlers);
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
 * beforeEach(() => mock.reset());
 * afterAll(() => server.close());
 */
export async function mockHandlers(options: MswMockOptions = {}): Promise<MswMock> {
  const settings = resolveOptions(options);
  const spec = typeof settings.spec === 'object' ? settings.spec : await loadSpec(settings.spec);
  const adminSpec = await loadSpec(ADMIN_SPEC_PATH);
  const store = settings.store ?? createMemoryStore({ limits: settings.storeLimits });
  const app = buildMock({ ...options, spec, adminSpec, store });
  await app.seed({ count: settings.seedCount, seed: settings.seed });
  await store.markInitial();

  const origin = options.origin === undefined ? undefined : new URL(options.origin).origin;
  const handler = http.all(
    ({ request }) => {
      const url = new URL(request.url);
      if (origin !== undefined && url.origin !== origin) return false;
      return app.route(request.method, url.pathname + url.search).api !== undefined;
    },
    ({ request }) => app.fetch(request),
  );
  return {
    handlers: [handler],
    basePath: app.basePath,
    apiKeys: settings.apiKeys,
    basic: settings.basic,
    security: app.security,
    resources: app.resources,
    store,
    reset: app.reset,
    seed: app.seed,
    close: () => store.close(),
  };
}
