import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { descriptorOf } from '../core/resources/handlers.js';
import { requestLogger, silentLogger, type Logger } from '../http/logger.js';
import { createMockServer } from '../http/server.js';
import { ADMIN_SPEC_PATH } from '../openapi/bundled.js';
import { loadSpec } from '../openapi/load.js';
import type { Resource } from '../openapi/resources.js';
import { watchFile } from '../openapi/watch.js';
import { openFileStore } from '../store/file-store.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { RecordId, Store } from '../store/store.js';
import { StartupError } from '../vocabulary/errors.js';
import { createApp, type MockApp } from './create-app.js';
import { resolveOptions, type MockOptions, type ResolvedOptions } from './options.js';

/** The options of startMock: the mock's options (see MockOptions). */
export type StartMockOptions = MockOptions;

/** A running mock. */
export interface RunningMock {
  /** Its base URL, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** The keys it accepts. */
  apiKeys: readonly string[];
  server: Server;
  store: Store;
  /**
   * The collections the mock inferred from its spec (for `--watch`, from the spec serving now):
   * what a test can drive through create, read, list, update and delete.
   */
  readonly resources: readonly Resource[];
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
  const settings = resolveOptions(options);
  const spec = typeof settings.spec === 'object' ? settings.spec : await loadSpec(settings.spec);
  const adminSpec = await loadSpec(ADMIN_SPEC_PATH);
  const logger = settings.logger ?? silentLogger();
  const { store, hasData } = await openStore(settings, logger);

  const appOptions = { ...settings, spec, adminSpec, store, logger };
  const seeding = { count: settings.seedCount, seed: settings.seed };
  let app = createApp(appOptions);
  if (!hasData) await app.seed(seeding);
  await store.markInitial();

  // The server calls whichever app is current: --watch swaps it for one of the new spec.
  const current = (req: IncomingMessage, res: ServerResponse) => app(req, res);
  let stopWatching = (): void => {};
  if (settings.watch && typeof settings.spec === 'string') {
    const path = settings.spec;
    let reloading = Promise.resolve();
    stopWatching = watchFile(path, () => {
      reloading = reloading.then(async () => {
        try {
          const next = createApp({ ...appOptions, spec: await loadSpec(path) }, app);
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

  const logged = settings.logRequests ? requestLogger(logger, current) : current;
  const { server, close } = createMockServer(
    Object.assign(logged, { errorAnswer: (error: unknown) => app.errorAnswer(error) }),
    settings.limits,
  );
  const { host, port: wanted } = settings;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(wanted, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (err: NodeJS.ErrnoException) => {
    await store.close();
    throw new StartupError(listenFailure(err, host, wanted));
  });

  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${app.basePath}`,
    apiKeys: settings.apiKeys,
    server,
    store,
    get resources() {
      return app.resources;
    },
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
    const collection = store.collection(descriptorOf(resource));
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
  options: ResolvedOptions,
  logger: Logger,
): Promise<{ store: Store; hasData: boolean }> {
  if (options.store) return { store: options.store, hasData: options.storeHasData };
  const limits = options.storeLimits;
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
