// The stores a rule of the state backend must hold on (memory, file and Redis), set up alike
// for the tests that fill states on each: a store opened directly (`open`) or the options of a
// mock served from one (`options`). Folders, stores and redis-server are cleaned up after.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { openFileStore } from '../src/store/file-store.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import { openRedisStore } from '../src/store/redis-store.js';
import type { StateBackend } from '../src/store/store.js';
import type { MockOptions } from '../src/wiring/options.js';
import { startRedisServer, type RedisServer } from './redis/redis-server.js';
import { redisLookup, withRedis } from './redis/with-redis.js';
import { tempFolder } from './temp-folders.js';

export interface StoreKind {
  name: 'memory store' | 'file store' | 'Redis store';
  /** A store of this kind of its own, empty, marked (so that scopes start from it). */
  open(): Promise<StateBackend>;
  /** The options of a mock served from a store of this kind of its own. */
  options(): Promise<MockOptions>;
  /** The Redis server the Redis kind runs on (started for the block); undefined for the others. */
  redisUrl(): string | undefined;
}

/**
 * One describe block per store kind, `rules` declared in each: the Redis one skipped with a
 * note where redis-server is missing.
 * @example onEveryStore('the request logs, bounded together', (kind) => { it('...', async () => { const store = await kind.open(); }); });
 */
export function onEveryStore(title: string, rules: (kind: StoreKind) => void): void {
  for (const name of ['memory store', 'file store', 'Redis store'] as const)
    describe(`${title}: ${name}`, () => {
      if (name === 'Redis store' && !withRedis()) {
        rules(kindOf(name, () => undefined));
        return;
      }
      let redis: RedisServer | undefined;
      if (name === 'Redis store') {
        beforeAll(async () => {
          if (redisLookup.found) redis = await startRedisServer();
        });
        afterAll(async () => {
          await redis?.stop();
        });
      }
      rules(kindOf(name, () => redis?.url));
    });
}

/** The cleanups of the test running now, run after it. */
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function folder(): Promise<string> {
  return tempFolder('store-kinds');
}

let prefixes = 0;

function kindOf(name: StoreKind['name'], redisUrl: () => string | undefined): StoreKind {
  const url = () => redisUrl() ?? 'redis://redis-not-started';
  return {
    name,
    redisUrl,
    async open() {
      const store: StateBackend =
        name === 'memory store'
          ? createMemoryStore()
          : name === 'file store'
            ? await openFileStore(join(await folder(), 'data.jsonl'))
            : await openRedisStore(url(), { prefix: `kinds-${process.pid}-${++prefixes}:` });
      cleanups.push(() => store.close());
      await store.markInitial();
      return store;
    },
    async options() {
      if (name === 'memory store') return {};
      if (name === 'file store') return { data: join(await folder(), 'data.jsonl') };
      return { redis: url(), redisPrefix: `kinds-${process.pid}-${++prefixes}:` };
    },
  };
}
