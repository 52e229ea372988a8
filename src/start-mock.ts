import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from './app.js';
import { DEFAULT_API_KEY } from './cli/cli.js';
import type { Logger } from './http/logger.js';
import { loadSpec, type LoadedSpec } from './spec/load.js';
import { basePathOf } from './spec/servers.js';
import { generateCategories } from './state/seed-data.js';
import { createMemoryStore, type CategoryStore } from './state/store.js';
import type { NewCategory } from './types.js';

export interface StartMockOptions {
  /**
   * The accepted bearer keys.
   * @default [DEFAULT_API_KEY] ('petstore-kit-dev-key')
   */
  apiKeys?: readonly string[];
  /**
   * The port to listen on; 0 picks a free one, which `url` then names.
   * @default 0
   */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /**
   * Categories generated at start-up, and again at each reset.
   * @default 10
   */
  seedCount?: number;
  /**
   * Seed of those categories: the same seed gives the same data.
   * @default 1
   */
  seed?: number;
  /**
   * The OpenAPI document to serve: a path, or a spec already loaded with `loadSpec`.
   * @default the spec bundled with petstore-kit
   */
  spec?: string | LoadedSpec;
  /**
   * CORS for pages on other origins, as `createApp` takes it.
   * @default {} (any origin, without credentials)
   * @example { origins: ['http://localhost:5173'] }
   */
  cors?: AppOptions['cors'];
  /**
   * Where the mock logs one line per request.
   * @default a logger that writes nothing
   */
  logger?: Logger;
}

/** A running mock, for a Vitest `globalSetup` or a Playwright fixture. */
export interface StartedMock {
  /** Base URL of the API, the spec's base path included, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  /** Back to the start-up data: the same categories, ids counting from where they started. */
  reset(): Promise<void>;
  /** Stops listening; resolves once open connections are closed. */
  close(): Promise<void>;
}

/**
 * Starts the mock in this process, seeded as the CLI seeds it, on a free port by default.
 * @throws {SpecError} for a broken spec, and an Error naming the address it cannot listen on.
 * @example
 * // vitest.config.ts: test.globalSetup: './mock-setup.ts'
 * import { startMock } from 'petstore-kit';
 * export default async function setup({ provide }) {
 *   const mock = await startMock({ apiKeys: ['test-key'] });
 *   provide('apiUrl', mock.url);
 *   return () => mock.close();
 * }
 */
export async function startMock(options: StartMockOptions = {}): Promise<StartedMock> {
  const spec = typeof options.spec === 'object' ? options.spec : await loadSpec(options.spec);
  const seeded = generateCategories({ count: options.seedCount ?? 10, seed: options.seed ?? 1 });
  const store = resettableStore(() => seededStore(seeded));
  const app = createApp({
    spec,
    apiKeys: options.apiKeys ?? [DEFAULT_API_KEY],
    store,
    logger: options.logger,
    logRequests: options.logger !== undefined,
    cors: options.cors,
  });

  const host = options.host ?? '127.0.0.1';
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`cannot listen on ${host}:${options.port ?? 0}: ${err.code ?? err.message}`);
  });

  const { port } = server.address() as AddressInfo;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${hostInUrl}:${port}${basePathOf(spec.resolved)}`,
    // In process, on the store the app serves: the admin API's POST /__mock/reset does the same over HTTP.
    reset: async () => store.reset(),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // A client that never finishes its request must not keep the mock from stopping.
        setTimeout(() => server.closeAllConnections(), 3000).unref();
      }),
  };
}

function seededStore(categories: readonly NewCategory[]): CategoryStore {
  const store = createMemoryStore();
  for (const category of categories) store.create(category);
  return store;
}

/**
 * A store that can go back to a fresh copy of itself. Its version keeps growing across
 * resets, so that whoever cached a list (the list handler does) reads it again.
 */
function resettableStore(fresh: () => CategoryStore): CategoryStore & { reset(): void } {
  let current = fresh();
  let before = 0;
  return {
    list: () => current.list(),
    get version() {
      return before + current.version;
    },
    create: (input) => current.create(input),
    reset() {
      before += current.version + 1;
      current = fresh();
    },
  };
}
