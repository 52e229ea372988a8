import { createBodyReader } from '../http/body.js';
import { corsMiddleware } from '../http/cors.js';
import { createInspectorPage } from '../http/inspector-page.js';
import { createListener, type MockListener } from '../http/listener.js';
import { requestLines, silentLogger } from '../http/logger.js';
import type { createAnswerRules } from '../core/proxy/answer-rules.js';
import type { MockStates } from '../core/state.js';
import type { SchemeSummary } from '../core/security.js';
import type { Resource } from '../openapi/resources.js';
import type { Store } from '../store/store.js';
import {
  createCoreApp,
  type AppOptions,
  type AppSettings,
  type CarriedState,
  type UnfitRecords,
} from './create-core.js';
import { resolveOptions } from './options.js';

/** What createApp takes besides the mock's options. */
const APP_ONLY: readonly (keyof AppOptions)[] = ['adminSpec', 'hosts', 'proxy'];

export {
  describeUnfit,
  EAGER_CHECK_BYTES,
  type AppOptions,
  type AppSettings,
  type UnfitRecords,
} from './create-core.js';

/** The mock as a Node request listener, with what was inferred from its spec and its state. */
export interface MockApp extends MockListener {
  /** The collections inferred from the spec, served from the store. */
  readonly resources: readonly Resource[];
  readonly basePath: string;
  /** Where the records live. */
  readonly store: Store;
  /** The default state and the sessions' (a `Mock-Session` header selects one). */
  readonly states: MockStates;
  /**
   * What each security scheme of the spec accepts, one line per scheme (never a secret the
   * user gave), and what to warn of (a scheme nothing can meet, a key that names no scheme).
   */
  readonly security: readonly SchemeSummary[];
  /**
   * Fills the collections (all, or those named) with `count` records generated from
   * their schemas (see seedResources).
   * @example await app.seed({ count: 10, seed: 1 });
   */
  seed(options: { count: number; seed: number }, only?: readonly string[]): Promise<void>;
  /**
   * The defects of the spec the mock lives with, one line each, as the logger was told of
   * them: the document's (see LoadedSpec), then those found by checking its operations, at
   * start-up for a small document, as each operation is first called for a large one.
   */
  readonly warnings: readonly string[];
  /** Checks an answer the proxy saw against the spec (see createAnswerRules). */
  readonly answerRules: ReturnType<typeof createAnswerRules>;
  /** Back to the start-up state: the store's data, the scenario settings, an empty request log. */
  reset(): Promise<void>;
  /** The records that no longer fit their collection's schema (after a spec change). */
  unfitRecords(): Promise<UnfitRecords[]>;
}

/**
 * The mock server as a request listener, not yet listening: give it to
 * `http.createServer`, or to `createMockServer` for the HTTP layer's bounds. Every request is
 * checked against the spec, and so is every response: one that breaks the spec becomes a 500.
 * @param carried an app of the same mock whose state (store, request log, scenario settings)
 * the new one takes over: `--watch` makes one per version of the spec.
 * @throws {SpecError} when the spec asks for something the mock cannot serve.
 * @example
 * const app = createApp({ spec: await loadSpec(), apiKeys: ['secret'] });
 * http.createServer(app).listen(0);
 */
export function createApp(options: AppOptions, carried?: MockApp): MockApp {
  const { storage, ...settings } = resolveOptions(options, APP_ONLY);
  return appOf(
    {
      ...settings,
      storage,
      spec: options.spec,
      ...(storage.kind === 'custom' ? { store: storage.store } : {}),
      ...(options.adminSpec ? { adminSpec: options.adminSpec } : {}),
      ...(options.hosts ? { hosts: options.hosts } : {}),
      ...(options.proxy ? { proxy: options.proxy } : {}),
    },
    carried,
  );
}

/**
 * createApp from options already resolved (by startMock, the proxy): they are not read again.
 * @param carried see createApp.
 */
export function appOf(settings: AppSettings, carried?: MockApp): MockApp {
  const logger = settings.logger ?? silentLogger();
  const parts = createCoreApp({ ...settings, logger }, carried && carriedBy.get(carried));
  const listener = createListener({
    core: parts.core,
    readBody: createBodyReader({ limit: settings.bodyLimit }),
    ...(settings.cors === false ? {} : { cors: corsMiddleware(settings.cors) }),
    ...(parts.adminBasePath === undefined
      ? {}
      : { page: createInspectorPage({ basePath: parts.adminBasePath }) }),
    ...(settings.hosts ? { host: settings.hosts } : {}),
    budget: parts.budget,
    sendTimeoutMs: settings.limits.sendTimeout,
    ...(settings.logRequests ? { onAnswered: requestLines(logger) } : {}),
  });

  const app = Object.assign(listener, {
    resources: parts.resources,
    basePath: parts.basePath,
    store: parts.store,
    states: parts.states,
    security: parts.security,
    reset: parts.reset,
    warnings: parts.warnings,
    seed: parts.seed,
    unfitRecords: parts.unfitRecords,
    answerRules: parts.answerRules,
  });
  carriedBy.set(app, parts.carried);
  return app;
}

/** What each app hands the app of the next version of its spec (`--watch`). */
const carriedBy = new WeakMap<MockApp, CarriedState>();
