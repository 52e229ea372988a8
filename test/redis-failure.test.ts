// When Redis fails: unreachable at open, stopped, killed. The store fails fast with
// StoreUnavailableError, never hangs, recovers by itself, and loses nothing acknowledged.
import { afterEach, describe, expect, it } from 'vitest';
import { openRedisStore, RedisError, type RedisStore } from '../src/store/redis-store.js';
import {
  StoreUnavailableError,
  type CollectionDescriptor,
  type StoredRecord,
} from '../src/store/store.js';
import { StartupError } from '../src/vocabulary/errors.js';
import { startRedisServer, type RedisServer } from './redis/redis-server.js';
import { withRedis } from './redis/with-redis.js';

const pets: CollectionDescriptor = { name: 'pets', idProperty: 'id', idKind: 'integer' };
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(options: { appendOnly?: boolean } = {}): Promise<RedisServer> {
  const redis = await startRedisServer(options);
  cleanups.push(() => redis.stop());
  return redis;
}

async function open(url: string, timeoutMs = 300): Promise<RedisStore> {
  const store = await openRedisStore(url, { prefix: 'failure:', timeoutMs });
  cleanups.push(() => store.close());
  return store;
}

/** The list, once the store answers again: it reconnects by itself. */
async function listOnceBack(store: RedisStore): Promise<readonly StoredRecord[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await store.collection(pets).list();
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || attempt > 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('Redis unreachable at open', () => {
  withRedis();

  it('is one line of RedisError, a StartupError, naming the server without its password', async () => {
    const redis = await server();
    const url = redis.url.replace('redis://', 'redis://:s3cret@');
    await redis.kill();
    const error = await openRedisStore(url, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisError);
    expect(error).toBeInstanceOf(StartupError);
    const message = (error as Error).message;
    expect(message).toBe(
      `Redis at redis://127.0.0.1:${redis.port}: cannot be used (connect ECONNREFUSED 127.0.0.1:${redis.port}); start it, or check the URL`,
    );
    expect(message).not.toContain('s3cret');
  });

  it('refuses a URL that is not a Redis URL, in one line', async () => {
    await expect(openRedisStore('localhost:6379')).rejects.toThrow(
      new RedisError('localhost:6379', 'not a Redis URL; give one like redis://host:6379'),
    );
    await expect(openRedisStore('http://cache:6379')).rejects.toBeInstanceOf(RedisError);
  });
});

describe('Redis failing while the store runs', () => {
  withRedis();

  it('a Redis that stops answering: reads and writes fail after the timeout, never hang; then work again', async () => {
    const redis = await server();
    const store = await open(redis.url);
    const collection = store.collection(pets);
    await collection.create({ name: 'Rex' });
    process.kill(redis.pid!, 'SIGSTOP');
    const [read, write] = await Promise.allSettled([
      collection.list(),
      collection.create({ name: 'Tom' }),
    ]);
    process.kill(redis.pid!, 'SIGCONT');
    expect(read).toMatchObject({
      status: 'rejected',
      reason: {
        name: 'StoreUnavailableError',
        outcome: 'read',
        retryAfterSeconds: 1,
        message: `The mock's store is unavailable: its Redis at ${redis.url} did not answer within 300 ms; try again in 1 s`,
      },
    });
    // The create reached Redis, which runs it once it goes on: its outcome is not known.
    expect(write).toMatchObject({ status: 'rejected', reason: { outcome: 'unknown' } });
    expect((write as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailableError);
    expect(((write as PromiseRejectedResult).reason as Error).message).toMatch(
      /did not answer within 300 ms; this write may or may not have been stored: read the data before sending it again, in 1 s$/,
    );
    expect(await listOnceBack(store)).toEqual([
      { id: 1, name: 'Rex' },
      { id: 2, name: 'Tom' },
    ]);
    expect((await collection.create({ name: 'Kit' })).id).toBe(3);
  });

  it('a closed store refuses operations with StoreUnavailableError saying so', async () => {
    const redis = await server();
    const store = await openRedisStore(redis.url, { prefix: 'closed:' });
    await store.close();
    await expect(store.collection(pets).create({ name: 'Rex' })).rejects.toMatchObject({
      name: 'StoreUnavailableError',
      outcome: 'not-stored',
      message:
        "The mock's store is unavailable: it is closed; nothing of this write was stored, try again in 1 s",
    });
  });

  it('Redis killed in a burst of creates: each fails with StoreUnavailableError, and once Redis is back nothing acknowledged is lost', async () => {
    const redis = await server({ appendOnly: true });
    const store = await open(redis.url);
    const collection = store.collection(pets);
    const acknowledged: StoredRecord[] = [];
    const failures: unknown[] = [];
    for (let round = 0; failures.length < 30; round++) {
      const creates = Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => collection.create({ name: `Pet ${round}.${i}` })),
      );
      // Killed with creates on the wire, as a crash finds them.
      if (round === 20) await redis.kill();
      for (const result of await creates) {
        if (result.status === 'fulfilled') acknowledged.push(result.value);
        else failures.push(result.reason);
      }
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(200);
    for (const failure of failures) expect(failure).toBeInstanceOf(StoreUnavailableError);
    // Those sent after the kill were refused at once: surely not stored.
    expect(failures.at(-1)).toMatchObject({ outcome: 'not-stored' });
    await expect(store.count()).rejects.toBeInstanceOf(StoreUnavailableError);

    await redis.start();
    const listed = await listOnceBack(store);
    const byId = new Map(listed.map((record) => [record.id, record]));
    for (const record of acknowledged) expect(byId.get(record.id)).toEqual(record);
    const unknown = failures.filter(
      (failure) => (failure as StoreUnavailableError).outcome === 'unknown',
    );
    expect(listed.length).toBeLessThanOrEqual(acknowledged.length + unknown.length);
    // Ids go on after the highest stored: none is handed out twice.
    const next = await collection.create({ name: 'After' });
    expect(next.id).toBe(Math.max(...listed.map((record) => record.id as number)) + 1);
  });
});
