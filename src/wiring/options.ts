// The mock's options as library callers write them (MockOptions, held to the table of
// option-table.ts), the one check every caller's options go through, CLI's included, and
// their resolution, once, into the plain settings the rest of the mock reads.
import type { LogBounds } from '../core/admin/request-log.js';
import type { ScenarioSettings } from '../core/scenarios/settings.js';
import type { Logger } from '../http/logger.js';
import type { ServerLimits } from '../http/server-limits.js';
import type { LoadedSpec } from '../openapi/load.js';
import type { StabilityLevel } from '../openapi/stability.js';
import type { Store, StoreLimits } from '../store/store.js';
import type { FaultKind } from '../vocabulary/answer.js';
import { startupErrors } from '../vocabulary/error-catalogue.js';
import { OptionProblem } from './option-kinds.js';
import {
  DEFAULT_API_KEY,
  DEFAULT_BASIC_CREDENTIAL,
  MOCK_OPTIONS,
  type CorsSetting,
  type CustomHandler,
  type OptionName,
  type OptionRow,
  type OptionValue,
  type StorageOption,
} from './option-table.js';

export {
  DEFAULT_API_KEY,
  DEFAULT_BASIC_CREDENTIAL,
  DEFAULT_BODY_LIMIT,
  type CorsSetting,
  type CustomHandler,
  type CustomHandlerContext,
  type StorageOption,
} from './option-table.js';

/**
 * The options of the mock, for `startMock`, `createApp` (which ignores where it listens),
 * `mockMiddleware`, `mockHandlers` and the CLI (docs/options.md has them as a table, with
 * their flags and variables). A duration's name ends in its unit: `sessionTtlSeconds`, `delayMs`.
 * A bad value is refused with a StartupError whose `code` is `invalid_option`.
 */
export interface MockOptions {
  /**
   * The spec to serve: a path, or a spec already loaded.
   * @default the bundled spec/openapi.yaml (the categories interface)
   */
  spec?: string | LoadedSpec;
  /**
   * The accepted keys: API keys (in a header, the query or a cookie, wherever the spec puts
   * them), HTTP bearer tokens, and OAuth 2 and OpenID Connect access tokens (sent as bearer
   * tokens). A key is accepted by every such scheme of the spec; `scheme=key`, where `scheme`
   * names a security scheme of the spec, by that scheme only (and then that scheme accepts
   * only the keys given for it). Once any credential is given (keys or `basic`), the defaults
   * are refused.
   * @default [DEFAULT_API_KEY] when no credential is given
   * @example ['secret', 'adminKey=other-secret']
   */
  apiKeys?: readonly string[];
  /**
   * The accepted HTTP basic credentials, as `user:password`, or `scheme=user:password` for
   * one basic scheme of the spec.
   * @default [DEFAULT_BASIC_CREDENTIAL] when no credential is given
   * @example ['alice:wonderland']
   */
  basic?: readonly string[];
  /**
   * The port to listen on; 0 picks a free one.
   * @default 0 (the CLI: 4010)
   */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /**
   * The same seed gives the same generated data (seeds, example answers) and the same faults.
   * @default 1
   */
  seed?: number;
  /**
   * Records generated for each collection at start-up (not when the storage holds data).
   * @default 10
   */
  seedCount?: number;
  /**
   * For a document over 128 KiB (checked operation by operation, not whole at start-up):
   * compile its operations, make its example answers and seed its collections in the
   * background once the mock is idle, a step at a time with requests first, so that an
   * operation's first call does not pay for them.
   * @default true
   * @example false // many mocks of large documents in one test run, few operations called
   */
  compileAhead?: boolean;
  /**
   * Where the records live: in memory, in a file across restarts, in Redis shared by
   * replicas, or in a store of yours. Cannot be given with its shorthands (`data`, `redis`...).
   * @default { kind: 'memory' }
   * @example { kind: 'file', path: 'mock-data.jsonl' }
   * @example { kind: 'redis', url: 'redis://127.0.0.1:6379', prefix: 'team-a:' }
   */
  storage?: StorageOption;
  /**
   * Short for `storage: { kind: 'file', path: data }`: every write answered 2xx is on disk
   * before its answer; seeded only when new.
   * @example 'mock-data.jsonl'
   */
  data?: string;
  /**
   * Short for `storage: { kind: 'redis', url: redis }`: several mocks started with the same
   * URL, prefix and spec (replicas) serve one state.
   * @example 'redis://127.0.0.1:6379'
   */
  redis?: string;
  /** With `redis`: short for its `storage.prefix`. @default 'petstore-kit:' */
  redisPrefix?: string;
  /** With `redis`: short for its `storage.reseed`. @default false */
  redisReseed?: boolean;
  /** With `redis`: short for its `storage.allowEviction`. @default false */
  redisAllowEviction?: boolean;
  /** Short for `storage: { kind: 'custom', store }`. */
  store?: Store;
  /** With `store`: short for its `storage.hasData`. @default false */
  storeHasData?: boolean;
  /** The most records the storage holds; a write beyond gets 507. @default 1000000 */
  maxRecords?: number;
  /** The most bytes of records, as JSON; a write beyond gets 507. @default 268435456 (256 MiB) */
  maxStoreSize?: number;
  /**
   * The most sessions (`Mock-Session` headers) at once: past it, a new session is refused with a
   * 503 until one is dropped (`DELETE /__mock/sessions/{id}`) or has been unused for
   * `sessionTtlSeconds`. A session used within that time is never dropped to make room.
   * @default 100
   */
  maxSessions?: number;
  /**
   * How long a session may sit unused before it can be dropped to make room for a new one.
   * @default 3600 (an hour)
   */
  sessionTtlSeconds?: number;
  /**
   * The most requests the request logs keep, the default state's and every session's together,
   * on every store: past it, the oldest request of any log goes.
   * @default 5000
   * @example startMock({ maxLogEntries: 200 })
   */
  maxLogEntries?: number;
  /**
   * The most bytes the request logs keep, all together, counted as what each request keeps
   * (its path, headers, and each body up to 16 KiB).
   * @default 33554432 (32 MiB)
   * @example startMock({ maxLogSize: 4 * 1024 * 1024 })
   */
  maxLogSize?: number;
  /** The largest request body in bytes; a larger one gets 413. @default DEFAULT_BODY_LIMIT (1 MiB) */
  bodyLimit?: number;
  /** The largest request head in bytes; a larger one gets 431. @default 16384 */
  maxHeaderSize?: number;
  /** A request must arrive whole within this, else 408. @default 30 */
  requestTimeoutSeconds?: number;
  /** Its head must arrive within this, else 408. @default 10 */
  headersTimeoutSeconds?: number;
  /** An idle keep-alive connection is closed after this. @default 5 */
  keepAliveTimeoutSeconds?: number;
  /** On a stop, requests in flight get this long to finish. @default 5 */
  shutdownTimeoutSeconds?: number;
  /** A client that reads nothing of an answer for this long is dropped. @default 30 */
  sendTimeoutSeconds?: number;
  /** @default a logger that writes nothing */
  logger?: Logger;
  /**
   * One log line per request.
   * @default false (the CLI: true, and --quiet turns it off)
   */
  logRequests?: boolean;
  /**
   * CORS for pages on other origins: any origin by default; `origins` narrows it to an
   * allow-list; `false` turns it off.
   * @default {} (any origin, without credentials)
   * @example { origins: ['http://localhost:5173'] }
   */
  cors?: CorsSetting | false;
  /**
   * Host names (or addresses) the mock answers besides loopback ones (`localhost`,
   * `127.0.0.1`, `[::1]`) and the `host` it listens on: a request with any other `Host` gets
   * a 403, so that a page whose DNS name is rebound to this machine cannot reach the mock.
   * `'*'` allows every host, which reopens that hole: unsafe. Not checked when mounted in an
   * app (`mockMiddleware`).
   * @default []
   * @example ['mock.team.internal']
   */
  allowedHosts?: readonly string[];
  /**
   * The hosts a callback may be sent to (the URL comes from the client's request, so a mock
   * shared by a team must not call just any host); a callback to another is refused, and
   * logged. `'*'` allows any (unsafe).
   * @default ['localhost', '127.0.0.1', '::1']
   * @example ['localhost', 'hooks.team.internal']
   */
  callbackHosts?: readonly string[];
  /**
   * Receivers subscribed to the spec's webhooks: each gets a webhook after the write it tells
   * of, and on demand (`POST /__mock/webhooks/{name}`).
   * @default []
   * @example ['http://localhost:9000/webhooks']
   */
  webhookUrls?: readonly string[];
  /**
   * Sign webhooks by the Standard Webhooks convention with this secret: `whsec_` and the
   * base64 of 24 to 64 random bytes.
   * @default none: unsigned
   * @example 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
   */
  webhookSecret?: string;
  /**
   * Arazzo workflows, as `file#workflowId`, run against the fresh mock before it serves (startMock
   * and the CLI only): the state they make is the start-up state, which every reset returns to
   * and every new session starts from.
   * @default []
   * @example ['flows.arazzo.yaml#customer-with-orders']
   */
  seedWorkflows?: readonly string[];
  /**
   * Delay every answer of the mocked API by this many milliseconds, or by a time drawn from a
   * range; the admin API changes it for a run, and its reset restores this.
   * @default 0
   * @example { min: 100, max: 400 }
   */
  delayMs?: number | { min: number; max: number };
  /** The share of requests, 0 to 1, that get a random fault (seeded). @default 0 */
  faultRate?: number;
  /** The faults drawn from when `faultRate` strikes. @default ['reset', 'timeout', 'malformed'] */
  faultKinds?: readonly FaultKind[];
  /** How long a `timeout` fault holds its connection. @default 30 */
  faultTimeoutSeconds?: number;
  /**
   * The least stable operations served: `stable` refuses those marked `x-stability:
   * experimental` or `beta` with a 404 that says why.
   * @default 'experimental' (everything is served)
   */
  stability?: StabilityLevel;
  /**
   * Reload the spec when its file changes, keeping the data where the schemas still fit; a
   * broken edit keeps the last good spec serving and logs one line naming the problem.
   * @default false
   */
  watch?: boolean;
  /**
   * Keep the coverage of every request of every session since start-up, through every reset,
   * in this file (the JSON of `GET /__mock/coverage?scope=run`), written while it changes and
   * at close: `petstore-kit coverage --coverage-file` reads it after the mock is gone.
   * @default none
   * @example 'coverage.json'
   */
  coverageFile?: string;
  /**
   * Operations answered by code of yours, by operationId, instead of by what the mock infers
   * from the spec; everything else stays inferred, and every answer is still checked.
   * @example { listCategories: async (request, { next }) => ({ ...(await next()), headers: { 'X-Total': '10' } }) }
   */
  handlers?: Readonly<Record<string, CustomHandler>>;

  /** @deprecated milliseconds: use `sessionTtlSeconds`. */
  sessionTtl?: number;
  /** @deprecated milliseconds: use `faultTimeoutSeconds`. */
  faultTimeoutMs?: number;
  /** @deprecated milliseconds: use `requestTimeoutSeconds`, `maxHeaderSize`... */
  limits?: Partial<ServerLimits>;
  /** @deprecated use `maxRecords` and `maxStoreSize`. */
  storeLimits?: Partial<StoreLimits>;
  /** @deprecated use `delayMs`, `faultRate` and `faultKinds`. */
  scenarios?: Partial<ScenarioSettings>;
}

/** The names older versions took, each still read (see `fromOldNames`), and what it is read as. */
export const OLD_NAMES = {
  sessionTtl: '`sessionTtlSeconds` (it took milliseconds)',
  faultTimeoutMs: '`faultTimeoutSeconds`',
  limits:
    '`maxHeaderSize`, `requestTimeoutSeconds`, `headersTimeoutSeconds`, `keepAliveTimeoutSeconds`, `shutdownTimeoutSeconds`, `sendTimeoutSeconds` (it took milliseconds)',
  storeLimits: '`maxRecords` and `maxStoreSize` (its `maxBytes`)',
  scenarios: '`delayMs` (its `delay`), `faultRate` and `faultKinds`',
} as const;

// The compiler holds MockOptions to the table: every option of the table, of the value its
// row reads, and nothing else but the old names. A row changed without the type fails the build.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Mismatched = {
  [K in OptionName]: Same<OptionValue<K> | undefined, MockOptions[K]> extends true ? never : K;
}[OptionName];
type Untabled = Exclude<keyof MockOptions, OptionName | keyof typeof OLD_NAMES>;
type Holds<T extends true> = T;
/** True, or the build fails: see above. */
export type MockOptionsFollowTheTable = Holds<
  Same<[Mismatched, Untabled], [never, never]> extends true ? true : false
>;

/** Where the records live, with every default filled in. */
export type ResolvedStorage =
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
  compileAhead: boolean;
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
  /** Milliseconds. */
  sessionTtl: number;
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
}

/**
 * The options, each checked, the old names read as the new ones, `storage` made of its
 * shorthands (which are gone): MockOptions a second check leaves as they are.
 */
export type CheckedOptions = { [K in OptionName]?: OptionValue<K> } & {
  storage: StorageOption;
};

/**
 * How an option is named in a message, for the CLI and a library caller alike.
 * @example optionLabel('port') // 'port (--port, PORT)'
 */
export function optionLabel(name: OptionName): string {
  const row: OptionRow<unknown> = MOCK_OPTIONS[name];
  const flags = (row.flags ?? []).flatMap((flag) => [
    flag.flag.replace(/^-\w, /, '').replace(/ <.*>$/, ''),
    ...(flag.env ? [flag.env] : []),
  ]);
  return flags.length > 0 ? `${name} (${flags.join(', ')})` : name;
}

/**
 * Checks every option a caller gives, the CLI's as any other: each value by the kind of its
 * row (text as a flag or a variable writes it is read too), the old names as the new ones,
 * `storage` against its shorthands. The one check of the mock's options.
 * @param also names the caller takes besides the mock's (the proxy's `target`).
 * @throws {StartupError} `invalid_option`, `unknown_option` or `conflicting_options`, in one line.
 * @example validateOptions({ port: '4010' }).port // 4010
 */
export function validateOptions(options: object, also: readonly string[] = []): CheckedOptions {
  const given = fromOldNames(options as Readonly<Record<string, unknown>>);
  const checked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined) continue;
    if (!Object.hasOwn(MOCK_OPTIONS, name)) {
      if (also.includes(name) || Object.hasOwn(OLD_NAMES, name)) continue;
      throw startupErrors.unknownOption(name, Object.keys(MOCK_OPTIONS));
    }
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
  return { ...(Object.fromEntries(rest) as typeof values), storage: storageOf(values) };
}

/** The shorthands of `storage`, and the one storage they make (or `storage` itself). */
function storageOf(options: { [K in OptionName]?: OptionValue<K> }): StorageOption {
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
  if (options.redis === undefined) return { kind: 'memory' };
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

/**
 * The options with the old names read as the new ones (milliseconds made seconds); a new
 * name given too wins.
 */
function fromOldNames(options: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const old = options as MockOptions;
  const seconds = (ms: unknown) => (typeof ms === 'number' ? ms / 1000 : ms);
  const renamed: Record<string, unknown> = {
    sessionTtlSeconds: seconds(old.sessionTtl),
    faultTimeoutSeconds: seconds(old.faultTimeoutMs),
    maxHeaderSize: old.limits?.maxHeaderSize,
    requestTimeoutSeconds: seconds(old.limits?.requestTimeout),
    headersTimeoutSeconds: seconds(old.limits?.headersTimeout),
    keepAliveTimeoutSeconds: seconds(old.limits?.keepAliveTimeout),
    shutdownTimeoutSeconds: seconds(old.limits?.shutdownTimeout),
    sendTimeoutSeconds: seconds(old.limits?.sendTimeout),
    maxRecords: old.storeLimits?.maxRecords,
    maxStoreSize: old.storeLimits?.maxBytes,
    delayMs: old.scenarios?.delay,
    faultRate: old.scenarios?.faultRate,
    faultKinds: old.scenarios?.faultKinds,
  };
  const result: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(renamed))
    if (value !== undefined) result[name] = value;
  for (const [name, value] of Object.entries(options))
    if (value !== undefined) result[name] = value;
  return result;
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
 * @param also names the caller takes besides the mock's (the proxy's `target`).
 * @throws {StartupError} for an option it cannot take (see validateOptions).
 * @example resolveOptions({ seed: 7 }).seedCount // 10
 */
export function resolveOptions(
  options: MockOptions = {},
  also: readonly string[] = [],
): ResolvedOptions {
  const given = validateOptions(options, also);
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
    compileAhead: pick('compileAhead'),
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
    sessionTtl: ms('sessionTtlSeconds'),
    logBounds: { entries: pick('maxLogEntries'), bytes: pick('maxLogSize') },
    allowedHosts: pick('allowedHosts'),
    callbackHosts: pick('callbackHosts'),
    webhookUrls: pick('webhookUrls'),
    webhookSecret: given.webhookSecret,
    seedWorkflows: pick('seedWorkflows'),
    watch: pick('watch'),
    coverageFile: given.coverageFile,
    handlers: given.handlers ?? {},
  };
}

function resolveStorage(storage: StorageOption): ResolvedStorage {
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
