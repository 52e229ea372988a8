// The mock's options, resolved, as the core's settings: the one place wiring/ hands the core
// what it builds the mock from.
import { createMock, type CoreLogger, type Mock, type MockSettings } from '../core/create-mock.js';
import type { ViolationLog } from '../core/proxy/violations.js';
import { secretKey } from '../core/outgoing/signature.js';
import type { HostStep } from '../http/host-check.js';
import type { LoadedSpec } from '../openapi/load.js';
import type { Store } from '../store/store.js';
import type { OptionsOf, ResolvedOptions } from './options.js';

/** What createApp takes besides the table's options: a spec loaded, and how it is served. */
export interface AppParts {
  /** The spec that drives the mock: its routes, schemas, security and deprecations. */
  spec: LoadedSpec;
  /** Which Host headers it answers (see hostCheck); none: every one, as mounted in an app. */
  hosts?: HostStep;
  /**
   * The admin API's spec (spec/admin.yaml, `loadSpec(ADMIN_SPEC_PATH)`), served at its own
   * base path (`/__mock`). Without it there is no admin API.
   */
  adminSpec?: LoadedSpec;
  /**
   * Serve as a proxy's core (`petstore-kit proxy`): credentials are checked for their presence
   * and place only (their value is the target's to judge), and the admin API lists the
   * violations the proxy logs here.
   */
  proxy?: { violations: ViolationLog };
}

/**
 * The options of createApp: the table's rows that name `createApp` (docs/options.md), with a
 * spec already loaded.
 * @example createApp({ spec: await loadSpec(), apiKeys: ['secret'], delayMs: 100 })
 */
export type AppOptions = Omit<OptionsOf<'createApp'>, 'spec'> & AppParts;

/** What a mock is built from: the options resolved (once, by its caller), the spec loaded. */
export type AppSettings = Omit<ResolvedOptions, 'spec'> &
  Omit<AppParts, 'spec'> & {
    spec: LoadedSpec;
    /** The store opened for the records; none: a new in-memory one. */
    store?: Store | undefined;
    /** See MockSettings.seedOnFirstUse. */
    seedOnFirstUse?: boolean;
  };

/**
 * The core's settings from the mock's resolved options (whose units resolveOptions converted).
 * @example mockSettings({ ...resolveOptions({ seed: 7 }), spec }).seed // 7
 * @internal for its tests: no part of the package's surface
 */
export function mockSettings(settings: AppSettings): MockSettings {
  return {
    apiKeys: settings.apiKeys,
    basic: settings.basic,
    defaultCredentials: settings.defaultCredentials,
    seed: settings.seed,
    seedCount: settings.seedCount,
    precompile: settings.precompile,
    ...(settings.seedOnFirstUse ? { seedOnFirstUse: true } : {}),
    scenarios: settings.scenarios,
    faultTimeoutMs: settings.faultTimeoutMs,
    maxSessions: settings.maxSessions,
    sessionTtlMs: settings.sessionTtlMs,
    logBounds: settings.logBounds,
    stability: settings.stability,
    handlers: settings.handlers,
    ...(settings.store ? { store: settings.store } : {}),
    ...(settings.logger ? { logger: settings.logger as CoreLogger } : {}),
    ...(settings.adminSpec ? { adminSpec: settings.adminSpec } : {}),
    ...(settings.proxy ? { proxy: settings.proxy } : {}),
    outgoing: {
      callbackHosts: settings.callbackHosts,
      webhookUrls: settings.webhookUrls,
      webhookKey:
        settings.webhookSecret === undefined ? undefined : secretKey(settings.webhookSecret),
    },
  };
}

/**
 * The mock of a loaded spec, from the mock's resolved options (see createMock).
 * @param carriedFrom the mock of the previous version of the spec (`--watch`).
 * @throws {SpecError} when the spec asks for something the mock cannot serve.
 * @example const mock = buildMock({ ...resolveOptions(), spec: await loadSpec() }); await mock.fetch(request);
 */
export function buildMock(settings: AppSettings, carriedFrom?: Mock): Mock {
  return createMock(settings.spec, mockSettings(settings), { carriedFrom });
}
