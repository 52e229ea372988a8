// What the MSW handlers are on every platform: the core behind one MSW handler.
// From `msw` itself, which MSW 2 and 3 both export `http` from (`msw/http` is MSW 3's only).
import { http, type HttpHandler } from 'msw';
import type { Mock } from '../core/create-mock.js';
import type { Route } from '../core/mock-core.js';
import type { LoadedSpec } from '../openapi/load.js';
import { createMemoryStore } from '../store/memory-store.js';
import { buildMock } from './create-core.js';
import { resolveOptions, storeLimitsOf, type OptionsOf } from './options.js';
import type { Answerer } from './page-controlled.js';

/**
 * The options of mockHandlers: the table's rows that name `msw` (docs/options.md), which
 * leaves out those of a server (where it listens, its HTTP bounds, CORS, a data file, Redis,
 * watching the spec's file), and the spec as a browser can give it.
 */
export type MswMockOptions = OptionsOf<'msw'> & {
  /**
   * The spec to serve: a path (in Node), a spec already loaded (`loadSpec`), or the OpenAPI
   * document itself, already parsed (an imported JSON file, or YAML through the bundler's
   * plugin): the only form a browser can give, its `$ref`s within the document.
   * @default the bundled spec/openapi.yaml (the categories interface)
   * @example import document from './openapi.json'; await mockHandlers({ spec: document });
   */
  spec?: string | LoadedSpec | Readonly<Record<string, unknown>>;
  /**
   * The origin the handlers answer for: requests to other origins are left to MSW (and to its
   * `onUnhandledRequest`). A page's own relative URLs (`fetch('/v1/pets')`) are of its origin.
   * @default any origin: every request under the spec's base path (`/v1`) or the admin API's
   * @example 'http://localhost:5173'
   */
  origin?: string;
};

/** The mock as MSW request handlers: the one mock, and the handlers and `close` MSW adds. */
export interface MswMock {
  /**
   * The mock the handlers answer with: its base path, store, state, security, collections,
   * `seed` and `reset` (as `POST /__mock/reset` does; a session's is `POST /__mock/reset` with
   * its `Mock-Session` header), and `fetch` and `handle` to call it with no MSW.
   */
  readonly mock: Mock;
  /**
   * One handler for every path of the mocked API (`/v1/...`) and of its admin API
   * (`/__mock/...`): give them to `setupServer` or `setupWorker`.
   */
  readonly handlers: readonly HttpHandler[];
  /** Closes the store. */
  close(): Promise<void>;
}

/** The specs of an MSW mock, read as the platform reads them (from files, or given objects). */
export interface MswSpecs {
  spec: LoadedSpec;
  admin: LoadedSpec;
}

/**
 * The mock's core as MSW request handlers, from specs already read: what mockHandlers does on
 * Node and in the browser alike, once each has read its specs its own way.
 * @param around what the platform puts around the core's answer (in a page, the fixture's controls).
 */
export async function createMswMock(
  options: Omit<MswMockOptions, 'spec'>,
  { spec, admin }: MswSpecs,
  around: (mock: Mock, answer: Answerer) => Answerer = (_mock, answer) => answer,
): Promise<MswMock> {
  const settings = resolveOptions(options, 'msw', ['origin']);
  const store =
    settings.storage.kind === 'custom'
      ? settings.storage.store
      : createMemoryStore({ limits: storeLimitsOf(settings) });
  const mock = buildMock(settings, { spec, adminSpec: admin, store });
  await mock.seed({ count: settings.seedCount, seed: settings.seed });
  await store.markInitial();

  const origin = options.origin === undefined ? undefined : new URL(options.origin).origin;
  // The route MSW's predicate found, handed to the answer: a request is routed once.
  const routes = new WeakMap<Request, Route>();
  const answer = around(mock, (request) => mock.fetch(request, routes.get(request)));
  const handler = http.all(
    ({ request }) => {
      const url = new URL(request.url);
      if (origin !== undefined && url.origin !== origin) return false;
      const route = mock.route(request.method, url.pathname + url.search);
      if (route.api === undefined) return false;
      routes.set(request, route);
      return true;
    },
    ({ request }) => answer(request),
  );
  return { mock, handlers: [handler], close: () => store.close() };
}

/** Whether an object is a spec loadSpec made, rather than an OpenAPI document. */
export function isLoaded(spec: object): spec is LoadedSpec {
  return 'resolved' in spec && 'document' in spec && 'warnings' in spec;
}
