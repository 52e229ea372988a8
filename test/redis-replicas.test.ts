// Several replicas on one real Redis, each with its own connections, sharing one prefix, as mocks
// behind a load balancer do: in this process, but the one that dies, a process of its own.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest';
import { startRedisServer, type RedisServer } from './redis/redis-server.js';
import { redisLookup, withRedis } from './redis/with-redis.js';
import {
  startReplicaHost,
  startReplicaProcess,
  type OpenOptions,
  type Replica,
  type ReplicaHandle,
} from './redis/replica.js';

// Each test opens prefixes of its own and closes its replicas at its own end: they run at once.
describe.concurrent('replicas sharing one Redis', () => {
  withRedis();
  let redis: RedisServer | undefined;
  /** Three replicas, each a replica of every prefix it opens. */
  let processes: ReplicaHandle[] = [];
  let prefixes = 0;

  beforeAll(async () => {
    if (!redisLookup.found) return;
    redis = await startRedisServer();
    processes = Array.from({ length: 3 }, (_, i) => startReplicaHost(redis?.url ?? '', i + 1));
  });
  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    await redis?.stop();
  });

  /** A replica just opened, closed at the end of the test that opened it. */
  function closedAtEnd({ onTestFinished }: TestContext, replica: Replica): Replica {
    onTestFinished(() => replica.close());
    return replica;
  }

  /** Replicas opening `prefix` (by default one of their own) at once, one per process. */
  async function replicas(
    ctx: TestContext,
    count: number,
    options: OpenOptions = {},
    prefix = `replicas-${++prefixes}:`,
  ): Promise<Replica[]> {
    const replicas = await Promise.all(
      processes.slice(0, count).map((process) => process.open(prefix, options)),
    );
    return replicas.map((replica) => closedAtEnd(ctx, replica));
  }

  it('200 concurrent creates through three replicas get 200 distinct ids, listed alike by each', async (ctx) => {
    const { expect } = ctx;
    const three = await replicas(ctx, 3);
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

  it('concurrent updates of one record through three replicas lose none', async (ctx) => {
    const { expect } = ctx;
    const three = await replicas(ctx, 3);
    const record = await three[0]!.create({ name: 'Rex', visits: 0 });
    await Promise.all(
      Array.from({ length: 90 }, (_, i) => three[i % 3]!.increment(record.id as number)),
    );
    for (const replica of three)
      expect(await replica.get(record.id as number)).toEqual({ id: 1, name: 'Rex', visits: 90 });
  });

  it('a create acknowledged by one replica is in the next read from another', async (ctx) => {
    const { expect } = ctx;
    const [writer, reader] = await replicas(ctx, 2);
    for (let i = 0; i < 20; i++) {
      const created = await writer!.create({ name: `Pet ${i}` });
      expect(await reader!.get(created.id as number)).toEqual(created);
    }
    expect(await reader!.list()).toHaveLength(20);
  });

  it('a reset through one replica resets every replica, ids included', async (ctx) => {
    const { expect } = ctx;
    const [a, b, c] = await replicas(ctx, 3, { seedCount: 2 });
    const marked = await a!.list();
    expect(marked).toHaveLength(2);
    await b!.create({ name: 'Tom' });
    await c!.increment(1);
    await a!.reset();
    for (const replica of [a, b, c]) expect(await replica!.list()).toEqual(marked);
    expect((await c!.create({ name: 'Kit' })).id).toBe(3);
  });

  it('a replica started later sees the data, and is loaded: it neither seeds nor marks', async (ctx) => {
    const { expect } = ctx;
    const prefix = `replicas-${++prefixes}:`;
    const [first] = await replicas(ctx, 1, { seedCount: 3 }, prefix);
    expect(first!.loaded).toBe(false);
    await first!.create({ name: 'Tom' });
    const later = closedAtEnd(ctx, await processes[1]!.open(prefix, { seedCount: 3 }));
    expect(later.loaded).toBe(true);
    expect(await later.list()).toEqual(await first!.list());
    expect(await later.list()).toHaveLength(4);
  });

  it('replicas starting at the same moment: one seeds, the others wait and see all it seeded', async (ctx) => {
    const { expect } = ctx;
    const three = await replicas(ctx, 3, { seedCount: 5, seedDelayMs: 300 });
    expect(three.map((replica) => replica.loaded).sort()).toEqual([false, true, true]);
    const seeder = three.find((replica) => !replica.loaded)!;
    // The others opened only once it had seeded all: they never served a part.
    for (const replica of three.filter((r) => r.loaded)) expect(replica.seenAtOpen).toBe(5);
    for (const replica of three) {
      const list = await replica.list();
      expect(list).toHaveLength(5);
      expect(new Set(list.map((record) => record.seededBy))).toEqual(new Set([seeder.id]));
    }
  });

  it('a replica that dies while it seeds frees the prefix: the next one seeds afresh', async (ctx) => {
    const { expect } = ctx;
    const prefix = `replicas-${++prefixes}:`;
    const url = redis?.url ?? '';
    const dying = startReplicaProcess(url);
    // One record, then a long pause before the next: killed then, it never marks.
    dying.open(prefix, { seedCount: 2, seedDelayMs: 60_000, claimLeaseMs: 300 }).catch(() => {});
    const peek = new Redis(url);
    try {
      while ((await peek.hlen(`${prefix}main:r:pets`)) === 0)
        await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      peek.disconnect();
    }
    const next = processes[0]!.open(prefix, { seedCount: 1, claimLeaseMs: 300 });
    await dying.kill();
    const replica = closedAtEnd(ctx, await next);
    expect(replica.loaded).toBe(false);
    expect(await replica.list()).toEqual([{ id: 1, name: 'Seed 0', seededBy: replica.id }]);
  });
});
