import { http, type HttpHandler } from 'msw';
import type { SchemeSummary } from '../core/security.js';
import { ADMIN_SPEC_PATH } from '../openapi/bundled.js';
import { loadSpec } from '../openapi/load.js';
import type { Resource } from '../openapi/resources.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import {
  CheckedJson,
  malformedText,
  type CheckedAnswer,
  type Fault,
  type Reply,
} from '../vocabulary/answer.js';
import type { MockRequest } from '../vocabulary/request.js';
import { createCoreApp } from './create-core.js';
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
  const settings = resolveOptions(options, ['origin']);
  const spec = typeof settings.spec === 'object' ? settings.spec : await loadSpec(settings.spec);
  const adminSpec = await loadSpec(ADMIN_SPEC_PATH);
  const store =
    settings.storage.kind === 'custom'
      ? settings.storage.store
      : createMemoryStore({ limits: settings.storeLimits });
  const app = createCoreApp({ ...settings, spec, adminSpec, store });
  await app.seed({ count: settings.seedCount, seed: settings.seed });
  await store.markInitial();

  const origin = options.origin === undefined ? undefined : new URL(options.origin).origin;
  const handler = http.all(
    ({ request }) => {
      const url = new URL(request.url);
      if (origin !== undefined && url.origin !== origin) return false;
      return app.core.route(request.method, url.pathname + url.search).api !== undefined;
    },
    async ({ request }) => {
      const url = new URL(request.url);
      const reply = await app.core.handle(await mockRequest(request, url.pathname + url.search));
      return responseOf(reply, request.method);
    },
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

/**
 * A Fetch request (what MSW hands a resolver) as the core receives one. Fetch keeps
 * Content-Length off a request's headers (the network layer adds it as it sends): the body,
 * already in memory, is read first, and its length is the one a server would have been told.
 */
async function mockRequest(request: Request, target: string): Promise<MockRequest> {
  const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  const headers: Record<string, string> = {};
  const rawHeaders: string[] = [];
  // Fetch joins a repeated header into one value: the core sees it sent once.
  request.headers.forEach((value, name) => {
    headers[name] = value;
    rawHeaders.push(name, value);
  });
  if (body !== undefined && headers['content-length'] === undefined) {
    headers['content-length'] = String(body.length);
    rawHeaders.push('content-length', String(body.length));
  }
  return {
    method: request.method,
    target,
    headers,
    rawHeaders,
    readBody: () => Promise.resolve(body ?? Buffer.alloc(0)),
  };
}

/** The core's reply as the Response MSW sends back. */
function responseOf(reply: Reply, method: string): Response | Promise<Response> {
  if (reply.fault) return faultResponse(reply.fault);
  const { answer } = reply;
  const bodiless = method === 'HEAD' || answer.status === 204 || answer.status === 304;
  return new Response(bodiless ? null : bytesOf(answer), {
    status: answer.status,
    headers: answer.headers,
  });
}

function bytesOf({ body }: CheckedAnswer): Uint8Array | null {
  if (body === undefined) return null;
  return body instanceof CheckedJson ? body.bytes : body.joined();
}

/** A network fault as MSW plays one: a network error (after holding it, for a timeout), or a cut body. */
async function faultResponse(fault: Fault): Promise<Response> {
  if (fault.kind === 'malformed')
    return new Response(malformedText(fault), {
      status: fault.status,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
  if (fault.kind === 'timeout') await new Promise((resolve) => setTimeout(resolve, fault.holdMs));
  return Response.error();
}
