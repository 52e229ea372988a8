// The store behind `--redis <url>`: every record in Redis, every write one Lua script that
// Redis runs atomically, so that several mocks (replicas) serve one state. See
// decisions/008-redis-store.md.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { REDIS_STORE_DEFAULTS, RedisError } from './redis-defaults.js';
import { DEFAULT_REDIS_PREFIX } from './redis-prefix.js';
import { currentStoreBudget, spendBudget } from './store-budget.js';
import { deepFreeze, keyOf, withId } from './records.js';
import {
  failureOf,
  loadScripts,
  runScript,
  safeUrl,
  type Failure,
  type LoadedScripts,
} from './redis-connection.js';
import {
  CHECK,
  CLAIM,
  COUNT,
  CREATE,
  DROP,
  GET,
  LIST,
  MARK,
  RECLAIM,
  RELEASE,
  REMOVE,
  RENEW,
  RESET,
  UPDATE,
  type Script,
} from './redis-scripts.js';
import {
  DEFAULT_STORE_LIMITS,
  MAX_INTEGER_ID,
  StoreFullError,
  StoreIdsExhaustedError,
  StoreKeyTakenError,
  StoreLostError,
  StoreUnavailableError,
  type Collection,
  type CollectionDescriptor,
  type RecordId,
  type ScopeUsage,
  type SharedStore,
  type SideData,
  type Store,
  type StoreLimits,
  type StoredRecord,
} from './store.js';

export { DEFAULT_REDIS_PREFIX };
// Defined beside the store, without its client: the library entry exports them at no cost.
export { REDIS_STORE_DEFAULTS, RedisError } from './redis-defaults.js';

export interface RedisStoreOptions {
  /**
   * The start of every key the store writes: mocks with different prefixes share one Redis
   * without seeing each other's data; replicas of one mock use the same.
   * @default DEFAULT_REDIS_PREFIX ('petstore-kit:')
   * @example { prefix: 'team-a:' }
   */
  prefix?: string;
  /**
   * Checked in Redis, against the totals of the state written to, so they hold across
   * replicas. Each scope has its own totals.
   * @default DEFAULT_STORE_LIMITS
   */
  limits?: Partial<StoreLimits>;
  /**
   * How long an operation waits for Redis's answer before it fails with
   * StoreUnavailableError. Also the bound on connecting at open.
   * @default 2000
   */
  timeoutMs?: number;
  /**
   * How long `openRedisStore` waits while another replica seeds the prefix (it holds the
   * seeding claim and has not marked yet) before it gives up.
   * @default 60_000
   */
  seedWaitMs?: number;
  /**
   * How long a seeding claim lives unless its holder renews it (it does, every third of it,
   * until it marks): a replica that dies while it seeds frees the prefix for the next after
   * this long, and that one seeds afresh.
   * @default 15_000
   */
  claimLeaseMs?: number;
  /**
   * Seed the prefix again when replicas served start-up data that is gone from it (Redis
   * restarted empty, was flushed, or failed over to an empty replica). Without it such a
   * prefix is refused at open: a replica that joins never seeds over data others serve.
   * @default false
   */
  reseed?: boolean;
  /**
   * Accept a Redis whose `maxmemory-policy` may evict keys. Eviction drops records, id
   * counters and the start-up mark silently (ids then repeat), so such a Redis is refused at
   * open unless this is set.
   * @default false
   */
  allowEviction?: boolean;
  /**
   * The spec the mock serves: the prefix keeps the first one's, and a store opened with
   * another is refused, so that a replica of another API never serves (or resets) this one's data.
   * @default none: not compared
   * @example { hash: 'sha256 hex of the document', label: '"Categories API" 1.0.0' }
   */
  spec?: { readonly hash: string; readonly label: string };
}

/** COPY, which makes a scope from the mark inside Redis, came in 6.2. */
const MINIMUM_VERSION = [6, 2] as const;
/** How often a replica that waits for another's seeding looks again. */
const SEED_POLL_MS = 50;
/** How often an update whose record another replica keeps changing is tried before it gives up. */
const UPDATE_ATTEMPTS = 100;
/** What a failed operation tells its caller to wait: Redis is back within seconds or not soon. */
const RETRY_AFTER_SECONDS = 1;
/**
 * How often a replica asks whether its start-up data is still in Redis, between requests: so
 * that a loss is noted (and a replica started later refuses to seed over it) even while no
 * request comes.
 */
const EPOCH_CHECK_MS = 1000;

/**
 * Connects to the Redis at `url` and opens the state kept under the prefix. Operations fail
 * fast with StoreUnavailableError while Redis is unreachable (never waiting past `timeoutMs`),
 * and work again by themselves once it is back.
 *
 * Replicas: the first to open an empty prefix claims it and is not `loaded`: it seeds, then
 * calls `markInitial`, which makes the prefix ready. One that opens meanwhile waits for that;
 * one that opens a ready prefix is `loaded`: it must neither seed nor mark (the mark is
 * already in Redis, and every replica resets to it).
 * @throws {RedisError} one clear line when the URL is not a Redis URL, nothing answers at it,
 * the server refuses the connection, is older than 6.2, or another replica's seeding lasts
 * past `seedWaitMs`.
 * @example
 * const store = await openRedisStore(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
 * if (!store.loaded) {
 *   await seed(store);
 *   await store.markInitial();
 * }
 */
export async function openRedisStore(
  url: string,
  options: RedisStoreOptions = {},
): Promise<RedisStore> {
  const prefix = options.prefix ?? REDIS_STORE_DEFAULTS.prefix;
  const timeoutMs = options.timeoutMs ?? REDIS_STORE_DEFAULTS.timeoutMs;
  const shown = safeUrl(url);
  if (!/^rediss?:\/\//.test(url) || shown === undefined)
    throw new RedisError(
      shown ?? '(unreadable URL)',
      'not a Redis URL; give one like redis://host:6379',
    );
  let lastError: Error | undefined;
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    // Fail fast while disconnected (the mock answers 503), instead of queueing.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A command whose answer was lost is reported as failed, so it must never run later.
    autoResendUnfulfilledCommands: false,
    // Reconnects forever, soon: the store recovers by itself when Redis is back.
    retryStrategy: (attempt) => Math.min(50 * attempt, 1000),
  });
  client.on('error', (error: Error) => {
    lastError = error;
  });
  try {
    await client.connect();
    await checkVersion(client, shown);
    if (!options.allowEviction) await refuseEviction(client, shown);
    const scripts = await loadScripts(client);
    // Redis forgets scripts when it restarts: load them again on each reconnection.
    client.on('ready', () => void loadScripts(client, scripts).catch(() => undefined));
    const store = new RedisStore(
      {
        client,
        url: shown,
        scripts,
        limits: { ...DEFAULT_STORE_LIMITS, ...options.limits },
        prefix,
        timeoutMs,
        token: randomUUID(),
        claimLeaseMs: options.claimLeaseMs ?? REDIS_STORE_DEFAULTS.claimLeaseMs,
        updating: new Map(),
        closed: false,
        epoch: '',
        spec: options.spec ?? { hash: '', label: '' },
      },
      false,
    );
    await store.claim(options.seedWaitMs ?? REDIS_STORE_DEFAULTS.seedWaitMs, options.reseed);
    return store;
  } catch (error) {
    client.disconnect();
    if (error instanceof RedisError) throw error;
    const reason = lastError ?? error;
    throw new RedisError(
      shown,
      `cannot be used (${reason instanceof Error ? reason.message : String(reason)}); start it, or check the URL`,
      { cause: reason },
    );
  }
}

async function checkVersion(client: Redis, url: string): Promise<void> {
  const info = await client.info('server');
  const version = /redis_version:(\S+)/.exec(info)?.[1] ?? '0';
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major < MINIMUM_VERSION[0] || (major === MINIMUM_VERSION[0] && minor < MINIMUM_VERSION[1]))
    throw new RedisError(
      url,
      `the server is Redis ${version}; the store needs ${MINIMUM_VERSION.join('.')} or later`,
    );
}

/**
 * Refuses a Redis that may evict keys when its memory is full: the store would lose records,
 * counters and its mark without a word. `noeviction` answers a write with an OOM error instead,
 * which the store turns into a 503.
 * @throws {RedisError} naming the setting to change.
 */
async function refuseEviction(client: Redis, url: string): Promise<void> {
  const info = await client.info('memory');
  const policy = /maxmemory_policy:(\S+)/.exec(info)?.[1];
  if (policy === undefined || policy === 'noeviction') return;
  throw new RedisError(
    url,
    `its maxmemory-policy is ${policy}, which evicts keys (records, id counters and the start-up data vanish, and ids repeat); set maxmemory-policy noeviction, or start with --redis-allow-eviction to accept that`,
  );
}

/** What the states of one store share: the connection and the settings. */
interface Shared {
  readonly client: Redis;
  readonly url: string;
  readonly scripts: LoadedScripts;
  readonly limits: StoreLimits;
  readonly prefix: string;
  readonly timeoutMs: number;
  /** Names this opener's seeding claim. */
  readonly token: string;
  readonly claimLeaseMs: number;
  /** Set by `close`: operations after it are refused. */
  closed: boolean;
  /**
   * The generation of the start-up data this store serves, as Redis named it when it was
   * marked; empty until then (a store that seeds). Every guarded script refuses another.
   */
  epoch: string;
  /** The update under way for each record, so that this process's updates of one record queue. */
  readonly updating: Map<string, Promise<unknown>>;
  /** The spec served, as the prefix keeps it (empty: none to compare). */
  readonly spec: { readonly hash: string; readonly label: string };
}

interface StateKeys {
  /** The namespace of the state's keys. */
  state: string;
  /** The namespace of the start-up mark's keys. */
  mark: string;
  /** The set of the names of the scopes that hold a state. */
  scopes: string;
  /** The seeding claim: the token of the opener that seeds, while it does. */
  claim: string;
  /** The generation of the marked start-up data. */
  epoch: string;
  /** The generations an explicit re-seed replaced: their replicas serve the new one. */
  superseded: string;
  /** The generation a replica found gone: set until someone seeds again. */
  lost: string;
  /** The hash (`hash`, `label`) of the spec the prefix serves. */
  spec: string;
}

function keysOf(prefix: string, scopeName: string): StateKeys {
  return {
    state: scopeName ? `${prefix}scope:${encodeURIComponent(scopeName)}:` : `${prefix}main:`,
    mark: `${prefix}mark:`,
    scopes: `${prefix}scopes`,
    claim: `${prefix}claim`,
    epoch: `${prefix}epoch`,
    superseded: `${prefix}superseded`,
    lost: `${prefix}lost`,
    spec: `${prefix}spec`,
  };
}

/** The main state, or a scope: a namespace of keys. */
class RedisState implements Store {
  readonly #collections = new Map<string, RedisCollection>();
  #keys: StateKeys | undefined;

  constructor(
    protected readonly shared: Shared,
    /** The scope's name; empty for the main state. */
    private readonly scopeName: string,
  ) {}

  collection(descriptor: CollectionDescriptor): Collection {
    let collection = this.#collections.get(descriptor.name);
    if (!collection) {
      collection = new RedisCollection(descriptor, this);
      this.#collections.set(descriptor.name, collection);
    }
    return collection;
  }

  async count(): Promise<number> {
    return Number(await this.run(COUNT, [], 'read'));
  }

  async markInitial(): Promise<void> {
    const epoch = await this.run(MARK, [this.keys.claim, this.shared.token, randomUUID()], 'write');
    this.shared.epoch = String(epoch);
  }

  async reset(): Promise<void> {
    await this.run(RESET, [], 'write');
  }

  /** A scope's close does nothing: the store it came from owns the connection. */
  async close(): Promise<void> {}

  /** The keys every script of this state gets, and the seeding claim's. */
  get keys(): StateKeys {
    this.#keys ??= keysOf(this.shared.prefix, this.scopeName);
    return this.#keys;
  }

  get settings(): Shared {
    return this.shared;
  }

  /**
   * The documents and lists kept beside this state's records, under its namespace; a set names
   * them all, so that dropping the state drops them too.
   */
  sideData(): SideData {
    const index = `${this.keys.state}side`;
    const key = (kind: string, name: string) =>
      `${this.keys.state}${kind}:${encodeURIComponent(name)}`;
    return {
      readDocument: async (name) =>
        (await this.command('read', (client) => client.get(key('doc', name)))) ?? undefined,
      writeDocument: async (name, json) => {
        await this.command('write', (client) =>
          client.multi().set(key('doc', name), json).sadd(index, key('doc', name)).exec(),
        );
      },
      deleteDocument: async (name) => {
        await this.command('write', (client) => client.del(key('doc', name)));
      },
      pushEntry: async (list, json, capacity) => {
        const at = key('list', list);
        const pushed = key('pushed', list);
        // One transaction: the counter and the list move together, so that an entry's number
        // is its position from the counter (see readEntries).
        await this.command('write', (client) =>
          client
            .multi()
            .lpush(at, json)
            .ltrim(at, 0, capacity - 1)
            .incr(pushed)
            .sadd(index, at, pushed)
            .exec(),
        );
      },
      readEntries: (list) =>
        this.command('read', async (client) => {
          const results = await client
            .multi()
            .get(key('pushed', list))
            .lrange(key('list', list), 0, -1)
            .exec();
          const [[countFailure, pushed] = [], [listFailure, entries] = []] = results ?? [];
          if (countFailure || listFailure) throw countFailure ?? listFailure;
          return { entries: (entries as string[] | undefined) ?? [], pushed: Number(pushed ?? 0) };
        }),
      clearEntries: async (list) => {
        await this.command('write', (client) => client.del(key('list', list)));
      },
    };
  }

  /** Drops the documents and lists of this state. */
  async dropSideData(): Promise<void> {
    const index = `${this.keys.state}side`;
    await this.command('write', async (client) => {
      const keys = await client.smembers(index);
      await client.del(index, ...keys);
    });
  }

  /**
   * Runs one call to Redis within the store time left to the request being served (when one
   * is), so that a Redis that stops answering holds a request for that time in all, not for a
   * timeout per call.
   */
  async #withinBudget<T>(kind: 'read' | 'write', call: () => Promise<T>): Promise<T> {
    const budget = currentStoreBudget();
    if (!budget) return call();
    if (budget.leftMs <= 0) throw new BudgetSpent(budget.totalMs, false);
    const outcome = await spendBudget(budget, call);
    if (!outcome.done) throw new BudgetSpent(budget.totalMs, kind === 'write');
    return outcome.value;
  }

  /** Runs plain commands, their failures told as a script's are. */
  async command<T>(kind: 'read' | 'write', run: (client: Redis) => Promise<T>): Promise<T> {
    if (this.shared.closed)
      throw new StoreUnavailableError('it is closed', RETRY_AFTER_SECONDS, {
        outcome: kind === 'read' ? 'read' : 'not-stored',
      });
    try {
      return await this.#withinBudget(kind, () => run(this.shared.client));
    } catch (error) {
      throw unavailable(failureOf(error, this.shared.timeoutMs), this.shared.url, kind, error);
    }
  }

  /**
   * Runs a script on this state. A failure to reach Redis becomes StoreUnavailableError; a
   * write whose answer was lost is said to be of unknown outcome.
   */
  async run(script: Script, args: readonly (string | number)[], kind: 'read' | 'write') {
    const keys = this.keys;
    if (this.shared.closed)
      throw new StoreUnavailableError('it is closed', RETRY_AFTER_SECONDS, {
        outcome: kind === 'read' ? 'read' : 'not-stored',
      });
    try {
      return await this.#withinBudget(kind, () =>
        runScript(
          this.shared.client,
          this.shared.scripts,
          script,
          [keys.state, keys.mark, keys.scopes, keys.epoch, keys.superseded, keys.lost, keys.spec],
          [this.scopeName, ...args, this.shared.epoch],
        ),
      );
    } catch (error) {
      const loss = lossOf(error);
      if (loss) throw new StoreLostError(loss, `its Redis at ${this.shared.url}`, kind);
      throw unavailable(failureOf(error, this.shared.timeoutMs), this.shared.url, kind, error);
    }
  }
}

/** The request's store time (see store-budget.ts) ran out: the call was not sent, or its answer was not awaited. */
class BudgetSpent extends Error {
  constructor(
    readonly totalMs: number,
    readonly sent: boolean,
  ) {
    super('The request spent its store time');
  }
}

/** What a guarded script's refusal says of the start-up data: gone, or replaced. */
function lossOf(error: unknown): 'gone' | 'replaced' | undefined {
  if (!(error instanceof Error) || error.name !== 'ReplyError') return undefined;
  if (error.message.startsWith('EPOCHGONE')) return 'gone';
  if (error.message.startsWith('EPOCHOTHER')) return 'replaced';
  return undefined;
}

function unavailable(
  failure: Failure | undefined,
  url: string,
  kind: 'read' | 'write',
  error: unknown,
): unknown {
  if (error instanceof BudgetSpent)
    failure = {
      problem: `did not answer within the request's ${error.totalMs} ms`,
      sent: error.sent,
    };
  if (!failure) return error;
  return new StoreUnavailableError(`its Redis at ${url} ${failure.problem}`, RETRY_AFTER_SECONDS, {
    cause: error,
    outcome: kind === 'read' ? 'read' : failure.sent ? 'unknown' : 'not-stored',
  });
}

/**
 * A store kept in Redis, shared by every mock opened on the same Redis and prefix. Made by
 * `openRedisStore`. Its scopes are states of their own under the same prefix, made in Redis as
 * a copy of the mark (a few COPY commands in one script, however many records).
 * @example
 * const store = await openRedisStore('redis://127.0.0.1:6379', { prefix: 'team-a:' });
 * await store.collection({ name: 'categories', idProperty: 'id', idKind: 'integer' }).create({ name: 'Dog' });
 * await store.scope('worker-1').collection(categories).list(); // the marked records
 */
export class RedisStore extends RedisState implements SharedStore {
  /**
   * Whether the prefix held a marked state when the store was opened: another replica seeded
   * it. Then this one must neither seed nor call `markInitial`.
   */
  loaded: boolean;
  /** Whether this store seeds over start-up data that was lost (opened with `reseed`). */
  reseeded = false;
  readonly #scopes = new Map<string, RedisState>();
  #renewal: NodeJS.Timeout | undefined;
  #epochCheck: NodeJS.Timeout | undefined;

  constructor(shared: Shared, loaded: boolean) {
    super(shared, '');
    this.loaded = loaded;
  }

  /** The Redis server, as its URL without the password. */
  get url(): string {
    return this.shared.url;
  }

  get prefix(): string {
    return this.shared.prefix;
  }

  get limits(): StoreLimits {
    return this.shared.limits;
  }

  scope(name: string): Store {
    if (typeof name !== 'string' || name === '')
      throw new TypeError('A scope needs a name of one character or more');
    let scope = this.#scopes.get(name);
    if (!scope) {
      scope = new RedisState(this.shared, name);
      this.#scopes.set(name, scope);
    }
    return scope;
  }

  async scopeNames(): Promise<string[]> {
    return this.command('read', (client) => client.smembers(this.keys.scopes));
  }

  async dropScope(name: string): Promise<boolean> {
    const scope = this.scope(name) as RedisState;
    const dropped = Number(await scope.run(DROP, [], 'write')) === 1;
    await scope.dropSideData();
    await this.command('write', (client) =>
      client.multi().hdel(this.#usage('created'), name).hdel(this.#usage('used'), name).exec(),
    );
    return dropped;
  }

  override sideData(scope?: string): SideData {
    return scope === undefined ? super.sideData() : (this.scope(scope) as RedisState).sideData();
  }

  async touchScope(name: string): Promise<void> {
    const now = Date.now();
    await this.command('write', (client) =>
      client
        .multi()
        .hsetnx(this.#usage('created'), name, String(now))
        .hset(this.#usage('used'), name, String(now))
        .exec(),
    );
  }

  async scopeUsage(): Promise<ScopeUsage[]> {
    const [names, created, used] = await this.command('read', (client) =>
      Promise.all([
        client.smembers(this.keys.scopes),
        client.hgetall(this.#usage('created')),
        client.hgetall(this.#usage('used')),
      ]),
    );
    return names.map((name) => ({
      name,
      createdAt: Number(created[name] ?? 0),
      lastUsedAt: Number(used[name] ?? created[name] ?? 0),
    }));
  }

  /** The hashes of when each scope was made and last used. */
  #usage(kind: 'created' | 'used'): string {
    return `${this.shared.prefix}scope-${kind}`;
  }

  override async markInitial(): Promise<void> {
    await super.markInitial();
    this.#stopRenewal();
    this.#checkEpoch();
  }

  /**
   * Seeds the main state again, with `fill`, once its start-up data is gone from Redis, and
   * marks it as the new generation, which the replicas that served the lost one serve too.
   * When another replica did so already, or the prefix holds a generation seeded since, this
   * store serves that one instead and resets to it.
   * @returns whether this store seeded.
   * @throws {StoreUnavailableError} while another replica seeds.
   */
  async reseed(fill: () => Promise<void>): Promise<boolean> {
    const { hash, label } = this.shared.spec;
    const outcome = (await this.run(
      RECLAIM,
      [this.keys.claim, this.shared.token, this.shared.claimLeaseMs, hash, label],
      'write',
    )) as [string];
    if (outcome[0] === 'current') {
      await this.reset();
      return false;
    }
    if (outcome[0] === 'wait')
      throw new StoreUnavailableError(
        'another mock is seeding its start-up data again',
        RETRY_AFTER_SECONDS,
      );
    this.shared.epoch = '';
    try {
      await fill();
      await this.markInitial();
    } catch (error) {
      await this.run(RELEASE, [this.keys.claim, this.shared.token], 'write').catch(() => undefined);
      throw error;
    }
    return true;
  }

  /** Ends this opener's seeding claim, if it still holds one, and the connection. */
  override async close(): Promise<void> {
    this.#stopRenewal();
    clearInterval(this.#epochCheck);
    if (this.shared.closed) return;
    await this.run(RELEASE, [this.keys.claim, this.shared.token], 'write').catch(() => undefined);
    const client = this.shared.client;
    this.shared.closed = true;
    await client.quit().catch(() => client.disconnect());
  }

  /**
   * Claims the prefix for seeding, or finds it seeded; waits while another opener seeds.
   * @internal
   */
  async claim(waitMs: number, reseed = false): Promise<void> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const { hash, label } = this.shared.spec;
      const [outcome, epoch] = (await this.run(
        CLAIM,
        [
          this.keys.claim,
          this.shared.token,
          this.shared.claimLeaseMs,
          reseed ? 'reseed' : '',
          hash,
          label,
        ],
        'write',
      )) as [string, string?];
      if (outcome === 'other-spec')
        throw new RedisError(
          this.shared.url,
          `the prefix "${this.prefix}" serves another spec, ${epoch ?? 'unnamed'}, and this mock's is ${label}; give this mock another --redis-prefix, or stop the mocks of the other spec and empty the prefix`,
        );
      if (outcome === 'loaded') {
        this.loaded = true;
        this.shared.epoch = epoch ?? '';
        this.#checkEpoch();
        return;
      }
      if (outcome === 'lost')
        throw new RedisError(
          this.shared.url,
          `the start-up data that mocks served under the prefix "${this.prefix}" is gone (Redis restarted empty, was flushed, or failed over to an empty replica); seed it again with POST /__mock/reset on a running mock, or start this one with --redis-reseed`,
        );
      if (outcome === 'claimed') {
        this.loaded = false;
        this.reseeded = Boolean(epoch);
        this.#renewal = setInterval(() => {
          void this.run(
            RENEW,
            [this.keys.claim, this.shared.token, this.shared.claimLeaseMs],
            'write',
          ).catch(() => undefined);
        }, this.shared.claimLeaseMs / 3);
        this.#renewal.unref();
        return;
      }
      if (Date.now() > deadline)
        throw new RedisError(
          this.shared.url,
          `another mock has been seeding the prefix "${this.prefix}" for ${Math.round(waitMs / 1000)} s without finishing; stop it, or use another prefix`,
        );
      await new Promise((resolve) => setTimeout(resolve, SEED_POLL_MS));
    }
  }

  /**
   * Asks Redis every EPOCH_CHECK_MS whether the generation served is still there: a loss is
   * then noted in Redis (see the scripts' guard) even while no request comes.
   */
  #checkEpoch(): void {
    clearInterval(this.#epochCheck);
    this.#epochCheck = setInterval(() => {
      void this.run(CHECK, [], 'read').catch(() => undefined);
    }, EPOCH_CHECK_MS);
    this.#epochCheck.unref();
  }

  #stopRenewal(): void {
    clearInterval(this.#renewal);
    this.#renewal = undefined;
  }
}

class RedisCollection implements Collection {
  /** The JSON of a record up to its id's value: `{"id":`. */
  readonly #head: string;
  readonly #name: string;
  /**
   * The records of the last list, by their JSON as Redis holds it: a record read again
   * unchanged is the object read before, so the caches the answers keep by record (its checked
   * JSON) hold across requests, as they do with the memory store. A changed record has new
   * JSON, and so is read anew; what the last list no longer held is let go.
   */
  #decoded = new Map<string, StoredRecord>();

  constructor(
    readonly descriptor: CollectionDescriptor,
    private readonly state: RedisState,
  ) {
    this.#head = `{${JSON.stringify(descriptor.idProperty)}:`;
    this.#name = encodeURIComponent(descriptor.name);
  }

  async list(): Promise<readonly StoredRecord[]> {
    const jsons = (await this.state.run(LIST, [this.#name], 'read')) as (string | null)[];
    const decoded = new Map<string, StoredRecord>();
    const records: StoredRecord[] = [];
    for (const json of jsons) {
      if (typeof json !== 'string') continue;
      const record = this.#decoded.get(json) ?? parse(json);
      decoded.set(json, record);
      records.push(record);
    }
    this.#decoded = decoded;
    return records;
  }

  async get(id: RecordId): Promise<StoredRecord | undefined> {
    const json = await this.state.run(GET, [this.#name, this.#field(id)], 'read');
    return typeof json === 'string' ? (this.#decoded.get(json) ?? parse(json)) : undefined;
  }

  async create(
    fields: Readonly<Record<string, unknown>>,
    chosen?: RecordId,
  ): Promise<StoredRecord> {
    const descriptor = this.descriptor;
    if (chosen === undefined && descriptor.idKind === 'integer') {
      // Redis picks the id: the record's JSON goes as the parts around it.
      const json = JSON.stringify(withId(descriptor, 0, fields));
      const tail = json.slice(this.#head.length + 1);
      const reply = await this.#create(['auto', '', this.#head, tail, String(MAX_INTEGER_ID)]);
      if (reply[0] === 'exhausted') throw new StoreIdsExhaustedError(descriptor.name);
      return withId(descriptor, Number(reply[1]), fields);
    }
    for (let attempt = 0; ; attempt++) {
      const id = chosen === undefined ? randomUUID() : keyOf(descriptor, chosen);
      if (typeof id === 'number' && !Number.isSafeInteger(id))
        throw new TypeError(`${descriptor.name}: ${String(chosen)} is not an integer id`);
      const record = withId(descriptor, id, fields);
      const mode = typeof id === 'number' ? 'int' : 'str';
      const reply = await this.#create([
        mode,
        String(id),
        JSON.stringify(record),
        '',
        String(MAX_INTEGER_ID),
      ]);
      if (reply[0] === 'ok') return record;
      if (reply[0] === 'exhausted') throw new StoreIdsExhaustedError(descriptor.name);
      if (chosen !== undefined)
        throw new StoreKeyTakenError(descriptor.name, descriptor.idProperty, id);
      // A UUID taken already: as likely as winning a lottery twice, but then another one.
      if (attempt > 3) throw new Error(`${descriptor.name}: no free UUID after ${attempt} tries`);
    }
  }

  /**
   * `change` runs here, on a record read from Redis; the write is a compare-and-set, so a
   * write from another replica in between makes it run again on the newer record (it must
   * depend on nothing but the record it is given). This process's own updates of one record
   * queue instead, so they never race each other.
   */
  async update(
    id: RecordId,
    change: (current: StoredRecord) => Readonly<Record<string, unknown>>,
  ): Promise<StoredRecord | undefined> {
    const key = keyOf(this.descriptor, id);
    const field = String(key);
    return this.#queued(field, async () => {
      let current = await this.state.run(GET, [this.#name, field], 'read');
      for (let attempt = 1; typeof current === 'string'; attempt++) {
        const record = withId(this.descriptor, key, change(parse(current)));
        const reply = (await this.state.run(
          UPDATE,
          [this.#name, field, current, JSON.stringify(record), ...this.#limitArgs()],
          'write',
        )) as [string, string?];
        if (reply[0] === 'ok') return record;
        if (reply[0] === 'full') throw this.#full(reply[1]);
        if (reply[0] === 'gone') return undefined;
        if (attempt >= UPDATE_ATTEMPTS)
          throw new StoreUnavailableError(
            `${this.descriptor.name} ${field} was changed by other writers ${attempt} times while this update was being made`,
            RETRY_AFTER_SECONDS,
          );
        current = reply[1];
      }
      return undefined;
    });
  }

  async remove(id: RecordId): Promise<boolean> {
    return Number(await this.state.run(REMOVE, [this.#name, this.#field(id)], 'write')) === 1;
  }

  async #create(parts: string[]): Promise<[string, string?]> {
    const reply = (await this.state.run(
      CREATE,
      [this.#name, ...parts, ...this.#limitArgs()],
      'write',
    )) as [string, string?];
    if (reply[0] === 'full') throw this.#full(reply[1]);
    return reply;
  }

  #field(id: RecordId): string {
    return String(keyOf(this.descriptor, id));
  }

  /** The limits as the scripts take them: -1 for none. */
  #limitArgs(): [number, number] {
    const { maxRecords, maxBytes } = this.state.settings.limits;
    return [
      Number.isFinite(maxRecords) ? maxRecords : -1,
      Number.isFinite(maxBytes) ? maxBytes : -1,
    ];
  }

  #full(limit: string | undefined): StoreFullError {
    const which = limit === 'maxBytes' ? 'maxBytes' : 'maxRecords';
    return new StoreFullError(which, this.state.settings.limits[which]);
  }

  async #queued<T>(field: string, task: () => Promise<T>): Promise<T> {
    const updating = this.state.settings.updating;
    const key = `${this.state.keys.state}\n${this.#name}\n${field}`;
    const before = updating.get(key);
    const run = before ? before.then(task, task) : task();
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    updating.set(key, settled);
    void settled.then(() => {
      if (updating.get(key) === settled) updating.delete(key);
    });
    return run;
  }
}

function parse(json: string): StoredRecord {
  return deepFreeze(JSON.parse(json) as StoredRecord);
}
