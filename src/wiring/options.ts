// The options of each surface, made from the table of option-table.ts, the one check every
// caller's options go through, the CLI's included, and their resolution, once, into the plain
// settings the rest of the mock reads: units are converted here (resolveOptions), nowhere else.
import type { LogBounds } from '../core/admin/request-log.js';
import type { ScenarioSettings } from '../core/scenarios/settings.js';
import type { Logger } from '../http/logger.js';
import type { ServerLimits } from '../http/server-limits.js';
import type { LoadedSpec } from '../openapi/load.js';
import type { StabilityLevel } from '../openapi/stability.js';
import type { Store, StoreLimits } from '../store/store.js';
import { startupErrors } from '../vocabulary/error-catalogue.js';
import { OptionProblem } from './option-kinds.js';
import {
  DEFAULT_API_KEY,
  DEFAULT_BASIC_CREDENTIAL,
  MOCK_OPTIONS,
  optionsOf,
  type CorsSetting,
  type CustomHandler,
  type OptionName,
  type OptionRow,
  type OptionsOf,
  type OptionValue,
  type StorageOption,
  type Surface,
} from './option-table.js';

export {
  DEFAULT_API_KEY,
  DEFAULT_BASIC_CREDENTIAL,
  type CorsSetting,
  type CustomHandler,
  type CustomHandlerContext,
  type OptionsOf,
  type StorageOption,
  type Surface,
} from './option-table.js';

/**
 * The options of `startMock` and of the CLI's `mock`: every row of the table that names
 * `startMock` (docs/options.md has them, with their flags and variables). A duration's name
 * ends in its unit: `sessionTtlSeconds`, `delayMs`. A bad value is refused with a StartupError
 * whose `code` is `invalid_option`.
 * @example const options: MockOptions = { port: 4010, sessionTtlSeconds: 600 };
 */
export type MockOptions = OptionsOf<'startMock'>;

/** Where the records live, with every default filled in. */
type ResolvedStorage =
  | { kind: 'memory' }
  | { kind: 'file'; path: string }
  | { kind: 'redis'; url: string; prefix: string; reseed: boolean; allowEviction: boolean }
  | { kind: 'custom'; store: Store; hasData: boolean };

/** The options, checked and with every default filled in: plain settings, read once. */
export interface ResolvedOptions {
  spec: string | LoadedSpec;
  apiKeys: readonly string[];
  basic: readonly string[];
  /** Whether the credentials are the defaults (none was given). */
  defaultCredentials: boolean;
  port: number;
  host: string;
  seed: number;
  seedCount: number;
  precompile: boolean;
  storage: ResolvedStorage;
  storeLimits: StoreLimits;
  /** In milliseconds, as Node's server takes them. */
  limits: ServerLimits;
  bodyLimit: number;
  logger: Logger | undefined;
  logRequests: boolean;
  cors: CorsSetting | false;
  scenarios: ScenarioSettings;
  faultTimeoutMs: number;
  stability: StabilityLevel;
  maxSessions: number;
  sessionTtlMs: number;
  /** The most the request logs of every state hold together. */
  logBounds: LogBounds;
  allowedHosts: readonly string[];
  callbackHosts: readonly string[];
  webhookUrls: readonly string[];
  webhookSecret: string | undefined;
  seedWorkflows: readonly string[];
  watch: boolean;
  /** Where the run's coverage is kept (see the option `coverageFile`); none: nowhere. */
  coverageFile: string | undefined;
  handlers: Readonly<Record<string, CustomHandler>>;
  /** The proxy's target (required there); none for the others. */
  target: string | undefined;
  targetTimeoutMs: number;
  record: string | undefined;
  har: string | undefined;
  enforce: boolean;
}

/**
 * The options, each checked, `storage` made of its shorthands (which are gone): options a
 * second check leaves as they are.
 */
export type CheckedOptions = { [K in OptionName]?: OptionValue<K> };

/**
 * How an option is named in a message, for the CLI and a library caller alike.
 * @example optionLabel('port') // 'port (--port, PORT)'
 */
function optionLabel(name: OptionName): string {
  const row: OptionRow<unknown> = MOCK_OPTIONS[name];
  const flags = (row.flags ?? []).flatMap((flag) => [
    flag.flag.replace(/^-\w, /, '').replace(/ <.*>$/, ''),
    ...(flag.env ? [flag.env] : []),
  ]);
  // A flag two commands take alike (the mock's and the proxy's --api-key) is named once.
  return flags.length > 0 ? `${name} (${[...new Set(flags)].join(', ')})` : name;
}

/**
 * Checks every option a caller gives, the CLI's as any other: each value by the kind of its
 * row (text as a flag or a variable writes it is read too), `storage` against its shorthands. The one check of the mock's options.
 * @param surface the caller: an option of the table it does not take is refused as unknown.
 * @param also names the caller takes besides the table's (createApp's `adminSpec`).
 * @throws {StartupError} `invalid_option`, `unknown_option` or `conflicting_options`, in one line.
 * @example validateOptions({ port: '4010' }).port // 4010
 */
export function validateOptions(
  options: object,
  surface: Surface = 'startMock',
  also: readonly string[] = [],
): CheckedOptions {
  const given = options as Readonly<Record<string, unknown>>;
  const taken = optionsOf(surface);
  const checked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined || also.includes(name)) continue;
    if (!(taken as readonly string[]).includes(name))
      throw startupErrors.unknownOption(name, [...taken, ...also]);
    const row: OptionRow<unknown> = MOCK_OPTIONS[name as OptionName];
    try {
      checked[name] = row.kind.read(value);
    } catch (err) {
      if (!(err instanceof OptionProblem)) throw err;
      throw startupErrors.invalidOption(optionLabel(name as OptionName), err.message);
    }
  }
  const values = checked as { [K in OptionName]?: OptionValue<K> };
  // Folded into storage, which a second check (startMock after the CLI) must find alone.
  const rest = Object.entries(values).filter(
    ([name]) => (MOCK_OPTIONS[name as OptionName] as OptionRow<unknown>).shorthandFor === undefined,
  );
  const storage = storageOf(values);
  return { ...(Object.fromEntries(rest) as typeof values), ...(storage ? { storage } : {}) };
}

/** The shorthands of `storage`, and the one storage they make (or `storage` itself); none: none given. */
function storageOf(options: { [K in OptionName]?: OptionValue<K> }): StorageOption | undefined {
  const chosen = (['storage', 'data', 'redis', 'store'] as const).filter(
    (name) => options[name] !== undefined,
  );
  const settingsOfShorthand = (
    ['redisPrefix', 'redisReseed', 'redisAllowEviction', 'storeHasData'] as const
  ).filter((name) => options[name] !== undefined);
  if (chosen.length > 1)
    throw startupErrors.conflictingOptions(
      chosen.map(optionLabel),
      'the data lives in one place: give one of them',
    );
  if (options.storage && settingsOfShorthand.length > 0)
    throw startupErrors.conflictingOptions(
      ['storage', ...settingsOfShorthand.map(optionLabel)],
      "give them inside storage: { kind: 'redis', url, prefix, reseed, allowEviction } or { kind: 'custom', store, hasData }",
    );
  if (options.storage) return options.storage;
  if (options.data !== undefined) return { kind: 'file', path: options.data };
  if (options.store !== undefined)
    return {
      kind: 'custom',
      store: options.store,
      ...(options.storeHasData !== undefined ? { hasData: options.storeHasData } : {}),
    };
  if (options.redis === undefined) return undefined;
  return {
    kind: 'redis',
    url: options.redis,
    ...(options.redisPrefix !== undefined ? { prefix: options.redisPrefix } : {}),
    ...(options.redisReseed !== undefined ? { reseed: options.redisReseed } : {}),
    ...(options.redisAllowEviction !== undefined
      ? { allowEviction: options.redisAllowEviction }
      : {}),
  };
}

/** The default of an option whose row has one. */
function defaultOf<K extends OptionName>(name: K): OptionValue<K> {
  const row: OptionRow<unknown> = MOCK_OPTIONS[name];
  return row.default as OptionValue<K>;
}

/**
 * Every default of the options, by name, as the table gives them.
 * @example DEFAULTS.sessionTtlSeconds // 3600
 */
export const DEFAULTS: Readonly<{ [K in OptionName]?: OptionValue<K> }> = Object.fromEntries(
  Object.entries(MOCK_OPTIONS).flatMap(([name, row]: [string, OptionRow<unknown>]) =>
    row.default === undefined ? [] : [[name, row.default]],
  ),
);

/**
 * The options checked (see validateOptions) and with every default filled in, once per
 * mock: what is made of them is handed plain settings, never the options again.
 * @param surface, also: see validateOptions.
 * @throws {StartupError} for an option it cannot take (see validateOptions).
 * @example resolveOptions({ seed: 7 }).seedCount // 10
 */
export function resolveOptions(
  options: object = {},
  surface: Surface = 'startMock',
  also: readonly string[] = [],
): ResolvedOptions {
  const given = validateOptions(options, surface, also);
  const pick = <K extends OptionName>(name: K): OptionValue<K> =>
    (given[name] as OptionValue<K> | undefined) ?? defaultOf(name);
  // An empty list counts as none given, as it did before the table.
  const listed = (values: readonly string[] | undefined) => (values?.length ?? 0) > 0;
  const defaultCredentials = !listed(given.apiKeys) && !listed(given.basic);
  const delay = pick('delayMs');
  const ms = (name: OptionName & `${string}Seconds`) => Math.round((pick(name) as number) * 1000);
  return {
    spec: pick('spec'),
    apiKeys: defaultCredentials ? [DEFAULT_API_KEY] : (given.apiKeys ?? []),
    basic: defaultCredentials ? [DEFAULT_BASIC_CREDENTIAL] : (given.basic ?? []),
    defaultCredentials,
    port: pick('port'),
    host: pick('host'),
    seed: pick('seed'),
    seedCount: pick('seedCount'),
    precompile: pick('precompile'),
    storage: resolveStorage(given.storage),
    storeLimits: { maxRecords: pick('maxRecords'), maxBytes: pick('maxStoreSize') },
    limits: {
      maxHeaderSize: pick('maxHeaderSize'),
      requestTimeout: ms('requestTimeoutSeconds'),
      headersTimeout: ms('headersTimeoutSeconds'),
      keepAliveTimeout: ms('keepAliveTimeoutSeconds'),
      shutdownTimeout: ms('shutdownTimeoutSeconds'),
      sendTimeout: ms('sendTimeoutSeconds'),
    },
    bodyLimit: pick('bodyLimit'),
    logger: given.logger,
    logRequests: pick('logRequests'),
    cors: pick('cors'),
    scenarios: {
      delay: typeof delay === 'number' ? { min: delay, max: delay } : delay,
      faultRate: pick('faultRate'),
      faultKinds: [...pick('faultKinds')],
    },
    faultTimeoutMs: ms('faultTimeoutSeconds'),
    stability: pick('stability'),
    maxSessions: pick('maxSessions'),
    sessionTtlMs: ms('sessionTtlSeconds'),
    logBounds: { entries: pick('maxLogEntries'), bytes: pick('maxLogSize') },
    allowedHosts: pick('allowedHosts'),
    callbackHosts: pick('callbackHosts'),
    webhookUrls: pick('webhookUrls'),
    webhookSecret: given.webhookSecret,
    seedWorkflows: pick('seedWorkflows'),
    watch: pick('watch'),
    coverageFile: given.coverageFile,
    handlers: given.handlers ?? {},
    target: given.target,
    targetTimeoutMs: ms('targetTimeoutSeconds'),
    record: given.record,
    har: given.har,
    enforce: pick('enforce'),
  };
}

function resolveStorage(storage: StorageOption = { kind: 'memory' }): ResolvedStorage {
  switch (storage.kind) {
    case 'memory':
    case 'file':
      return storage;
    case 'redis':
      return {
        kind: 'redis',
        url: storage.url,
        prefix: storage.prefix ?? defaultOf('redisPrefix'),
        reseed: storage.reseed ?? false,
        allowEviction: storage.allowEviction ?? false,
      };
    case 'custom':
      return { kind: 'custom', store: storage.store, hasData: storage.hasData ?? false };
  }
}
