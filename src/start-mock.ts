import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestLog } from './admin/request-log.js';
import { createApp, type AppOptions } from './app.js';
import { ADMIN_SPEC_PATH, DEFAULT_API_KEY, DEFAULT_SPEC_PATH } from './defaults.js';
import { silentLogger, type Logger } from './http/logger.js';
import { requestLogger } from './http/logger.js';
import { createMockServer, type ServerLimits } from './http/server.js';
import { loadSpec, type LoadedSpec } from './spec/load.js';
import { openFileStore } from './state/file-store.js';
import { createMemoryStore } from './state/memory-store.js';
import type { Store, StoreLimits } from './state/store.js';

export { DEFAULT_API_KEY };

export interface StartMockOptions {
  /**
   * The port to listen on; 0 picks a free one.
   * @default 0
   */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /**
   * The accepted bearer keys.
   * @default [DEFAULT_API_KEY]
   */
  apiKeys?: readonly string[];
  /**
   * The spec to serve: a path, or a spec already loaded.
   * @default the bundled spec/openapi.yaml
   */
  spec?: string | LoadedSpec;
  /**
   * Records generated for each collection at start-up (not when `store` holds data).
   * @default 10
   */
  seedCount?: number;
  /**
   * The same seed gives the same generated data.
   * @default 1
   */
  seed?: number;
  /**
   * A file that keeps the data across restarts: every write answered 2xx is on disk
   * before its answer. Seeded only when new. Ignored when `store` is given.
   * @default none: the data lives in memory
   * @example 'mock-data.jsonl'
   */
  data?: string;
  /**
   * Where records live.
   * @default a new in-memory store, or the file store of `data`
   */
  store?: Store;
  /** Whether `store` came with data of its own, which seeding must leave alone. */
  storeHasData?: boolean;
  /** @default DEFAULT_STORE_LIMITS, for the default store */
  storeLimits?: Partial<StoreLimits>;
  /** @default DEFAULT_SERVER_LIMITS */
  limits?: Partial<ServerLimits>;
  /** @default 1 MiB */
  bodyLimit?: number;
  /** @default a logger that writes nothing */
  logger?: Logger;
  /**
   * One log line per request.
   * @default false
   */
  logRequests?: boolean;
  /**
   * CORS for pages on other origins, as `createApp` takes it.
   * @default {} (any origin, without credentials)
   * @example { origins: ['http://localhost:5173'] }
   */
  cors?: AppOptions['cors'];
  /** Latency and random faults of every answer (see AppOptions.scenarios). */
  scenarios?: AppOptions['scenarios'];
  /** @default 30000 */
  faultTimeoutMs?: number;
  /** @default 'experimental' (everything served) */
  stability?: AppOptions['stability'];
  /**
   * Reload the spec when its file changes, keeping the data where the schemas still fit; a
   * broken edit keeps the last good spec serving and logs one line naming the problem.
   * @default false
   */
  watch?: boolean;
  /** Steps run before routing, after CORS. */
  before?: AppOptions['before'];
}

/** A running mock. */
export interface RunningMock {
  /** Its base URL, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** The keys it accepts. */
  apiKeys: readonly string[];
  server: Server;
  store: Store;
  /** Back to the start-up data (as `POST /__mock/reset` does), and an empty request log. */
  reset(): Promise<void>;
  /** Stops it: in-flight requests finish (bounded), the store is closed. */
  close(): Promise<void>;
}

/**
 * Starts the mock, seeded, with its admin API: for Vitest `globalSetup`, Playwright
 * fixtures, or any script.
 * @example
 * const mock = await startMock({ apiKeys: ['test-key'] });
 * await fetch(`${mock.url}/categories`, { headers: { Authorization: 'Bearer test-key' } });
 * await mock.reset();
 * await mock.close();
 */
export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const spec =
    typeof options.spec === 'object'
      ? options.spec
      : await loadSpec(options.spec ?? DEFAULT_SPEC_PATH);
  const adminSpec = await loadSpec(ADMIN_SPEC_PATH);
  const apiKeys = options.apiKeys?.length ? options.apiKeys : [DEFAULT_API_KEY];
  const logger = options.logger ?? silentLogger();
  const { store, hasData } = await openStore(options, logger);
  const requestLog = createRequestLog();

  const app = createApp({
    spec,
    adminSpec,
    apiKeys,
    store,
    logger,
    requestLog,
    seed: options.seed ?? 1,
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    ...(options.before ? { before: options.before } : {}),
    ...(options.cors === undefined ? {} : { cors: options.cors }),
    ...(options.scenarios ? { scenarios: options.scenarios } : {}),
    ...(options.faultTimeoutMs === undefined ? {} : { faultTimeoutMs: options.faultTimeoutMs }),
    ...(options.stability ? { stability: options.stability } : {}),
  });
  if (!hasData) {
    await app.seed({ count: options.seedCount ?? 10, seed: options.seed ?? 1 });
  }
  await store.markInitial();

  const logged = options.logRequests ? requestLogger(logger, app) : app;
  const { server, close } = createMockServer(logged, options.limits);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (err: NodeJS.ErrnoException) => {
    await store.close();
    throw new Error(listenFailure(err, host, options.port ?? 0));
  });

  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${app.basePath}`,
    apiKeys,
    server,
    store,
    async reset() {
      await store.reset();
      requestLog.clear();
    },
    async close() {
      await close();
      await store.close();
    },
  };
}

async function openStore(
  options: StartMockOptions,
  logger: Logger,
): Promise<{ store: Store; hasData: boolean }> {
  if (options.store) return { store: options.store, hasData: options.storeHasData ?? false };
  const limits = options.storeLimits ?? {};
  if (!options.data) return { store: createMemoryStore({ limits }), hasData: false };
  const store = await openFileStore(options.data, {
    limits,
    onWarning: (line) => logger.warn(line),
  });
  return { store, hasData: store.loaded };
}

function listenFailure(err: NodeJS.ErrnoException, host: string, port: number): string {
  const where = `${host}:${port}`;
  if (err.code === 'EADDRINUSE') return `cannot listen on ${where}: the port is already in use`;
  if (err.code === 'EACCES') return `cannot listen on ${where}: permission denied`;
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
    return `cannot listen on ${where}: no such address`;
  return `cannot listen on ${where}: ${err.message}`;
}
