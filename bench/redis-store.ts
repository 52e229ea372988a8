// Issue 17's store-level row: creates and lists per second of the Redis store (a real
// redis-server on this machine, one connection) against the memory store, in alternating
// rounds. The HTTP-level rows with replicas are measured with the mock itself.
import { createMemoryStore } from '../src/store/memory-store.js';
import { openRedisStore } from '../src/store/redis-store.js';
import type { CollectionDescriptor, Store } from '../src/store/store.js';
import { findRedisServer } from '../test/redis/find-redis.js';
import { startRedisServer } from '../test/redis/redis-server.js';
import { ROUNDS } from './paired.js';
import { pinServer } from './processes.js';

export interface StoreRate {
  operation: string;
  /** Operations per second, by store, one per round. */
  redis: number[];
  memory: number[];
}

export type RedisStoreBench =
  { skipped: string } | { redisVersion: string; redisCore: string; rows: StoreRate[] };

const CATEGORIES: CollectionDescriptor = {
  name: 'categories',
  idProperty: 'id',
  idKind: 'integer',
};
const IN_FLIGHT = 50;
const CREATES = 20_000;
const LISTS = 2_000;
const LISTED = 100;

export async function redisStore(): Promise<RedisStoreBench> {
  const lookup = findRedisServer(process.env);
  if (!lookup.found) return { skipped: `redis-server not found (${lookup.why})` };
  const redis = await startRedisServer();
  // Redis on a core of its own, as it would be on its own machine: the store waits for it.
  const redisCore = pinServer(redis.pid ?? 0);
  const rows: StoreRate[] = [
    { operation: `create (${IN_FLIGHT} in flight)`, redis: [], memory: [] },
    { operation: `list of ${LISTED} (${IN_FLIGHT} in flight)`, redis: [], memory: [] },
  ];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating which goes first, so that neither always runs on a warmer machine.
      const order =
        round % 2 === 0 ? (['redis', 'memory'] as const) : (['memory', 'redis'] as const);
      for (const kind of order) {
        const store =
          kind === 'memory'
            ? createMemoryStore()
            : await openRedisStore(redis.url, { prefix: `bench-${round}:` });
        try {
          rows[0]![kind].push(await creates(store));
          rows[1]![kind].push(await lists(store));
        } finally {
          await store.close();
        }
      }
    }
    const version = await import('node:child_process').then(({ execFileSync }) =>
      execFileSync(lookup.path, ['--version'], { encoding: 'utf8' }),
    );
    return { redisVersion: /v=(\S+)/.exec(version)?.[1] ?? 'unknown', redisCore, rows };
  } finally {
    await redis.stop();
  }
}

/** Creates per second, IN_FLIGHT at a time. */
async function creates(store: Store): Promise<number> {
  const collection = store.collection(CATEGORIES);
  let next = 0;
  return rate(CREATES, async () => {
    await collection.create({ name: `Category ${next++}`, description: 'x'.repeat(200) });
  });
}

/** Lists of LISTED records per second, IN_FLIGHT at a time. */
async function lists(store: Store): Promise<number> {
  const collection = store.collection({ ...CATEGORIES, name: 'listed' });
  for (let i = 0; i < LISTED; i++)
    await collection.create({ name: `Category ${i}`, description: 'x'.repeat(200) });
  return rate(LISTS, async () => {
    await collection.list();
  });
}

async function rate(count: number, operation: () => Promise<void>): Promise<number> {
  let left = count;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (left-- > 0) await operation();
    }),
  );
  return count / ((performance.now() - started) / 1000);
}
