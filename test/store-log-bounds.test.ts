// The request logs of every state of a mock (the default one and each session) are bounded
// together, in entries and in bytes (issue 30, case 5: each session's log grew to 13.5 MB of
// rejected 10 KB bodies on its own), on every store: memory and file (the logs live in the
// process) and Redis (they live in Redis, shared by the replicas).
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnsweredRequest, LogBounds } from '../src/core/admin/request-log.js';
import { DEFAULT_SCENARIO_SETTINGS } from '../src/core/scenarios/settings.js';
import { createStates, type MockState } from '../src/core/state.js';
import { openRedisStore, type RedisStore } from '../src/store/redis-store.js';
import type { StateBackend } from '../src/store/store.js';
import type { CheckedList } from '../src/vocabulary/answer.js';
import { MOCK_OPTIONS } from '../src/wiring/option-table.js';
import { resolveOptions, validateOptions } from '../src/wiring/options.js';
import { AUTH, KEY } from './helpers.js';
import { onEveryStore } from './store-kinds.js';
import { inProcessMock, type InProcessMock } from './in-process.js';

const SESSIONS = ['w1', 'w2', 'w3', 'w4'];

async function statesOn(store: StateBackend, logBounds: LogBounds) {
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

onEveryStore('the request logs of every state, bounded together', ({ name, open, redisUrl }) => {
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

  it('clears a log that holds nothing (the first request a mock gets may be a reset)', async () => {
    const { all } = await statesOn(await open(), { entries: 20, bytes: 1 << 30 });
    await all[0]?.requestLog.clear();
    await all[0]?.requestLog.add(rejected('/after', 100));
    expect((await shown(all[0] as MockState)).map(({ path }) => path)).toEqual(['/after']);
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

  it.runIf(name === 'Redis store')(
    'a session dropped through another replica, then used again here, lists what it holds now',
    async () => {
      const store = (await open()) as RedisStore;
      const other = await openRedisStore(redisUrl() ?? '', { prefix: store.prefix });
      try {
        const bounds = { entries: 100, bytes: 1 << 30 };
        const here = (await statesOn(store, bounds)).states;
        const there = (await statesOn(other, bounds)).states;
        const w1 = await here.session('w1');
        await w1.requestLog.add(rejected('/before', 100, 'w1'));
        expect((await shown(w1)).map(({ path }) => path)).toEqual(['/before']);
        expect(await there.drop('w1')).toBe(true);
        await w1.requestLog.add(rejected('/after', 100, 'w1'));
        expect((await shown(w1)).map(({ path }) => path)).toEqual(['/after']);
      } finally {
        await other.close();
      }
    },
  );

  it.runIf(name === 'Redis store')(
    'keeps the order of every entry in about twice the bound at most, however often logs are cleared',
    async () => {
      const store = (await open()) as RedisStore;
      // Never past the bound: nothing is dropped for it, only cleared.
      const { all } = await statesOn(store, { entries: 1000, bytes: 1 << 30 });
      for (let round = 0; round < 60; round++) {
        for (const state of all)
          await state.requestLog.add(rejected(`/r/${round}`, 50, state.session));
        if (round % 3 === 2) for (const state of all) await state.requestLog.clear();
      }
      const client = new Redis(redisUrl() ?? '');
      try {
        const order = await client.llen(`${store.prefix}log:order`);
        const totals = await client.hgetall(`${store.prefix}log:totals`);
        expect(order).toBeLessThanOrEqual(2 * 15 + 64 + 1);
        expect(Number(totals.entries)).toBe(await heldByAll(all));
      } finally {
        client.disconnect();
      }
    },
  );
});

describe('the bound of the request logs, as options', () => {
  const running: InProcessMock[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((mock) => mock.close()));
  });

  it('maxLogEntries bounds every state together: 3 entries, whichever session sent the requests', async () => {
    const mock = await inProcessMock({ apiKeys: [KEY], maxLogEntries: 3 });
    running.push(mock);
    for (const session of [undefined, 'w1', 'w2', undefined, 'w1'])
      expect(
        (
          await mock.fetch(`${mock.url}/categories`, {
            headers: { ...AUTH, ...(session ? { 'Mock-Session': session } : {}) },
          })
        ).status,
      ).toBe(200);
    const admin = mock.url.replace(/\/v1$/, '/__mock');
    let held = 0;
    for (const session of [undefined, 'w1', 'w2']) {
      const res = await mock.fetch(`${admin}/requests`, {
        headers: { ...AUTH, ...(session ? { 'Mock-Session': session } : {}) },
      });
      held += ((await res.json()) as { count: number }).count;
    }
    expect(held).toBe(3);
  });

  it.each([
    { maxLogEntries: 0 },
    { maxLogEntries: 2.5 },
    { maxLogSize: -1 },
    { maxLogSize: 'lots' },
  ])('refuses %o in one line: invalid_option', (options) => {
    expect(() => validateOptions(options)).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });

  it('takes its bounds from MAX_LOG_ENTRIES and MAX_LOG_SIZE, and sizes like 4mb', () => {
    const flags = MOCK_OPTIONS.maxLogEntries.flags?.[0];
    expect(flags?.env).toBe('MAX_LOG_ENTRIES');
    expect(MOCK_OPTIONS.maxLogSize.flags?.[0]?.env).toBe('MAX_LOG_SIZE');
    expect(resolveOptions({ maxLogSize: '4mb' as never })).toMatchObject({
      maxLogEntries: 5000,
      maxLogSize: 4 * 1024 * 1024,
    });
  });
});
