// The options of the mock and of the proxy, one row each: its kind, unit, default, flags,
// variable, the surfaces that take it and one line of doc. The CLI's flags, each surface's
// options type (OptionsOf), the check of every caller's options, docs/options.md and the
// defaults are all made from here.
import { isOrigin } from '../http/origin.js';
import type { Logger } from '../http/logger.js';
import { DEFAULT_SERVER_LIMITS } from '../http/server-limits.js';
import { BUNDLED_SPEC_PATH } from '../openapi/bundled.js';
import type { LoadedSpec } from '../openapi/load.js';
import { STABILITY_LEVELS, type StabilityLevel } from '../openapi/stability.js';
import { DEFAULT_REDIS_PREFIX } from '../store/redis-prefix.js';
import { DEFAULT_STORE_LIMITS, type Store } from '../store/store.js';
import { FAULT_KINDS, type FaultKind } from '../vocabulary/answer.js';
import {
  delayRange,
  flag,
  integer,
  listOf,
  oneOf,
  OptionProblem,
  rate,
  seconds,
  shaped,
  size,
  text,
  wholeNumber,
  type OptionKind,
} from './option-kinds.js';
import type { CustomHandler } from '../core/handler.js';
import { DEFAULT_LOG_BOUNDS } from '../core/admin/request-log.js';
import { LOOPBACK_HOSTS } from '../core/outgoing/allowed-hosts.js';
import { SECRET_PREFIX, secretKey } from '../core/outgoing/signature.js';
import { isJsonObject } from '../vocabulary/record.js';

/** Accepted when no credential is configured, so that `npm start` works out of the box. */
export const DEFAULT_API_KEY = 'petstore-kit-dev-key';

/** The `user:password` HTTP basic schemes accept when no credential is configured. */
export const DEFAULT_BASIC_CREDENTIAL = `petstore-kit:${DEFAULT_API_KEY}`;

/**
 * 1 MiB: the largest request body the mock reads; a larger one gets 413.
 * @internal for its tests: no part of the package's surface
 */
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

/**
 * Where the records (and, with Redis, every other state) live.
 * @example { kind: 'file', path: 'mock-data.jsonl' }
 * @example { kind: 'redis', url: 'redis://127.0.0.1:6379', prefix: 'team-a:' }
 */
export type StorageOption =
  /** In this process, seeded at every start. */
  | { kind: 'memory' }
  /** In a file, across restarts: every write answered 2xx is on disk before its answer; seeded when new. */
  | { kind: 'file'; path: string }
  /**
   * In Redis, shared by every mock started with the same URL, prefix and spec (replicas):
   * records, id counters, the start-up mark, sessions, scenario settings and the request log.
   */
  | {
      kind: 'redis';
      url: string;
      /** The start of every key the mock writes. @default 'petstore-kit:' */
      prefix?: string;
      /** Seed the prefix again when the start-up data replicas served is gone from it. @default false */
      reseed?: boolean;
      /** Start on a Redis whose maxmemory-policy may evict keys. @default false */
      allowEviction?: boolean;
    }
  /** A store of yours; `hasData`: it holds data of its own, which seeding must leave alone. */
  | { kind: 'custom'; store: Store; hasData?: boolean };

/** A command that takes a flag. */
export type CommandName = 'mock' | 'proxy';

/**
 * Where the library takes options: `startMock`, `createApp`, `mockMiddleware` (express),
 * `mockHandlers` (MSW) and `startProxy`. Each one's options type is made of the rows it takes.
 */
export type Surface = 'startMock' | 'createApp' | 'express' | 'msw' | 'proxy';

/** Every surface: what the mock's core reads, and the proxy builds one too. */
const ALL = ['startMock', 'createApp', 'express', 'msw', 'proxy'] as const;
/** What the mock serves from (data, scenarios, hooks): the proxy's target answers instead. */
const SERVED = ['startMock', 'createApp', 'express', 'msw'] as const;
/** What opens a store and a spec file of its own (startMock, and express through it). */
const OPENED = ['startMock', 'express'] as const;
/** What holds records in a store it opens. */
const STORED = ['startMock', 'express', 'msw', 'proxy'] as const;
/** Where it listens, and Node's bounds of a server: the servers it starts. */
const LISTENING = ['startMock', 'proxy'] as const;
/** What answers through Node's HTTP layer (not MSW's fetch). */
const NODE = ['startMock', 'createApp', 'express', 'proxy'] as const;
/** As NODE, but the proxy's answers are the target's, CORS headers included. */
const NODE_MOCK = ['startMock', 'createApp', 'express'] as const;

/** One flag of an option (an option may have two: `--cors-origin` and `--no-cors`). */
export interface FlagRow {
  /** As commander takes it: `-p, --port <port>`; without `<...>`, a flag that takes no value. */
  readonly flag: string;
  /** The variable the flag falls back to. */
  readonly env?: string;
  /** The commands that take it. @default ['mock'] */
  readonly commands?: readonly CommandName[];
  /** The value of a flag that takes none, when given. @default true */
  readonly sets?: unknown;
  /** Whether it may be given more than once (and its variable comma-separated). */
  readonly repeatable?: boolean;
  /** The option's value from the flag's (`--cors-origin a` is `{ origins: ['a'] }`). */
  readonly into?: (given: string | readonly string[]) => unknown;
  /** The flag's own default, where the CLI's differs from the library's. */
  readonly cliDefault?: unknown;
  /** Its help line, where it is not the option's. */
  readonly doc?: string;
  /** Whether the command cannot run without it. */
  readonly mandatory?: true;
}

/** One option of the mock. */
export interface OptionRow<V, S extends Surface = Surface> {
  readonly kind: OptionKind<V>;
  /** The library's surfaces that take it; any other refuses it (`unknown_option`). */
  readonly takenBy: readonly S[];
  /** One line: what it does. */
  readonly doc: string;
  /** The unit of a number, which its name ends in for a duration. */
  readonly unit?: 'seconds' | 'milliseconds' | 'bytes';
  /** The value when none is given; none: unset (the doc says what that means). */
  readonly default?: V;
  /** The default as the docs and the help print it, where the value does not say it. */
  readonly defaultText?: string;
  readonly flags?: readonly FlagRow[];
  /** The `storage` it is short for: such options cannot be given with `storage`. */
  readonly shorthandFor?: string;
  /** Read only by library callers (an object, a function). */
  readonly libraryOnly?: true;
}

/**
 * The default as the docs and the help print it: the CLI's own where it has one.
 * @example defaultText(MOCK_OPTIONS.sessionTtlSeconds) // '3600'
 */
export function defaultText(row: OptionRow<unknown>): string | undefined {
  if (row.defaultText !== undefined) return row.defaultText;
  const value = row.default;
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.length ? value.join(',') : undefined;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A row as written: whether it has a default, or is a shorthand, stays in its type (ResolvedOptions). */
function row<V, const S extends Surface, const R>(
  option: OptionRow<V, S> & R,
): OptionRow<V, S> & R {
  return option;
}

const storageKinds = ['memory', 'file', 'redis', 'custom'] as const;

function isStore(value: unknown): value is Store {
  return isJsonObject(value) && typeof value.collection === 'function';
}

const redisUrl = text({ example: 'redis://127.0.0.1:6379', word: true });
const filePath = text({ example: 'mock-data.jsonl' });
const prefix = text({ example: DEFAULT_REDIS_PREFIX, word: true });

/** Where the records live, as a union on `kind`. */
const storage: OptionKind<StorageOption> = {
  type: storageKinds.map((kind) => `{ kind: '${kind}', ... }`).join(' | '),
  read(value) {
    const kind = isJsonObject(value) ? value.kind : undefined;
    if (!isJsonObject(value) || !(storageKinds as readonly unknown[]).includes(kind))
      throw new OptionProblem(
        `it must be an object whose kind is one of ${storageKinds.join(', ')}, such as { kind: 'file', path: 'mock-data.jsonl' }`,
      );
    const field = <T>(name: string, of: OptionKind<T>): T => {
      try {
        return of.read(value[name]);
      } catch (err) {
        if (err instanceof OptionProblem) throw new OptionProblem(`${name}: ${err.message}`);
        throw err;
      }
    };
    const optional = <T>(name: string, of: OptionKind<T>): { [key: string]: T } =>
      value[name] === undefined ? {} : { [name]: field(name, of) };
    switch (kind as StorageOption['kind']) {
      case 'memory':
        return { kind: 'memory' };
      case 'file':
        return { kind: 'file', path: field('path', filePath) };
      case 'redis':
        return {
          kind: 'redis',
          url: field('url', redisUrl),
          ...optional('prefix', prefix),
          ...optional('reseed', flag),
          ...optional('allowEviction', flag),
        };
      case 'custom':
        return {
          kind: 'custom',
          store: field('store', shaped<Store>('a Store', isStore)),
          ...optional('hasData', flag),
        };
    }
  },
};

const cors: OptionKind<CorsSetting | false> = {
  type: '{ origins?: string[] } | false',
  read(value) {
    if (value === false) return false;
    if (!isJsonObject(value))
      throw new OptionProblem(
        "it must be false, or an object such as { origins: ['http://localhost:5173'] }",
      );
    if (value.origins === undefined) return {};
    const origins = listOf(text({ example: 'http://localhost:5173' })).read(value.origins);
    if (origins.length === 0)
      throw new OptionProblem(
        'its origins are none: give at least one origin, such as http://localhost:5173, or none at all to allow any origin',
      );
    for (const origin of origins) {
      if (!isOrigin(origin))
        throw new OptionProblem(
          `CORS origin "${origin}" is not an origin: give a scheme, a host and an optional port, nothing after them, such as http://localhost:5173 or https://app.example.com`,
        );
    }
    return { origins };
  },
};

const credentialPair: OptionKind<string> = {
  type: 'user:password',
  read(value) {
    const pair = text({ example: 'alice:wonderland' }).read(value);
    if (pair.includes(':')) return pair;
    const scheme = /^([^=]+)=/.exec(pair)?.[1];
    throw new OptionProblem(
      scheme === undefined
        ? 'it must be user:password, or scheme=user:password'
        : `it must be user:password (for scheme ${scheme})`,
    );
  },
};

const key = text({ example: 'secret' });

const webhookUrl: OptionKind<string> = {
  type: 'URL',
  read(value) {
    const url = text({ example: 'http://localhost:9000/webhooks', word: true }).read(value);
    if (!/^https?:\/\/[^/]/.test(url) || !URL.canParse(url))
      throw new OptionProblem(
        `"${url}" is not an http: or https: URL, such as http://localhost:9000/webhooks`,
      );
    return url;
  },
};

/** The proxy's target: an http: or https: URL. */
const targetUrl: OptionKind<string> = {
  type: 'URL',
  read(value) {
    const url = text({ example: 'https://staging.example.com/v1', word: true }).read(value);
    if (!/^https?:\/\/[^/]/.test(url) || !URL.canParse(url))
      throw new OptionProblem(
        `it must be an http or https URL, such as https://staging.example.com/v1, not "${url}"`,
      );
    return url;
  },
};

/** Never quoted back: it is a secret. */
const webhookSecret: OptionKind<string> = {
  type: 'whsec_ secret',
  read(value) {
    if (typeof value !== 'string' || secretKey(value.trim()) === undefined)
      throw new OptionProblem(
        `it must be ${SECRET_PREFIX} followed by the base64 of 24 to 64 random bytes, as Standard Webhooks gives secrets (such as: node -e "console.log('${SECRET_PREFIX}'+require('crypto').randomBytes(32).toString('base64'))")`,
      );
    return value.trim();
  },
};

const spec: OptionKind<string | LoadedSpec> = {
  type: 'path | LoadedSpec',
  read(value) {
    if (isJsonObject(value) && isJsonObject(value.resolved)) return value as unknown as LoadedSpec;
    return text({ example: './openapi.yaml' }).read(value);
  },
};

const handlers = shaped<Readonly<Record<string, CustomHandler>>>(
  'an object of functions, by operationId',
  (value) => isJsonObject(value) && Object.values(value).every((one) => typeof one === 'function'),
);

const logger = shaped<Logger>(
  'a logger (info, warn and error functions)',
  (value) =>
    isJsonObject(value) &&
    ['info', 'warn', 'error'].every((method) => typeof value[method] === 'function'),
);

const both: readonly CommandName[] = ['mock', 'proxy'];

/**
 * Every option of the mock and of the proxy, in the order the docs and the help list them. A
 * duration's name ends in its unit (`sessionTtlSeconds`, `delayMs`), and its flag takes that
 * unit too.
 */
export const MOCK_OPTIONS = {
  spec: row({
    // createApp takes a spec loaded, MSW a parsed document too: each declares its own.
    takenBy: ['startMock', 'express', 'proxy'],
    kind: spec,
    doc: 'The OpenAPI document to serve (3.0, 3.1, 3.2 or Swagger 2.0): a path, or a spec already loaded.',
    default: BUNDLED_SPEC_PATH,
    defaultText: 'the bundled spec/openapi.yaml',
    flags: [
      { flag: '--spec <path>' },
      { flag: '--spec <path>', commands: ['proxy'], doc: 'OpenAPI document to check against' },
    ],
  }),
  apiKeys: row({
    takenBy: ALL,
    kind: listOf(key, { secret: true }),
    doc: 'Accepted keys: API keys, bearer, OAuth 2 and OpenID Connect tokens; `scheme=key` for one security scheme only; `token[read,write]` for a token that holds those scopes only. Any credential given turns the defaults off.',
    defaultText: DEFAULT_API_KEY,
    flags: [
      { flag: '-k, --api-key <key>', env: 'API_KEYS', repeatable: true },
      {
        flag: '-k, --api-key <key>',
        env: 'API_KEYS',
        repeatable: true,
        commands: ['proxy'],
        doc: "the admin API's key (/__mock/violations); repeatable",
      },
    ],
  }),
  basic: row({
    takenBy: ALL,
    kind: listOf(credentialPair, { secret: true }),
    doc: 'Accepted HTTP basic credentials, `user:password`, or `scheme=user:password` for one scheme.',
    defaultText: DEFAULT_BASIC_CREDENTIAL,
    flags: [{ flag: '--basic <user:password>', env: 'BASIC_AUTH', repeatable: true }],
  }),
  port: row({
    takenBy: LISTENING,
    kind: wholeNumber(0, 65535),
    doc: 'The port to listen on; 0 picks a free one.',
    default: 0,
    defaultText: '4010 (CLI), 0 (library)',
    flags: [{ flag: '-p, --port <port>', env: 'PORT', commands: both, cliDefault: 4010 }],
  }),
  host: row({
    takenBy: LISTENING,
    kind: text({ example: '127.0.0.1, 0.0.0.0 or ::1', word: true }),
    doc: 'The address to listen on.',
    default: '127.0.0.1',
    flags: [{ flag: '-H, --host <host>', env: 'HOST', commands: both }],
  }),
  seed: row({
    takenBy: SERVED,
    kind: integer,
    doc: 'The same seed gives the same generated data and the same faults.',
    default: 1,
    flags: [{ flag: '--seed <seed>' }],
  }),
  seedCount: row({
    takenBy: SERVED,
    kind: wholeNumber(0),
    doc: 'Records generated per collection at start-up (not when the storage holds data).',
    default: 10,
    flags: [{ flag: '--seed-count <count>' }],
  }),
  precompile: row({
    takenBy: ALL,
    kind: flag,
    doc: 'For a document over 128 KiB: compile its operations, make its example answers and seed its collections in the background once the mock is idle, so first calls are fast.',
    default: true,
    flags: [
      {
        flag: '--no-precompile',
        sets: false,
        doc: 'leave each operation of a large document to its first call (less CPU after start-up)',
      },
    ],
  }),
  storage: row({
    takenBy: OPENED,
    kind: storage,
    doc: "Where the records live: `{ kind: 'memory' }`, `{ kind: 'file', path }`, `{ kind: 'redis', url, prefix?, reseed?, allowEviction? }` or `{ kind: 'custom', store, hasData? }`.",
    defaultText: "{ kind: 'memory' }",
    libraryOnly: true,
  }),
  data: row({
    takenBy: OPENED,
    kind: filePath,
    doc: 'Keep the data in this file, across restarts; seeded only when new.',
    shorthandFor: "storage: { kind: 'file', path }",
    flags: [{ flag: '--data <file>' }],
  }),
  seedWorkflows: row({
    takenBy: OPENED,
    kind: listOf(text({ example: 'flows.arazzo.yaml#customer-with-orders' })),
    doc: 'Arazzo workflows (`file#workflowId`) run against the fresh mock before it serves: their state is the start-up state, which every reset returns to and every new session starts from (docs/workflows.md).',
    default: [],
    defaultText: 'none',
    flags: [{ flag: '--seed-workflow <file#workflowId>', repeatable: true }],
  }),
  coverageFile: row({
    takenBy: ['startMock'],
    kind: text({ example: 'coverage.json' }),
    doc: 'Keep the coverage of every request of every session since start-up, through every reset, in this file as `GET /__mock/coverage?scope=run` gives it (written twice a second while it changes, and at exit): what `petstore-kit coverage --coverage-file` reads after the mock is gone.',
    defaultText: 'none',
    flags: [{ flag: '--coverage-file <file>' }],
  }),
  redis: row({
    takenBy: OPENED,
    kind: redisUrl,
    doc: 'Keep every state in this Redis, shared by every replica started with the same URL, prefix and spec.',
    shorthandFor: "storage: { kind: 'redis', url }",
    flags: [{ flag: '--redis <url>', env: 'REDIS_URL' }],
  }),
  redisPrefix: row({
    takenBy: OPENED,
    kind: prefix,
    doc: 'The start of every key the mock writes in Redis (with `redis`).',
    default: DEFAULT_REDIS_PREFIX,
    shorthandFor: "storage: { kind: 'redis', prefix }",
    flags: [{ flag: '--redis-prefix <prefix>', env: 'REDIS_PREFIX' }],
  }),
  redisReseed: row({
    takenBy: OPENED,
    kind: flag,
    doc: 'Seed the Redis prefix again when the start-up data replicas served is gone from it.',
    default: false,
    shorthandFor: "storage: { kind: 'redis', reseed }",
    flags: [{ flag: '--redis-reseed' }],
  }),
  redisAllowEviction: row({
    takenBy: OPENED,
    kind: flag,
    doc: 'Start on a Redis whose maxmemory-policy may evict keys (records may vanish, ids repeat).',
    default: false,
    shorthandFor: "storage: { kind: 'redis', allowEviction }",
    flags: [{ flag: '--redis-allow-eviction' }],
  }),
  store: row({
    takenBy: SERVED,
    kind: shaped<Store>('a Store', isStore),
    doc: 'A store of yours to keep the records in.',
    shorthandFor: "storage: { kind: 'custom', store }",
    libraryOnly: true,
  }),
  storeHasData: row({
    takenBy: OPENED,
    kind: flag,
    doc: 'Whether `store` came with data of its own, which seeding must leave alone.',
    default: false,
    shorthandFor: "storage: { kind: 'custom', hasData }",
    libraryOnly: true,
  }),
  maxRecords: row({
    takenBy: STORED,
    kind: wholeNumber(1),
    doc: 'The most records the storage holds, every collection and session together; a write beyond gets 507.',
    default: DEFAULT_STORE_LIMITS.maxRecords,
    flags: [{ flag: '--max-records <count>' }],
  }),
  maxStoreSize: row({
    takenBy: STORED,
    kind: size,
    unit: 'bytes',
    doc: 'The most bytes of records, as JSON, every collection and session together; a write beyond gets 507.',
    default: DEFAULT_STORE_LIMITS.maxBytes,
    defaultText: '256mb',
    flags: [{ flag: '--max-store-size <size>' }],
  }),
  maxSessions: row({
    takenBy: ALL,
    kind: wholeNumber(1),
    doc: 'The most sessions (`Mock-Session` headers) at once; past it, a new one gets a 503.',
    default: 100,
    flags: [{ flag: '--max-sessions <count>' }],
  }),
  sessionTtlSeconds: row({
    takenBy: ALL,
    kind: seconds,
    unit: 'seconds',
    doc: 'A session unused this long may be dropped to make room for a new one.',
    default: 3600,
    flags: [{ flag: '--session-ttl <seconds>' }],
  }),
  maxLogEntries: row({
    takenBy: ALL,
    kind: wholeNumber(1),
    doc: "The most requests the request logs keep, the default state's and every session's together; past it the oldest of any goes.",
    default: DEFAULT_LOG_BOUNDS.entries,
    flags: [{ flag: '--max-log-entries <count>', env: 'MAX_LOG_ENTRIES' }],
  }),
  maxLogSize: row({
    takenBy: ALL,
    kind: size,
    unit: 'bytes',
    doc: 'The most bytes the request logs keep, every session together (each body kept counts, up to 16 KiB); past it the oldest request of any goes.',
    default: DEFAULT_LOG_BOUNDS.bytes,
    defaultText: '32mb',
    flags: [{ flag: '--max-log-size <size>', env: 'MAX_LOG_SIZE' }],
  }),
  bodyLimit: row({
    takenBy: NODE,
    kind: size,
    unit: 'bytes',
    doc: 'The largest request body; a larger one gets 413.',
    default: DEFAULT_BODY_LIMIT,
    defaultText: '1mb',
    flags: [{ flag: '--body-limit <size>', commands: both }],
  }),
  maxHeaderSize: row({
    takenBy: LISTENING,
    kind: size,
    unit: 'bytes',
    doc: 'The largest request head; a larger one gets 431.',
    default: DEFAULT_SERVER_LIMITS.maxHeaderSize,
    defaultText: '16kb',
    flags: [{ flag: '--max-header-size <size>' }],
  }),
  requestTimeoutSeconds: row({
    takenBy: LISTENING,
    kind: seconds,
    unit: 'seconds',
    doc: 'A request must arrive whole within this; 408 beyond.',
    default: DEFAULT_SERVER_LIMITS.requestTimeout / 1000,
    flags: [{ flag: '--request-timeout <seconds>' }],
  }),
  headersTimeoutSeconds: row({
    takenBy: LISTENING,
    kind: seconds,
    unit: 'seconds',
    doc: 'Its headers must arrive within this; 408 beyond.',
    default: DEFAULT_SERVER_LIMITS.headersTimeout / 1000,
    flags: [{ flag: '--headers-timeout <seconds>' }],
  }),
  keepAliveTimeoutSeconds: row({
    takenBy: LISTENING,
    kind: seconds,
    unit: 'seconds',
    doc: 'An idle keep-alive connection is closed after this.',
    default: DEFAULT_SERVER_LIMITS.keepAliveTimeout / 1000,
    flags: [{ flag: '--keep-alive-timeout <seconds>' }],
  }),
  shutdownTimeoutSeconds: row({
    takenBy: LISTENING,
    kind: seconds,
    unit: 'seconds',
    doc: 'On a stop (SIGTERM), requests in flight get this long to finish.',
    default: DEFAULT_SERVER_LIMITS.shutdownTimeout / 1000,
    flags: [{ flag: '--shutdown-timeout <seconds>', commands: both }],
  }),
  sendTimeoutSeconds: row({
    takenBy: NODE,
    kind: seconds,
    unit: 'seconds',
    doc: 'A client that takes nothing of a large answer or a stream for this long is dropped (its connection reset).',
    default: DEFAULT_SERVER_LIMITS.sendTimeout / 1000,
    flags: [{ flag: '--send-timeout <seconds>' }],
  }),
  logger: row({
    takenBy: ALL,
    kind: logger,
    doc: 'Where log lines go (pino-like: info, warn, error).',
    defaultText: 'none: nothing is logged (the CLI: stdout)',
    libraryOnly: true,
  }),
  logRequests: row({
    takenBy: NODE,
    kind: flag,
    doc: 'One log line per request.',
    default: false,
    defaultText: 'true (CLI), false (library)',
    flags: [
      {
        flag: '-q, --quiet',
        sets: false,
        cliDefault: true,
        commands: both,
        doc: 'log no line per request',
      },
    ],
  }),
  cors: row({
    takenBy: NODE_MOCK,
    kind: cors,
    doc: 'CORS for pages on other origins: any origin without credentials; `origins` narrows it to those (with credentials); `false` turns it off.',
    default: {},
    defaultText: 'any origin',
    flags: [
      {
        flag: '--cors-origin <origin>',
        env: 'CORS_ORIGINS',
        repeatable: true,
        into: (origins) => ({ origins }),
        doc: 'allow only this origin (and credentials) to call from a browser; repeatable',
      },
      {
        flag: '--no-cors',
        sets: false,
        doc: 'no CORS headers: browsers refuse calls from other origins',
      },
    ],
  }),
  allowedHosts: row({
    takenBy: ['startMock'],
    kind: listOf(text({ example: 'mock.team.internal', word: true })),
    doc: 'Host names answered besides loopback ones and `host`; any other `Host` gets a 403; `*` allows any (unsafe).',
    default: [],
    defaultText: 'none',
    flags: [{ flag: '--allowed-host <host>', env: 'ALLOWED_HOSTS', repeatable: true }],
  }),
  callbackHosts: row({
    takenBy: SERVED,
    kind: listOf(text({ example: 'localhost', word: true })),
    doc: 'Hosts the callbacks a request names may be sent to; any other is refused and logged; `*` allows any (unsafe: a shared mock becomes a request forwarder).',
    default: LOOPBACK_HOSTS,
    flags: [{ flag: '--callback-hosts <hosts>', env: 'CALLBACK_HOSTS', repeatable: true }],
  }),
  webhookUrls: row({
    takenBy: SERVED,
    kind: listOf(webhookUrl),
    doc: 'Receivers subscribed to the spec’s webhooks: each is sent after the write it tells of, and on demand (`POST /__mock/webhooks/{name}`).',
    default: [],
    defaultText: 'none',
    flags: [{ flag: '--webhook-url <url>', env: 'WEBHOOK_URLS', repeatable: true }],
  }),
  webhookSecret: row({
    takenBy: SERVED,
    kind: webhookSecret,
    doc: 'Sign webhooks by the Standard Webhooks convention (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with this `whsec_` secret.',
    defaultText: 'none: unsigned',
    flags: [{ flag: '--webhook-secret <secret>', env: 'WEBHOOK_SECRET' }],
  }),
  delayMs: row({
    takenBy: SERVED,
    kind: delayRange,
    unit: 'milliseconds',
    doc: 'Delay every answer: milliseconds, or a range `{ min, max }` (`100-400` on the command line).',
    default: 0,
    flags: [{ flag: '--delay <ms>' }],
  }),
  faultRate: row({
    takenBy: SERVED,
    kind: rate,
    doc: 'The share of requests, 0 to 1, that get a random fault (seeded).',
    default: 0,
    flags: [{ flag: '--fault-rate <rate>' }],
  }),
  faultKinds: row({
    takenBy: SERVED,
    kind: listOf(oneOf<FaultKind>(FAULT_KINDS), { unique: true }),
    doc: `The faults drawn from (${FAULT_KINDS.join(', ')}).`,
    default: [...FAULT_KINDS],
    flags: [{ flag: '--fault-kinds <kinds>' }],
  }),
  faultTimeoutSeconds: row({
    takenBy: SERVED,
    kind: seconds,
    unit: 'seconds',
    doc: 'How long a `timeout` fault holds its connection.',
    default: 30,
    flags: [{ flag: '--fault-timeout <seconds>' }],
  }),
  stability: row({
    takenBy: ALL,
    kind: oneOf<StabilityLevel>(STABILITY_LEVELS),
    doc: 'Serve only operations this stable or more (`x-stability`); others get a 404 that says why.',
    default: 'experimental' as StabilityLevel,
    flags: [{ flag: '--stability <level>' }],
  }),
  watch: row({
    takenBy: OPENED,
    kind: flag,
    doc: 'Reload the spec when its file changes, keeping the data; a broken edit keeps the last good spec.',
    default: false,
    flags: [{ flag: '--watch' }],
  }),
  handlers: row({
    takenBy: SERVED,
    kind: handlers,
    doc: 'Operations answered by code of yours, by operationId; every answer is still checked against the spec.',
    default: {},
    defaultText: 'none',
    libraryOnly: true,
  }),
  target: row({
    takenBy: ['proxy'],
    kind: targetUrl,
    doc: 'The base URL of the real API the proxy forwards to: each request under the spec’s base path goes to it plus the rest of the path. Required.',
    flags: [{ flag: '--target <url>', env: 'PROXY_TARGET', commands: ['proxy'], mandatory: true }],
  }),
  targetTimeoutSeconds: row({
    takenBy: ['proxy'],
    kind: seconds,
    unit: 'seconds',
    doc: 'The target must connect, send its answer’s head, and send each part of its body within this; 504 beyond.',
    default: 30,
    flags: [{ flag: '--target-timeout <seconds>', commands: ['proxy'] }],
  }),
  record: row({
    takenBy: ['proxy'],
    kind: filePath,
    doc: 'Keep what the target creates, changes and deletes, and its answers to operations without a collection, in this data file, for `mock --data`.',
    defaultText: 'none',
    flags: [{ flag: '--record <file>', commands: ['proxy'] }],
  }),
  har: row({
    takenBy: ['proxy'],
    kind: text({ example: 'session.har' }),
    doc: 'Write every exchange that passes into this HAR 1.2 file (credentials redacted), for `petstore-kit traffic`.',
    defaultText: 'none',
    flags: [{ flag: '--har <file>', commands: ['proxy'] }],
  }),
  enforce: row({
    takenBy: ['proxy'],
    kind: flag,
    doc: 'Answer a request that breaks the spec with the mock’s own error (400, 401, 404, 415) instead of forwarding it.',
    default: false,
    flags: [{ flag: '--enforce', commands: ['proxy'] }],
  }),
} as const;

/** The name of an option of the table. */
export type OptionName = keyof typeof MOCK_OPTIONS;

/** The value an option of the table takes. */
export type OptionValue<K extends OptionName> =
  (typeof MOCK_OPTIONS)[K]['kind'] extends OptionKind<infer V> ? V : never;

/** The surfaces that take an option of the table. */
type TakenBy<K extends OptionName> = (typeof MOCK_OPTIONS)[K]['takenBy'][number];

/**
 * The options a surface takes, made from the rows that name it: a row tagged with a surface
 * is in its type, and in no other.
 * @example const options: OptionsOf<'msw'> = { seed: 7 };
 */
export type OptionsOf<S extends Surface> = {
  -readonly [K in OptionName as S extends TakenBy<K> ? K : never]?: OptionValue<K>;
};

/**
 * The names of the options a surface takes, for its check and its message.
 * @example optionsOf('msw').includes('port') // false
 */
export function optionsOf(surface: Surface): OptionName[] {
  return (Object.keys(MOCK_OPTIONS) as OptionName[]).filter((name) =>
    (MOCK_OPTIONS[name].takenBy as readonly Surface[]).includes(surface),
  );
}
