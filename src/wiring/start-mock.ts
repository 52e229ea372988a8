import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestLog } from '../core/admin/request-log.js';
import { createApp, type AppOptions, type MockApp } from './create-app.js';
import type { Scenarios } from '../core/scenarios/settings.js';
import { watchFile } from '../openapi/watch.js';
import { collectionSpecOf } from '../openapi/resources.js';
import { ADMIN_SPEC_PATH, DEFAULT_API_KEY, DEFAULT_SPEC_PATH } from './defaults.js';
import { silentLogger, type Logger } from '../http/logger.js';
import { requestLogger } from '../http/logger.js';
import { createMockServer, type ServerLimits } from '../http/server.js';
import { loadSpec, type LoadedSpec } from '../openapi/load.js';
import { openFileStore } from '../store/file-store.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { RecordId, Store, StoreLimits } from '../store/store.js';

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

  const appFor = (served: LoadedSpec, scenarios?: Scenarios): MockApp =>
    createApp({
      spec: served,
      adminSpec,
      apiKeys,
      store,
      logger,
      requestLog,
      seed: options.seed ?? 1,
      ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
      ...(options.before ? { before: options.before } : {}),
      ...(options.cors === undefined ? {} : { cors: options.cors }),
      ...(scenarios ? { scenarios } : options.scenarios ? { scenarios: options.scenarios } : {}),
      ...(options.faultTimeoutMs === undefined ? {} : { faultTimeoutMs: options.faultTimeoutMs }),
      ...(options.stability ? { stability: options.stability } : {}),
    });
  const seeding = { count: options.seedCount ?? 10, seed: options.seed ?? 1 };
  let app = appFor(spec);
  if (!hasData) await app.seed(seeding);
  await store.markInitial();

  // The server calls whichever app is current: --watch swaps it for one of the new spec.
  const current = (req: IncomingMessage, res: ServerResponse) => app(req, res);
  let stopWatching = (): void => {};
  if (options.watch && typeof options.spec !== 'object') {
    const path = options.spec ?? DEFAULT_SPEC_PATH;
    let reloading = Promise.resolve();
    stopWatching = watchFile(path, () => {
      reloading = reloading.then(async () => {
        try {
          const next = appFor(await loadSpec(path), app.scenarios);
          const summary = await adoptData(app, next, store, seeding);
          app = next;
          logger.info(`spec reloaded from ${path}: ${summary}`);
        } catch (err) {
          logger.error(
            `spec not reloaded, the last good one still serves: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      });
    });
  }

  const logged = options.logRequests ? requestLogger(logger, current) : current;
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
    reset: () => app.reset(),
    async close() {
      stopWatching();
      await close();
      await store.close();
    },
  };
}

/**
 * Moves the data over to the app of a changed spec: collections whose records all still fit
 * their schema keep them; those that no longer fit, and collections the spec just gained,
 * are seeded anew. The state after it is what a reset returns to.
 */
async function adoptData(
  previous: MockApp,
  next: MockApp,
  store: Store,
  seeding: { count: number; seed: number },
): Promise<string> {
  const known = new Set(previous.resources.map((resource) => resource.name));
  const unfit = await next.unfitCollections();
  const fresh = next.resources.filter((resource) => !known.has(resource.name));
  for (const resource of next.resources.filter((r) => unfit.includes(r.name))) {
    const collection = store.collection(collectionSpecOf(resource));
    for (const record of await collection.list())
      await collection.remove(record[resource.idProperty] as RecordId);
  }
  const reseeded = [...unfit, ...fresh.map((resource) => resource.name)];
  if (reseeded.length > 0) await next.seed(seeding, reseeded);
  await store.markInitial();
  const kept = next.resources.filter((resource) => !reseeded.includes(resource.name));
  return (
    `${next.resources.length} collections; kept the data of ${kept.map((r) => r.name).join(', ') || 'none'}` +
    (reseeded.length ? `; seeded anew (its schema changed or is new): ${reseeded.join(', ')}` : '')
  );
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
