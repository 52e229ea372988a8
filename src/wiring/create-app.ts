import type { Mock } from '../core/create-mock.js';
import { createBodyReader } from '../http/body.js';
import { corsMiddleware } from '../http/cors.js';
import { createInspectorPage } from '../http/inspector-page.js';
import { createListener, type MockListener } from '../http/listener.js';
import { requestLines, silentLogger } from '../http/logger.js';
import { buildMock, type AppOptions, type AppParts, type BuildParts } from './create-core.js';
import { resolveOptions, type ResolvedOptions } from './options.js';

export { describeUnfit } from '../core/create-mock.js';
export type { AppOptions } from './create-core.js';

/** What createApp takes besides the table's options. */
const APP_PARTS: readonly (keyof AppParts)[] = ['spec', 'adminSpec', 'hosts', 'proxy'];

/**
 * The mock as a Node request listener: a function, so that `http.createServer(app)` takes it,
 * holding the mock it serves (`app.mock`: its base path, store, state, seed and reset).
 */
export interface MockApp {
  (
    req: Parameters<MockListener['listener']>[0],
    res: Parameters<MockListener['listener']>[1],
  ): void;
  /** The mock this listener serves: plain requests (`handle`), Fetch requests (`fetch`), its state. */
  readonly mock: Mock;
  /** Answers a request already routed with `mock.route` (the express mount, the proxy). */
  readonly routed: MockListener['routed'];
}

/**
 * The mock server as a request listener, not yet listening: give it to
 * `http.createServer`, or to `createMockServer` for the HTTP layer's bounds. Every request is
 * checked against the spec, and so is every response: one that breaks the spec becomes a 500.
 * @param from.carriedFrom the mock of the previous version of the same spec, whose state
 * (store, request log, scenario settings) the new one takes over: `--watch` makes one per version.
 * @throws {SpecError} when the spec asks for something the mock cannot serve.
 * @example
 * const app = createApp({ spec: await loadSpec(), apiKeys: ['secret'] });
 * http.createServer(app).listen(0);
 */
export function createApp(options: AppOptions, from: { carriedFrom?: Mock } = {}): MockApp {
  const settings = resolveOptions(options, 'createApp', APP_PARTS);
  const { storage } = settings;
  // A memory store starts with the seed data, as startMock's does; createApp cannot wait for
  // it, so each collection is seeded on its first use. A store of the caller's is theirs.
  const seeded = storage.kind !== 'custom';
  const app = appOf(settings, {
    spec: options.spec,
    ...(seeded ? { seedOnFirstUse: true } : { store: storage.store }),
    ...(options.adminSpec ? { adminSpec: options.adminSpec } : {}),
    ...(options.hosts ? { hosts: options.hosts } : {}),
    ...(options.proxy ? { proxy: options.proxy } : {}),
    ...(from.carriedFrom ? { carriedFrom: from.carriedFrom } : {}),
  });
  // Deferred (seedOnFirstUse): it only records the settings, so nothing is left to await.
  if (seeded && !from.carriedFrom)
    void app.mock.seed({ count: settings.seedCount, seed: settings.seed });
  return app;
}

/**
 * createApp from options already resolved (by startMock, the proxy): they are not read again.
 * @param parts the spec and what the caller opened; `carriedFrom`: see createApp.
 */
export function appOf(settings: ResolvedOptions, parts: BuildParts): MockApp {
  const logger = settings.logger ?? silentLogger();
  const mock = buildMock(settings, parts);
  const node = createListener({
    mock,
    bodyReader: createBodyReader({ limit: settings.bodyLimit }),
    ...(settings.cors === false ? {} : { cors: corsMiddleware(settings.cors) }),
    ...(mock.adminBasePath === undefined
      ? {}
      : { page: createInspectorPage({ basePath: mock.adminBasePath }) }),
    ...(parts.hosts ? { host: parts.hosts } : {}),
    budget: mock.budget,
    sendTimeoutMs: settings.sendTimeoutMs,
    ...(settings.logRequests
      ? { onAnswered: requestLines(logger, { adminBasePath: mock.adminBasePath }) }
      : {}),
  });
  // A function with fields: Node's server takes a function, a user reads the mock.
  return Object.assign(node.listener, { mock, routed: node.routed });
}
