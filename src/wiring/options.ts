// The mock's options: one shape for startMock, createApp and the CLI, and every default in
// one place. This module loads only small modules: the CLI reads it to print its help.
import type { CustomHandler } from '../core/handler.js';
import { DEFAULT_SCENARIO_SETTINGS, type ScenarioSettings } from '../core/scenarios/settings.js';
import type { Logger } from '../http/logger.js';
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from '../http/server-limits.js';
import { BUNDLED_SPEC_PATH } from '../openapi/bundled.js';
import type { LoadedSpec } from '../openapi/load.js';
import type { StabilityLevel } from '../openapi/stability.js';
import { DEFAULT_REDIS_PREFIX } from '../store/redis-prefix.js';
import { DEFAULT_STORE_LIMITS, type Store, type StoreLimits } from '../store/store.js';

/** Accepted when no credential is configured, so that `npm start` works out of the box. */
export const DEFAULT_API_KEY = 'petstore-kit-dev-key';

/** The `user:password` HTTP basic schemes accept when no credential is configured. */
export const DEFAULT_BASIC_CREDENTIAL = `petstore-kit:${DEFAULT_API_KEY}`;

/** 1 MiB: the largest request body the mock reads; a larger one gets 413. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

// Defined by the core, which calls them; an option of the mock's.
export type { CustomHandler, CustomHandlerContext } from '../core/handler.js';

/** CORS for pages on other origins. */
export interface CorsSetting {
  /**
   * The only origins allowed, each as scheme, host and port; credentials are then allowed
   * too. Without it, any origin is allowed (echoed back), without credentials.
   * @example ['http://localhost:5173']
   */
  origins?: readonly string[];
}

/** The options of the mock, for `startMock`, `createApp` (which ignores where it listens) and the CLI. */
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
   * Records generated for each collection at start-up (not when the store holds data).
   * @default 10
   */
  seedCount?: number;
  /**
   * A file that keeps the data across restarts: every write answered 2xx is on disk before
   * its answer. Seeded only when new. Ignored when `store` is given.
   * @default none: the data lives in memory
   * @example 'mock-data.jsonl'
   */
  data?: string;
  /**
   * Where records live.
   * @default a new in-memory store, or the file store of `data`
   */
  store?: Store;
  /**
   * Whether `store` came with data of its own, which seeding must leave alone.
   * @default false
   */
  storeHasData?: boolean;
  /** @default DEFAULT_STORE_LIMITS: a million records or 256 MiB of JSON */
  storeLimits?: Partial<StoreLimits>;
  /** Bounds of the HTTP layer. @default DEFAULT_SERVER_LIMITS */
  limits?: Partial<ServerLimits>;
  /**
   * The largest request body in bytes.
   * @default DEFAULT_BODY_LIMIT (1 MiB)
   */
  bodyLimit?: number;
  /** @default a logger that writes nothing */
  logger?: Logger;
  /**
   * One log line per request.
   * @default false
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
   * Latency and random faults for every answer of the mocked API; the admin API changes
   * them for a run, and its reset restores these.
   * @default DEFAULT_SCENARIO_SETTINGS: no delay, no faults
   * @example { delay: { min: 100, max: 400 }, faultRate: 0.05, faultKinds: ['reset'] }
   */
  scenarios?: Partial<ScenarioSettings>;
  /**
   * How long a `timeout` fault holds its connection, in milliseconds.
   * @default 30000
   */
  faultTimeoutMs?: number;
  /**
   * The least stable operations served: `stable` refuses those marked `x-stability:
   * experimental` or `beta` with a 404 that says why.
   * @default 'experimental' (everything is served)
   */
  stability?: StabilityLevel;
  /**
   * The most sessions (`Mock-Session` headers) at once: past it, a new session is refused with a
   * 503 until one is dropped (`DELETE /__mock/sessions/{id}`) or has been unused for
   * `sessionTtl`. A session used within `sessionTtl` is never dropped to make room.
   * @default 100
   */
  maxSessions?: number;
  /**
   * How long, in milliseconds, a session may sit unused before it can be dropped to make room
   * for a new one.
   * @default 3600000 (an hour)
   */
  sessionTtl?: number;
  /**
   * Keep every state in Redis, at this URL, so that several mocks started with the same URL,
   * prefix and spec (replicas behind a load balancer) serve one state: records, id counters,
   * the start-up mark, sessions, scenario settings and the request log. Ignored when `store`
   * is given.
   * @default none: the state lives in this process (or in `data`)
   * @example 'redis://127.0.0.1:6379'
   */
  redis?: string;
  /**
   * The prefix of every key the mock writes in Redis: mocks with other prefixes share one
   * Redis without seeing each other.
   * @default 'petstore-kit:'
   */
  redisPrefix?: string;
  /**
   * Seed the Redis prefix again when the start-up data replicas served is gone from it (Redis
   * restarted empty, was flushed, or failed over to an empty replica). Without it, a mock
   * refuses to start on such a prefix, so that a replica that joins never seeds over data
   * others serve; `POST /__mock/reset` on a running replica seeds it again too.
   * @default false
   */
  redisReseed?: boolean;
  /**
   * Start on a Redis whose `maxmemory-policy` may evict keys, though eviction loses records
   * and makes ids repeat without a word. Without it such a Redis is refused at start-up.
   * @default false
   */
  redisAllowEviction?: boolean;
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
   * Reload the spec when its file changes, keeping the data where the schemas still fit; a
   * broken edit keeps the last good spec serving and logs one line naming the problem.
   * @default false
   */
  watch?: boolean;
  /**
   * Operations answered by code of yours, by operationId, instead of by what the mock infers
   * from the spec; everything else stays inferred, and every answer is still checked.
   * @example { listCategories: async (request, { next }) => ({ ...(await next()), headers: { 'X-Total': '10' } }) }
   */
  handlers?: Readonly<Record<string, CustomHandler>>;
}

/** Every default of MockOptions, in one place. */
export const DEFAULTS = {
  spec: BUNDLED_SPEC_PATH,
  apiKeys: [DEFAULT_API_KEY] as readonly string[],
  basic: [DEFAULT_BASIC_CREDENTIAL] as readonly string[],
  port: 0,
  /** The CLI's port, as `npm start` documents it. */
  cliPort: 4010,
  host: '127.0.0.1',
  seed: 1,
  seedCount: 10,
  storeLimits: DEFAULT_STORE_LIMITS,
  limits: DEFAULT_SERVER_LIMITS,
  bodyLimit: DEFAULT_BODY_LIMIT,
  logRequests: false,
  scenarios: DEFAULT_SCENARIO_SETTINGS,
  faultTimeoutMs: 30_000,
  maxSessions: 100,
  sessionTtl: 3_600_000,
  redisPrefix: DEFAULT_REDIS_PREFIX,
  redisReseed: false,
  redisAllowEviction: false,
  allowedHosts: [] as readonly string[],
  stability: 'experimental' as StabilityLevel,
  watch: false,
} as const;

/** MockOptions with every default filled in. */
export interface ResolvedOptions extends Required<
  Omit<
    MockOptions,
    'data' | 'store' | 'logger' | 'storeLimits' | 'limits' | 'scenarios' | 'cors' | 'redis'
  >
> {
  /** Whether the credentials are the defaults (none was given). */
  defaultCredentials: boolean;
  data: string | undefined;
  store: Store | undefined;
  logger: Logger | undefined;
  storeLimits: StoreLimits;
  limits: ServerLimits;
  scenarios: ScenarioSettings;
  cors: CorsSetting | false;
  redis: string | undefined;
}

/**
 * The options with every default filled in.
 * @example resolveOptions({ seed: 7 }).seedCount // 10
 */
export function resolveOptions(options: MockOptions = {}): ResolvedOptions {
  // The defaults themselves, as a resolved copy of the options passes them on, count as none.
  const given = (values: readonly string[] | undefined, defaults: readonly string[]) =>
    values !== defaults && (values?.length ?? 0) > 0;
  const defaultCredentials =
    !given(options.apiKeys, DEFAULTS.apiKeys) && !given(options.basic, DEFAULTS.basic);
  return {
    spec: options.spec ?? DEFAULTS.spec,
    apiKeys: defaultCredentials ? DEFAULTS.apiKeys : (options.apiKeys ?? []),
    basic: defaultCredentials ? DEFAULTS.basic : (options.basic ?? []),
    defaultCredentials,
    port: options.port ?? DEFAULTS.port,
    host: options.host ?? DEFAULTS.host,
    seed: options.seed ?? DEFAULTS.seed,
    seedCount: options.seedCount ?? DEFAULTS.seedCount,
    data: options.data,
    store: options.store,
    storeHasData: options.storeHasData ?? false,
    storeLimits: { ...DEFAULTS.storeLimits, ...options.storeLimits },
    limits: { ...DEFAULTS.limits, ...options.limits },
    bodyLimit: options.bodyLimit ?? DEFAULTS.bodyLimit,
    logger: options.logger,
    logRequests: options.logRequests ?? DEFAULTS.logRequests,
    cors: options.cors ?? {},
    scenarios: { ...DEFAULTS.scenarios, ...options.scenarios },
    faultTimeoutMs: options.faultTimeoutMs ?? DEFAULTS.faultTimeoutMs,
    stability: options.stability ?? DEFAULTS.stability,
    watch: options.watch ?? DEFAULTS.watch,
    handlers: options.handlers ?? {},
    maxSessions: options.maxSessions ?? DEFAULTS.maxSessions,
    sessionTtl: options.sessionTtl ?? DEFAULTS.sessionTtl,
    redis: options.redis,
    redisPrefix: options.redisPrefix ?? DEFAULTS.redisPrefix,
    redisReseed: options.redisReseed ?? DEFAULTS.redisReseed,
    redisAllowEviction: options.redisAllowEviction ?? DEFAULTS.redisAllowEviction,
    allowedHosts: options.allowedHosts ?? DEFAULTS.allowedHosts,
  };
}
