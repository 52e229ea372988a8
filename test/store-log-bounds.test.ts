// The request logs of every state of a mock (the default one and each session) are bounded
// together, in entries and in bytes (issue 30, case 5: each session's log grew to 13.5 MB of
// rejected 10 KB bodies on its own), on every store: memory and file (the logs live in the
// process) and Redis (they live in Redis, shared by the replicas).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LogBounds } from '../src/core/admin/log-budget.js';
import type { AnsweredRequest } from '../src/core/admin/request-log.js';
import { DEFAULT_SCENARIO_SETTINGS } from '../src/core/scenarios/settings.js';
import { createStates, type MockState } from '../src/core/state.js';
import { openFileStore } from '../src/store/file-store.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import { openRedisStore } from '../src/store/redis-store.js';
import type { Store } from '../src/store/store.js';
import type { CheckedList } from '../src/vocabulary/answer.js';
import { startRedisServer, type RedisServer } from './redis/redis-server.js';
import { redisLookup, withRedis } from './redis/with-redis.js';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const SESSIONS = ['w1', 'w2', 'w3', 'w4'];

async function statesOn(store: Store, logBounds: LogBounds) {
  const states = createStates({
    store,
    scenarios: DEFAULT_SCENARIO_SETTINGS,
    seed: 1,
    limits: { maxSessions: 10, sessionTtl: 3_600_000 },
    logBounds,
  });
  const all: MockState[] = [states.default];
  for (const session of SESSIONS) all.push(await states.session(session));
  return { states, all };
}

/** A request the spec refused, its body kept by the log. */
function rejected(path: string, bodyBytes: number, session?: string): AnsweredRequest {
  return {
    method: 'POST',
    path,
    status: 400,
    durationMs: 1,
    at: Date.now(),
    body: { description: 'y'.repeat(bodyBytes - 20) },
    bodyBytes,
    ...(session === undefined ? {} : { session }),
  };
}

async function shown(state: MockState): Promise<{ id: number; path: string }[]> {
  const list = (await state.requestLog.list({ view: 'summary' })) as CheckedList;
  return (
    JSON.parse(list.joined().toString('utf8')) as { requests: { id: number; path: string }[] }
  ).requests;
}

async function heldByAll(all: MockState[]): Promise<number> {
  let held = 0;
  for (const state of all) held += (await shown(state)).length;
  return held;
}

function rules(open: () => Promise<Store>) {
  it('holds at most the bound in entries, all states together, the oldest of any state going first', async () => {
    const { all } = await statesOn(await open(), { entries: 50, bytes: 1 << 30 });
    for (let round = 0; round < 40; round++)
      for (const [index, state] of all.entries())
        await state.requestLog.add(rejected(`/r/${index}/${round}`, 100, state.session));
    expect(await heldByAll(all)).toBe(50);
    // The newest fifty: the last ten rounds of every state, numbered as they were added.
    for (const [index, state] of all.entries()) {
      const entries = await shown(state);
      expect(entries.map(({ path }) => path)).toEqual(
        Array.from({ length: 10 }, (_, i) => `/r/${index}/${39 - i}`),
      );
      expect(entries[0]?.id).toBe(40);
    }
  });

  it('holds at most the bound in bytes: rejected 10 KB bodies from five states', async () => {
    const bytes = 100_000;
    const { all } = await statesOn(await open(), { entries: 5000, bytes });
    for (let round = 0; round < 30; round++)
      for (const state of all)
        await state.requestLog.add(rejected(`/r/${round}`, 10_000, state.session));
    const held = await heldByAll(all);
    expect(held).toBeLessThanOrEqual(Math.floor(bytes / 10_000));
    expect(held).toBeGreaterThanOrEqual(Math.floor(bytes / 11_000));
  });

  it("a cleared log, or a dropped session's, makes room for the others", async () => {
    const { states, all } = await statesOn(await open(), { entries: 20, bytes: 1 << 30 });
    for (let round = 0; round < 4; round++)
      for (const state of all)
        await state.requestLog.add(rejected(`/r/${round}`, 100, state.session));
    expect(await heldByAll(all)).toBe(20);
    await states.drop('w1');
    await all[0]?.requestLog.clear();
    const [, , w2] = all as [MockState, MockState, MockState];
    for (let round = 4; round < 12; round++)
      await w2.requestLog.add(rejected(`/r/${round}`, 100, 'w2'));
    // Twelve left by the others (w1's four and the default state's four went), and w2's eight.
    expect((await shown(w2)).length).toBe(12);
    expect(await heldByAll([all[0] as MockState, ...all.slice(2)])).toBe(20);
  });
}

describe('the request logs of every state, bounded together: memory store', () => {
  rules(async () => createMemoryStore());
});

describe('the request logs of every state, bounded together: file store', () => {
  rules(async () => {
    const folder = await mkdtemp(join(tmpdir(), 'petstore-log-bounds-'));
    const store = await openFileStore(join(folder, 'data.jsonl'));
    cleanups.push(async () => {
      await store.close();
      await rm(folder, { recursive: true, force: true });
    });
    return store;
  });
});

describe('the request logs of every state, bounded together: Redis store', () => {
  withRedis();
  let redis: RedisServer | undefined;
  let prefixes = 0;
  beforeAll(async () => {
    if (redisLookup.found) redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  const open = async () => {
    const store = await openRedisStore(redis?.url ?? 'redis://redis-not-started', {
      prefix: `log-bounds-${++prefixes}:`,
    });
    cleanups.push(() => store.close());
    await store.markInitial();
    return store;
  };
  rules(open);

  it('keeps the order of every entry in about twice the bound at most, however often logs are cleared', async () => {
    const store = await open();
    // Never past the bound: nothing is dropped for it, only cleared.
    const { all } = await statesOn(store, { entries: 1000, bytes: 1 << 30 });
    for (let round = 0; round < 60; round++) {
      for (const state of all)
        await state.requestLog.add(rejected(`/r/${round}`, 50, state.session));
      if (round % 3 === 2) for (const state of all) await state.requestLog.clear();
    }
    const client = new Redis(redis?.url ?? '');
    try {
      const order = await client.llen(`${store.prefix}log:order`);
      const totals = await client.hgetall(`${store.prefix}log:totals`);
      expect(order).toBeLessThanOrEqual(2 * 15 + 64 + 1);
      expect(Number(totals.entries)).toBe(await heldByAll(all));
    } finally {
      client.disconnect();
    }
  });
});
