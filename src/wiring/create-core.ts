// The mock built from the resolved options: the one place wiring/ hands the core what it reads.
import { createMock, type Mock, type MockParts } from '../core/create-mock.js';
import type { ViolationLog } from '../core/proxy/violations.js';
import type { HostStep } from '../http/host-check.js';
import type { LoadedSpec } from '../openapi/load.js';
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
export type AppOptions = OptionsOf<'createApp'> & AppParts;

/** What a mock is built from besides its resolved options: the spec, and what its caller opened. */
export type BuildParts = AppParts & Omit<MockParts, keyof AppParts>;

/**
 * The mock of a loaded spec, from the resolved options, handed over whole: the compiler holds
 * what the core reads (MockSettings) to the options of the same names, with no field copied.
 * @throws {SpecError} when the spec asks for something the mock cannot serve.
 * @example const mock = buildMock(resolveOptions(), { spec: await loadSpec() }); await mock.fetch(request);
 */
export function buildMock(settings: ResolvedOptions, parts: BuildParts): Mock {
  return createMock(parts.spec, settings, parts);
}
