// A team's mock on Redis that cannot quietly lose data (issue 30): replicas (the CLI's mock run in
// this process, each with its own connections) on a real redis-server, which is restarted empty,
// frozen, set to evict, or shared with a mock of another spec.
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliWith } from './helpers.js';
import { ownConnections } from './own-connections.js';
import { serveReplica, type InProcessReplica } from './redis/cli-replica.js';
import { startRedisServer, type RedisServer } from './redis/redis-server.js';
import { withRedis } from './redis/with-redis.js';

const LIBRARY = fileURLToPath(new URL('./fixtures/specs/library.yaml', import.meta.url));
const KEY = 'team-key';
const AUTH = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };

interface Replica extends InProcessReplica {
  admin: string;
}

const cleanups: (() => Promise<void> | void)[] = [];
const { closeConnections } = ownConnections();
afterEach(async () => {
  await closeConnections();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function redisServer(): Promise<RedisServer> {
  const redis = await startRedisServer();
  cleanups.push(() => redis.stop());
  return redis;
}

// A stopped Redis is continued first (cleanups run in reverse), or a replica's close would wait on it.
const stopLater = (stop: () => Promise<unknown>) => cleanups.push(async () => void (await stop()));

async function replica(redisUrl: string, prefix: string, args: string[] = []): Promise<Replica> {
  const started = await serveReplica(redisUrl, prefix, KEY, args, stopLater);
  return { ...started, admin: started.url.replace(/\/v1$/, '/__mock') };
}

/** Runs a mock that must refuse to start: its exit code and what it printed. */
async function refused(args: string[]): Promise<{ code: number | null; output: string }> {
  const { out, err, code } = await runCliWith([
    'mock',
    '--port',
    '0',
    '--quiet',
    '--api-key',
    KEY,
    ...args,
  ]);
  return { code, output: (out + err).trim() };
}

async function call(url: string, init: RequestInit = {}) {
  const res = await fetch(url, { ...init, headers: { ...AUTH, ...init.headers } });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const create = (url: string, name: string) =>
  call(`${url}/categories`, { method: 'POST', body: JSON.stringify({ name }) });

describe('Redis restarted empty under running replicas', () => {
  withRedis();

  it('no replica answers 2xx from the lost data; one started later refuses to seed; a reset seeds again for all', async () => {
    const redis = await redisServer();
    const [a, b] = await Promise.all([replica(redis.url, 'team:'), replica(redis.url, 'team:')]);
    expect((await create(a.url, 'Before the restart')).status).toBe(201);

    await redis.kill();
    await redis.start();
    // Once the replicas are connected again, every answer says the data is gone: each
    // reconnects on its own schedule, and until then says it is not connected (and to retry).
    for (const { url } of [a, b])
      await expect
        .poll(async () => String((await call(`${url}/categories`)).body.message), {
          timeout: 15_000,
        })
        .toMatch(/start-up data it served is gone/);
    const answers = await Promise.all(
      [a, b].flatMap(({ url }) => [call(`${url}/categories`), create(url, 'After the restart')]),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ code: 'service_unavailable' });
      expect(String(answer.body.message)).toMatch(/POST \/__mock\/reset.*--redis-reseed/);
    }

    // A replica that joins now does not seed over the prefix others serve.
    const joining = await refused(['--redis', redis.url, '--redis-prefix', 'team:']);
    expect(joining.code).toBe(1);
    expect(joining.output.split('\n')).toHaveLength(1);
    expect(joining.output).toMatch(/start-up data .* is gone.*--redis-reseed/);

    // The explicit act: a reset through one replica seeds again, for every replica.
    const reset = await call(`${b.admin}/reset`, { method: 'POST' });
    expect(reset.status).toBe(204);
    const listed = await call(`${a.url}/categories`);
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(3);
    expect((await call(`${b.url}/categories`)).body).toEqual(listed.body);
    expect((await create(a.url, 'After the reseed')).body).toMatchObject({ id: 4 });
    // Request lines and notices are written buffered: the line comes within a tenth of a second.
    await expect.poll(() => b.output(), { timeout: 10_000 }).toMatch(/a reset seeded it again/);
  });

  it('a replica started with --redis-reseed seeds a lost prefix again, and the running replicas serve it', async () => {
    const redis = await redisServer();
    const a = await replica(redis.url, 'again:');
    await redis.kill();
    await redis.start();
    await expect
      .poll(async () => String((await call(`${a.url}/categories`)).body.message), {
        timeout: 15_000,
      })
      .toMatch(/is gone/);
    const b = await replica(redis.url, 'again:', ['--redis-reseed']);
    await expect
      .poll(() => b.output(), { timeout: 10_000 })
      .toMatch(/was lost: seeding it again \(--redis-reseed\)/);
    const fromA = await call(`${a.url}/categories`);
    expect(fromA.status).toBe(200);
    expect(fromA.body).toHaveLength(3);
    expect((await call(`${b.url}/categories`)).body).toEqual(fromA.body);
  });
});

describe('a Redis that may evict keys', () => {
  withRedis();

  it('is refused at start-up in one line naming the setting, unless --redis-allow-eviction', async () => {
    const redis = await redisServer();
    const client = new Redis(redis.url);
    cleanups.push(() => void client.disconnect());
    await client.config('SET', 'maxmemory-policy', 'allkeys-lru');
    const { code, output } = await refused(['--redis', redis.url]);
    expect(code).toBe(1);
    expect(output.split('\n')).toHaveLength(1);
    expect(output).toMatch(
      /maxmemory-policy is allkeys-lru.*set maxmemory-policy noeviction, or start with --redis-allow-eviction/,
    );
    const allowed = await replica(redis.url, 'evicting:', ['--redis-allow-eviction']);
    expect((await call(`${allowed.url}/categories`)).status).toBe(200);
  });

  it('with noeviction, a full Redis answers 503 and loses nothing acknowledged', async () => {
    const redis = await redisServer();
    const client = new Redis(redis.url);
    cleanups.push(() => void client.disconnect());
    const mock = await replica(redis.url, 'full:');
    const used = Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1]);
    await client.config('SET', 'maxmemory', String(used + 512 * 1024));
    const acknowledged: unknown[] = [];
    let refusal: { status: number; body: Record<string, unknown> } | undefined;
    for (let i = 0; i < 2000 && !refusal; i++) {
      const answer = await create(mock.url, `Category ${i} ${'x'.repeat(400)}`.slice(0, 100));
      if (answer.status === 201) acknowledged.push(answer.body);
      else refusal = answer;
    }
    expect(refusal).toMatchObject({ status: 503, body: { code: 'service_unavailable' } });
    expect(acknowledged.length).toBeGreaterThan(0);
    await client.config('SET', 'maxmemory', '0');
    const listed = await call(`${mock.url}/categories`);
    for (const record of acknowledged) expect(listed.body).toContainEqual(record);
  });
});

describe('two specs on one prefix', () => {
  withRedis();

  it('a mock of another spec is refused in one line naming both', async () => {
    const redis = await redisServer();
    const first = await replica(redis.url, 'shared:');
    const other = await refused([
      '--redis',
      redis.url,
      '--redis-prefix',
      'shared:',
      '--spec',
      LIBRARY,
    ]);
    expect(other.code).toBe(1);
    expect(other.output.split('\n')).toHaveLength(1);
    expect(other.output).toMatch(
      /serves another spec, "[^"]+" \S+ \(sha256 [0-9a-f]{12}\), and this mock's is "[^"]+" \S+ \(sha256 [0-9a-f]{12}\)/,
    );
    // The first mock's data is untouched, and a replica of its own spec still joins.
    expect((await call(`${first.url}/categories`)).body).toHaveLength(3);
    await replica(redis.url, 'shared:');
  });
});

describe('a frozen Redis (SIGSTOP)', () => {
  withRedis();

  it('gives each request, admin calls too, its 503 within 2 s of its arrival', async () => {
    const redis = await redisServer();
    const mock = await replica(redis.url, 'frozen:');
    expect((await create(mock.url, 'Before the freeze')).status).toBe(201);
    const pid = redis.pid!;
    process.kill(pid, 'SIGSTOP');
    cleanups.push(() => void process.kill(pid, 'SIGCONT'));
    const timed = async (url: string, init?: RequestInit) => {
      const started = performance.now();
      const answer = await call(url, init);
      return { ...answer, ms: performance.now() - started };
    };
    // All four at once, each timed from its own arrival: 2 s in all, not 2 s each.
    const answers = await Promise.all([
      timed(`${mock.url}/categories`),
      timed(`${mock.url}/categories`, {
        method: 'POST',
        body: JSON.stringify({ name: 'During the freeze' }),
      }),
      timed(`${mock.admin}/requests`),
      timed(`${mock.admin}/settings`),
    ]);
    process.kill(pid, 'SIGCONT');
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(String(answer.body.message)).toMatch(/did not answer within the request's 1500 ms/);
      // The mock promises 2 s; the rest is room for a busy machine, still under the 6 s of three
      // timeouts (the message above already says the request's budget, not a timeout, ended it).
      expect(answer.ms, JSON.stringify(answers.map(({ ms }) => Math.round(ms)))).toBeLessThan(5000);
    }
    await expect
      .poll(async () => (await call(`${mock.url}/categories`)).status, { timeout: 10_000 })
      .toBe(200);
  });
});
