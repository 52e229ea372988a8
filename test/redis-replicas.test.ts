// Several replicas on one real Redis: each a process of its own with its own connection,
// sharing one prefix, as mocks behind a load balancer do.
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from './redis/redis-server.js';
import { redisLookup, withRedis } from './redis/with-redis.js';
import { startReplica, type Replica, type ReplicaOptions } from './redis/replica.js';

describe('replicas sharing one Redis', () => {
  withRedis();
  let redis: RedisServer | undefined;
  let prefixes = 0;
  const started: Replica[] = [];

  beforeAll(async () => {
    if (redisLookup.found) redis = await startRedisServer();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((replica) => replica.stop()));
  });
  afterAll(async () => {
    await redis?.stop();
  });

  /** Replicas started at once on a prefix of their own, in the order given. */
  async function replicas(count: number, options: ReplicaOptions = {}): Promise<Replica[]> {
    const prefix = `replicas-${++prefixes}:`;
    const opened = await Promise.all(
      Array.from({ length: count }, () => startReplica(redis?.url ?? '', prefix, options)),
    );
    started.push(...opened);
    return opened;
  }

  it('200 concurrent creates through three replicas get 200 distinct ids, listed alike by each', async () => {
    const three = await replicas(3);
    const created = await Promise.all(
      Array.from({ length: 200 }, (_, i) => three[i % 3]!.create({ name: `Pet ${i}` })),
    );
    const ids = created.map((record) => record.id as number);
    expect(new Set(ids).size).toBe(200);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const lists = await Promise.all(three.map((replica) => replica.list()));
    const byId = [...created].sort((a, b) => (a.id as number) - (b.id as number));
    for (const list of lists) expect(list).toEqual(byId);
  });

  it('concurrent updates of one record through three replicas lose none', async () => {
    const three = await replicas(3);
    const record = await three[0]!.create({ name: 'Rex', visits: 0 });
    await Promise.all(
      Array.from({ length: 90 }, (_, i) => three[i % 3]!.increment(record.id as number)),
    );
    for (const replica of three)
      expect(await replica.get(record.id as number)).toEqual({ id: 1, name: 'Rex', visits: 90 });
  });

  it('a create acknowledged by one replica is in the next read from another', async () => {
    const [writer, reader] = await replicas(2);
    for (let i = 0; i < 20; i++) {
      const created = await writer!.create({ name: `Pet ${i}` });
      expect(await reader!.get(created.id as number)).toEqual(created);
    }
    expect(await reader!.list()).toHaveLength(20);
  });

  it('a reset through one replica resets every replica, ids included', async () => {
    const [a, b, c] = await replicas(3, { seedCount: 2 });
    const marked = await a!.list();
    expect(marked).toHaveLength(2);
    await b!.create({ name: 'Tom' });
    await c!.increment(1);
    await a!.reset();
    for (const replica of [a, b, c]) expect(await replica!.list()).toEqual(marked);
    expect((await c!.create({ name: 'Kit' })).id).toBe(3);
  });

  it('a replica started later sees the data, and is loaded: it neither seeds nor marks', async () => {
    const [first] = await replicas(1, { seedCount: 3 });
    expect(first!.loaded).toBe(false);
    await first!.create({ name: 'Tom' });
    const later = await startReplica(redis?.url ?? '', `replicas-${prefixes}:`, { seedCount: 3 });
    started.push(later);
    expect(later.loaded).toBe(true);
    expect(await later.list()).toEqual(await first!.list());
    expect(await later.list()).toHaveLength(4);
  });

  it('replicas starting at the same moment: one seeds, the others wait and see all it seeded', async () => {
    const three = await replicas(3, { seedCount: 5, seedDelayMs: 300 });
    expect(three.map((replica) => replica.loaded).sort()).toEqual([false, true, true]);
    const seeder = three.find((replica) => !replica.loaded)!;
    for (const replica of three) {
      const list = await replica.list();
      expect(list).toHaveLength(5);
      expect(new Set(list.map((record) => record.seededBy))).toEqual(new Set([seeder.pid]));
    }
  });

  it('a replica that dies while it seeds frees the prefix: the next one seeds afresh', async () => {
    const prefix = `replicas-${++prefixes}:`;
    const url = redis?.url ?? '';
    // One record, then a long pause before the next: killed then, it never marks.
    const dying = startReplica(url, prefix, {
      seedCount: 2,
      seedDelayMs: 60_000,
      claimLeaseMs: 300,
    });
    dying.catch(() => undefined);
    // Its first record names it; read straight from Redis, since it is not ready to ask.
    const peek = new Redis(url);
    let first: string | null = null;
    try {
      while (!(first = await peek.hget(`${prefix}main:r:pets`, '1')))
        await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      peek.disconnect();
    }
    const next = startReplica(url, prefix, { seedCount: 1, claimLeaseMs: 300 });
    process.kill((JSON.parse(first) as { seededBy: number }).seededBy, 'SIGKILL');
    const replica = await next;
    started.push(replica);
    expect(replica.loaded).toBe(false);
    expect(await replica.list()).toEqual([{ id: 1, name: 'Seed 0', seededBy: replica.pid }]);
  });
});
