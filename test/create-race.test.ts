// Creates racing for one client-chosen key (issue 30): each store refuses all but one, and the
// mock answers them as the spec says, 409 Conflict, never a 500.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MockOptions } from '../src/wiring/options.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { startRedisServer, type RedisServer } from './redis/redis-server.js';
import { redisLookup, withRedis } from './redis/with-redis.js';
import { KEY } from './helpers.js';
import { tempFolder } from './temp-folders.js';

const SHAPES = fileURLToPath(new URL('./fixtures/specs/real-world.yaml', import.meta.url));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function mock(options: MockOptions = {}): Promise<RunningMock> {
  const running = await startMock({ spec: SHAPES, apiKeys: [KEY], seedCount: 2, ...options });
  cleanups.push(() => running.close());
  return running;
}

/** A request to the running mock with no socket: the race is in the store, not in HTTP. */
const call = (running: RunningMock, path: string, init: RequestInit = {}) =>
  running.mock.fetch(new Request(`${running.url}${path}`, init));

/** 200 creates at once of users with one username: how each was answered. */
async function race(running: RunningMock): Promise<{ status: number; code?: string }[]> {
  return Promise.all(
    Array.from({ length: 200 }, async (_, i) => {
      const res = await call(running, '/users', {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'ada', email: `ada${i}@example.org` }),
      });
      const body = (await res.json()) as { code?: string };
      return { status: res.status, code: body.code };
    }),
  );
}

async function expectOneWinner(running: RunningMock): Promise<void> {
  const answers = await race(running);
  expect(answers.filter(({ status }) => status === 201)).toHaveLength(1);
  const refused = answers.filter(({ status }) => status !== 201);
  expect(refused).toHaveLength(199);
  for (const answer of refused) expect(answer).toEqual({ status: 409, code: 'conflict' });
  const res = await call(running, '/users/ada', {
    headers: { Authorization: `Bearer ${KEY}` },
  });
  expect(res.status).toBe(200);
}

describe('200 concurrent creates with one client-chosen key give one 201 and 199 conflicts', () => {
  it('in memory', async () => {
    await expectOneWinner(await mock());
  });

  it('in a data file', async () => {
    const folder = await tempFolder('race');
    await expectOneWinner(await mock({ data: join(folder, 'data.jsonl') }));
  });

  describe('on Redis', () => {
    withRedis();
    let redis: RedisServer | undefined;
    beforeAll(async () => {
      if (redisLookup.found) redis = await startRedisServer();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it('on Redis', async () => {
      await expectOneWinner(await mock({ redis: redis!.url, redisPrefix: 'race:' }));
    });
  });
});
