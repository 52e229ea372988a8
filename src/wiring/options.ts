// The options of each surface, made from the table of option-table.ts, the one check every
// caller's options go through, the CLI's included, and their resolution, once, into the plain
// settings the rest of the mock reads: units are converted here (resolveOptions), nowhere else.
import type { ServerLimits } from '../http/server-limits.js';
import type { Store, StoreLimits } from '../store/store.js';
import { startupErrors } from '../vocabulary/error-catalogue.js';
import { OptionProblem } from './option-kinds.js';
import {
  DEFAULT_API_KEY,
  DEFAULT_BASIC_CREDENTIAL,
  MOCK_OPTIONS,
  optionsOf,
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

/** A row of the table, as written. */
type Row<K extends OptionName> = (typeof MOCK_OPTIONS)[K];

/** Options folded into `storage` (`data`, `redis`...): none of them is resolved on its own. */
type Shorthand = {
  [K in OptionName]: Row<K> extends { shorthandFor: string } ? K : never;
}[OptionName];

/** Options resolved from more than their own value (the credentials' defaults, the storage). */
type Composed = 'apiKeys' | 'basic' | 'storage';

/**
 * An option's name once resolved: a duration given in seconds is held in milliseconds, as Node
 * and timers take it, and named so (`sessionTtlSeconds` → `sessionTtlMs`).
 */
type ResolvedName<K extends string> = K extends `${infer Base}Seconds` ? `${Base}Ms` : K;

/**
 * The options, checked and with every default filled in: plain settings, read once. One field
 * per row of the table (made from it: a row added is a field here), durations in milliseconds;
 * a row with no default is `undefined` when not given. Each reader (the core's MockSettings,
 * the adapters) declares the fields it reads, and the compiler holds them to these.
 */
export type ResolvedOptions = {
  readonly [
    K in Exclude<OptionName, Shorthand | Composed> as ResolvedName<K>
  ]: K extends `${string}Seconds`
    ? number
    : Row<K> extends { default: unknown }
      ? OptionValue<K>
      : OptionValue<K> | undefined;
} & {
  readonly apiKeys: readonly string[];
  readonly basic: readonly string[];
  /** Whether the credentials are the defaults (none was given). */
  readonly defaultCredentials: boolean;
  readonly storage: ResolvedStorage;
};

/**
 * The field of ResolvedOptions an option of the table becomes (a shorthand: `storage`).
 * @example resolvedName('sessionTtlSeconds') // 'sessionTtlMs'
 * @internal for its tests: no part of the package's surface
 */
export function resolvedName(name: OptionName): string {
  const row: OptionRow<unknown> = MOCK_OPTIONS[name];
  if (row.shorthandFor !== undefined) return 'storage';
  return name.replace(/Seconds$/, 'Ms');
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
  const given = validateOptions(options, surface, also) as Readonly<Record<string, unknown>>;
  const resolved: Record<string, unknown> = {};
  for (const [name, row] of Object.entries(MOCK_OPTIONS) as [OptionName, OptionRow<unknown>][]) {
    if (row.shorthandFor !== undefined) continue;
    const value = given[name] ?? row.default;
    // The one place a unit is converted: seconds, as the user gives them, to milliseconds.
    resolved[resolvedName(name)] =
      name.endsWith('Seconds') && typeof value === 'number' ? Math.round(value * 1000) : value;
  }
  // An empty list counts as none given, as it did before the table.
  const listed = (values: unknown) => Array.isArray(values) && values.length > 0;
  const defaultCredentials = !listed(given.apiKeys) && !listed(given.basic);
  return {
    ...(resolved as Omit<ResolvedOptions, Composed | 'defaultCredentials'>),
    apiKeys: defaultCredentials
      ? [DEFAULT_API_KEY]
      : ((given.apiKeys as string[] | undefined) ?? []),
    basic: defaultCredentials
      ? [DEFAULT_BASIC_CREDENTIAL]
      : ((given.basic as string[] | undefined) ?? []),
    defaultCredentials,
    storage: resolveStorage(given.storage as StorageOption | undefined),
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

/** The bounds of the store, as the stores take them. */
export function storeLimitsOf(settings: ResolvedOptions): StoreLimits {
  return { maxRecords: settings.maxRecords, maxBytes: settings.maxStoreSize };
}

/** The bounds of a server, as the HTTP layer takes them (in milliseconds). */
export function serverLimitsOf(settings: ResolvedOptions): ServerLimits {
  return {
    maxHeaderSize: settings.maxHeaderSize,
    requestTimeout: settings.requestTimeoutMs,
    headersTimeout: settings.headersTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    shutdownTimeout: settings.shutdownTimeoutMs,
    sendTimeout: settings.sendTimeoutMs,
  };
}
