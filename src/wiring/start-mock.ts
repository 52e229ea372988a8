import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Mock } from '../core/create-mock.js';
import { hostCheck, type HostStep } from '../http/host-check.js';
import { silentLogger, type Logger } from '../http/logger.js';
import type { MockListener } from '../http/listener.js';
import { unparsedOperations } from '../http/methods.js';
import { createMockServer } from '../http/server.js';
import { ADMIN_SPEC_PATH } from '../openapi/bundled.js';
import { specFingerprint, type SpecFingerprint } from '../openapi/fingerprint.js';
import { loadSpec } from '../openapi/load.js';
import { listOperations } from '../openapi/operations.js';
import { watchFile } from '../openapi/watch.js';
import { openFileStore } from '../store/file-store.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { StateBackend, Store } from '../store/store.js';
import { stateBackend } from '../store/with-local-side-data.js';
import { StartupError } from '../vocabulary/errors.js';
import { keepCoverageFile } from './coverage-file.js';
import { appOf, describeUnfit } from './create-app.js';
import {
  resolveOptions,
  serverLimitsOf,
  storeLimitsOf,
  type MockOptions,
  type ResolvedOptions,
} from './options.js';

/** A running mock: the one mock, and what listening adds (a URL, the server, close). */
export interface RunningMock {
  /**
   * The mock serving now (`--watch` swaps it): its base path, store, state, security, warnings,
   * collections, `seed` and `reset`, and `fetch` and `handle` to call it with no socket.
   */
  readonly mock: Mock;
  /** Its base URL, e.g. `http://127.0.0.1:4010/v1`. */
  readonly url: string;
  readonly server: Server;
  /** Stops it: in-flight requests finish (bounded), the store is closed. */
  close(): Promise<void>;
}

/**
 * Starts the mock, seeded, with its admin API: for Vitest `globalSetup`, Playwright
 * fixtures, or any script.
 * @example
 * const running = await startMock({ apiKeys: ['test-key'] });
 * await fetch(`${running.url}/categories`, { headers: { Authorization: 'Bearer test-key' } });
 * await running.mock.reset();
 * await running.close();
 */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const settings = resolveOptions(options);
  if (settings.host.trim() === '')
    throw new StartupError('the host to listen on is empty: give an address such as 127.0.0.1');
  const mock = await openMock(settings, { hosts: hostCheck(settings.host, settings.allowedHosts) });

  const { server, close } = createMockServer(mock, serverLimitsOf(settings));
  const origin = await listenAt(server, settings.host, settings.port).catch(
    async (err: unknown) => {
      await mock.close();
      throw err;
    },
  );
  const { coverageFile } = settings;
  // The mock serving now: `--watch` swaps it, and the next takes over the run's tally.
  const coverage = coverageFile
    ? keepCoverageFile(coverageFile, () => mock.mock.runCoverage())
    : undefined;
  return {
    get mock() {
      return mock.mock;
    },
    url: `${origin}${mock.mock.basePath}`,
    server,
    async close() {
      await close();
      await coverage?.close();
      await mock.close();
    },
  };
}

/**
 * A mock ready to serve but not listening: what startMock and mockMiddleware share. It holds
 * the mock (its base path, store, state, reset) and adds what serving it needs.
 */
export interface OpenMock extends MockListener {
  /** The mock serving now: `watch` swaps it for the mock of the new spec, which takes over its state. */
  readonly mock: Mock;
  /** The state backend it opened (and closes): the mock's store wraps it (a large spec's seeding on first use). */
  backend: StateBackend;
  /** Stops watching the spec and precompiling (see Mock.precompiling), and closes the store. */
  close(): Promise<void>;
}

/**
 * Loads the spec and the admin spec, opens the store, seeds it (or checks the data it holds
 * still fits), marks the start-up state, and watches the spec when asked.
 * @throws {StartupError} for a spec, a data file or data it cannot serve.
 */
export async function openMock(
  settings: ResolvedOptions,
  serving: {
    /** Which Host headers it answers; none: all (mounted in an app, which decides). */
    hosts?: HostStep | undefined;
  } = {},
): Promise<OpenMock> {
  const spec = typeof settings.spec === 'object' ? settings.spec : await loadSpec(settings.spec);
  const adminSpec = await loadSpec(ADMIN_SPEC_PATH);
  const logger = settings.logger ?? silentLogger();
  // Only Redis needs the fingerprint, and it hashes the whole document.
  const opened = await openStore(settings, logger, () => specFingerprint(spec));
  const { hasData } = opened;
  const store = stateBackend(opened.store);

  const parts = { spec, adminSpec, store, ...(serving.hosts ? { hosts: serving.hosts } : {}) };
  const seeding = { count: settings.seedCount, seed: settings.seed };
  const { seedWorkflows, apiKeys } = settings;
  let app = appOf(settings, parts);
  const unparsed = unparsedOperations(listOperations(spec.resolved));
  if (unparsed.length > 0)
    logger.warn(
      `Node's HTTP parser refuses the method of ${unparsed.join(', ')} (it answers 400 before the mock sees the request): served through mock.fetch and MSW only`,
    );
  // A large spec's collections are seeded on first use (see lazySeeding), but those of a store
  // that outlives the process (a data file, Redis, a store of the caller's) now: a file is
  // seeded once, when new, and every replica must see the records the first one made.
  const { storage } = settings;
  const seedNow =
    storage.kind === 'memory' ? undefined : app.mock.resources.map((resource) => resource.name);
  if (!hasData) await app.mock.seed(seeding, seedNow);
  else
    await refuseUnfitData(
      app.mock,
      store,
      storage.kind === 'file' ? storage.path : storage.kind === 'redis' ? storage.url : 'the store',
    );
  // Seed workflows make the start-up state: marked below, it is what every reset returns to and
  // every new session starts from. A store that holds data already has its state.
  if (!hasData && seedWorkflows.length > 0) {
    const { runSeedWorkflows } = await import('./seed-workflows.js');
    await runSeedWorkflows(app.mock, seedWorkflows, apiKeys);
  }
  // A shared store that held data was seeded and marked by the replica that opened it first:
  // marking it again would move the state every replica resets to.
  if (!(hasData && store.shared)) await store.markInitial();
  // The seed workflows' requests are no part of the run: the log and coverage start empty.
  if (!hasData && seedWorkflows.length > 0) await app.mock.reset();

  let stopWatching = (): void => {};
  if (settings.watch && typeof settings.spec === 'string') {
    const path = settings.spec;
    let reloading = Promise.resolve();
    stopWatching = watchFile(path, () => {
      reloading = reloading.then(async () => {
        try {
          const next = appOf(settings, {
            ...parts,
            spec: await loadSpec(path),
            carriedFrom: app.mock,
          });
          const summary = await adoptData(app.mock, next.mock, store, seeding);
          app = next;
          logger.info(`spec reloaded from ${path}: ${summary}`);
        } catch (err) {
          logger.warn(
            `spec not reloaded, the last good one still serves: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      });
    });
  }

  // Whichever app is current answers.
  return {
    get mock() {
      return app.mock;
    },
    listener: (req, res) => app(req, res),
    routed: (req, res, route) => app.routed(req, res, route),
    backend: store,
    async close() {
      stopWatching();
      // Else it goes on compiling a large document's schemas in the background, seconds of
      // CPU in the process that closed it (a test run that starts mock after mock).
      app.mock.precompiling?.stop();
      await store.close();
    },
  };
}

/**
 * Refuses to start on data the spec no longer describes (the spec changed between runs):
 * every answer holding one of those records would be a 500, and nothing the mock could do
 * to them (drop them, reseed) would leave the user's data as it was.
 * @throws {StartupError} naming the records and why they no longer fit.
 */
async function refuseUnfitData(app: Mock, store: Store, where: string): Promise<void> {
  const unfit = await app.unfitRecords();
  if (unfit.length === 0) return;
  await store.close();
  throw new StartupError(
    `the data in ${where} no longer fits the spec: ${describeUnfit(unfit)}; start with the spec it was written for and change those records, or start with another data file`,
  );
}

/**
 * Moves the data over to the app of a changed spec, or refuses to: a spec being edited never
 * destroys data. Collections the spec just gained are seeded; when records no longer fit their
 * changed schema, the reload is held (the last good spec keeps serving, every record kept)
 * with a warning naming them, until they are changed or the spec relaxed and saved again.
 * @returns what became of the data, for the log line.
 * @throws {Error} naming the records when the reload is held.
 */
async function adoptData(
  previous: Mock,
  next: Mock,
  store: StateBackend,
  seeding: { count: number; seed: number },
): Promise<string> {
  const unfit = await next.unfitRecords();
  if (unfit.length > 0)
    throw new Error(
      `it no longer fits ${describeUnfit(unfit)}, and every record is kept: change them, or relax the spec, and save it again`,
    );
  const known = new Set(previous.resources.map((resource) => resource.name));
  const fresh = next.resources.filter((resource) => !known.has(resource.name)).map((r) => r.name);
  if (fresh.length > 0) await next.seed(seeding, fresh);
  if (!store.shared) await store.markInitial();
  return (
    `${next.resources.length} collections; kept the data of ${[...known].join(', ') || 'none'}` +
    (fresh.length ? `; seeded the new ${fresh.join(', ')}` : '')
  );
}

async function openStore(
  options: ResolvedOptions,
  logger: Logger,
  spec: () => SpecFingerprint,
): Promise<{ store: Store; hasData: boolean }> {
  const { storage } = options;
  const limits = storeLimitsOf(options);
  if (storage.kind === 'custom') return { store: storage.store, hasData: storage.hasData };
  if (storage.kind === 'redis') {
    // Loaded only for Redis (the client is a fifth of a second of modules, and optional).
    const { openRedisStore } = await import('../store/open-redis.js');
    const store = await openRedisStore(storage.url, {
      prefix: storage.prefix,
      limits,
      reseed: storage.reseed,
      allowEviction: storage.allowEviction,
      spec: spec(),
    });
    if (store.reseeded)
      logger.warn(
        `the start-up data under the Redis prefix "${storage.prefix}" was lost: seeding it again (--redis-reseed)`,
      );
    return { store, hasData: store.loaded };
  }
  if (storage.kind === 'memory') return { store: createMemoryStore({ limits }), hasData: false };
  const store = await openFileStore(storage.path, {
    limits,
    onWarning: (line) => logger.warn(line),
  });
  return { store, hasData: store.loaded };
}

/**
 * Starts a server listening, and gives its origin (`http://127.0.0.1:4010`).
 * @throws {StartupError} saying why it cannot listen there (the port in use, no such address).
 */
export async function listenAt(server: Server, host: string, wanted: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(wanted, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err: NodeJS.ErrnoException) => {
    throw new StartupError(listenFailure(err, host, wanted));
  });
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function listenFailure(err: NodeJS.ErrnoException, host: string, port: number): string {
  const where = `${host}:${port}`;
  if (err.code === 'EADDRINUSE') return `cannot listen on ${where}: the port is already in use`;
  if (err.code === 'EACCES') return `cannot listen on ${where}: permission denied`;
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
    return `cannot listen on ${where}: no such address`;
  return `cannot listen on ${where}: ${err.message}`;
}
