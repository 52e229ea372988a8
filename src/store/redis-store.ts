// The store behind `--redis <url>`: every record in Redis, every write one Lua script that
// Redis runs atomically, so that several mocks (replicas) serve one state. See
// decisions/008-redis-store.md. Split as the file store is: this module opens the store and
// holds the main state's seeding lease and scopes; redis-state.ts a state and its calls,
// redis-collection.ts the records, redis-side-data.ts what is kept beside them,
// redis-scripts.ts and redis-log-scripts.ts the scripts.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { REDIS_STORE_DEFAULTS, RedisError } from './redis-defaults.js';
import { DEFAULT_REDIS_PREFIX } from './redis-prefix.js';
import { loadScripts, safeUrl } from './redis-connection.js';
import { CHECK, CLAIM, DROP, RECLAIM, RELEASE, RENEW } from './redis-scripts.js';
import { RETRY_AFTER_SECONDS, type Shared } from './redis-shared.js';
import { RedisState } from './redis-state.js';
import {
  DEFAULT_STORE_LIMITS,
  StoreUnavailableError,
  type ScopeUsage,
  type StateBackend,
  type SideData,
  type Store,
  type StoreLimits,
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

/**
 * A store kept in Redis, shared by every mock opened on the same Redis and prefix. Made by
 * `openRedisStore`. Its scopes are states of their own under the same prefix, made in Redis as
 * a copy of the mark (a few COPY commands in one script, however many records).
 * @example
 * const store = await openRedisStore('redis://127.0.0.1:6379', { prefix: 'team-a:' });
 * await store.collection({ name: 'categories', idProperty: 'id', idKind: 'integer' }).create({ name: 'Dog' });
 * await store.scope('worker-1').collection(categories).list(); // the marked records
 */
export class RedisStore extends RedisState implements StateBackend {
  /** Replicas serve from it together. */
  readonly shared = true;
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
    return this.link.url;
  }

  get prefix(): string {
    return this.link.prefix;
  }

  get limits(): StoreLimits {
    return this.link.limits;
  }

  scope(name: string): Store {
    if (typeof name !== 'string' || name === '')
      throw new TypeError('A scope needs a name of one character or more');
    let scope = this.#scopes.get(name);
    if (!scope) {
      scope = new RedisState(this.link, name);
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
        // It holds a state from now on, made from the mark when first used (see ensure()).
        .sadd(this.keys.scopes, name)
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
    return `${this.link.prefix}scope-${kind}`;
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
    const { hash, label } = this.link.spec;
    const outcome = (await this.run(
      RECLAIM,
      [this.keys.claim, this.link.token, this.link.claimLeaseMs, hash, label],
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
    this.link.epoch = '';
    try {
      await fill();
      await this.markInitial();
    } catch (error) {
      await this.run(RELEASE, [this.keys.claim, this.link.token], 'write').catch(() => undefined);
      throw error;
    }
    return true;
  }

  /** Ends this opener's seeding claim, if it still holds one, and the connection. */
  override async close(): Promise<void> {
    this.#stopRenewal();
    clearInterval(this.#epochCheck);
    if (this.link.closed) return;
    await this.run(RELEASE, [this.keys.claim, this.link.token], 'write').catch(() => undefined);
    const client = this.link.client;
    this.link.closed = true;
    await client.quit().catch(() => client.disconnect());
  }

  /**
   * Claims the prefix for seeding, or finds it seeded; waits while another opener seeds.
   * @internal
   */
  async claim(waitMs: number, reseed = false): Promise<void> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const { hash, label } = this.link.spec;
      const [outcome, epoch] = (await this.run(
        CLAIM,
        [
          this.keys.claim,
          this.link.token,
          this.link.claimLeaseMs,
          reseed ? 'reseed' : '',
          hash,
          label,
        ],
        'write',
      )) as [string, string?];
      if (outcome === 'other-spec')
        throw new RedisError(
          this.link.url,
          `the prefix "${this.prefix}" serves another spec, ${epoch ?? 'unnamed'}, and this mock's is ${label}; give this mock another --redis-prefix, or stop the mocks of the other spec and empty the prefix`,
        );
      if (outcome === 'loaded') {
        this.loaded = true;
        this.link.epoch = epoch ?? '';
        this.#checkEpoch();
        return;
      }
      if (outcome === 'lost')
        throw new RedisError(
          this.link.url,
          `the start-up data that mocks served under the prefix "${this.prefix}" is gone (Redis restarted empty, was flushed, or failed over to an empty replica); seed it again with POST /__mock/reset on a running mock, or start this one with --redis-reseed`,
        );
      if (outcome === 'claimed') {
        this.loaded = false;
        this.reseeded = Boolean(epoch);
        this.#renewal = setInterval(() => {
          void this.run(
            RENEW,
            [this.keys.claim, this.link.token, this.link.claimLeaseMs],
            'write',
          ).catch(() => undefined);
        }, this.link.claimLeaseMs / 3);
        this.#renewal.unref();
        return;
      }
      if (Date.now() > deadline)
        throw new RedisError(
          this.link.url,
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
