import { describe, expect, it } from 'vitest';
import { createRequestLog, type AnsweredRequest } from '../src/core/admin/request-log.js';
import { RequestRing } from '../src/core/admin/request-ring.js';
import { LocalSides } from '../src/store/local-side-data.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import { CheckedJson, type CheckedList } from '../src/vocabulary/answer.js';

function logged(path: string, extra: Partial<AnsweredRequest> = {}): AnsweredRequest {
  return { method: 'GET', path, status: 200, durationMs: 1, at: Date.UTC(2026, 0, 1), ...extra };
}

/** A log of its own, in a memory store's side data. */
const logOf = (capacity: number) => createRequestLog(createMemoryStore().sideData(), { capacity });

function shown(list: CheckedList): { count: number; requests: { id: number; path: string }[] } {
  return JSON.parse(list.joined().toString('utf8')) as never;
}

describe('the request log', () => {
  it('numbers requests from 1, keeps the last `capacity`, and a clear does not restart the numbers', async () => {
    const log = logOf(3);
    for (const path of ['/a', '/b', '/c', '/d']) await log.add(logged(path));
    expect(shown(await log.list()).requests.map(({ id, path }) => [id, path])).toEqual([
      [4, '/d'],
      [3, '/c'],
      [2, '/b'],
    ]);
    expect(await log.get(1)).toBeUndefined();
    const second = (await log.get(2)) as CheckedJson;
    expect(JSON.parse(second.bytes.toString('utf8'))).toMatchObject({ id: 2, path: '/b' });

    await log.clear();
    expect(shown(await log.list()).count).toBe(0);
    expect(await log.get(4)).toBeUndefined();
    await log.add(logged('/e'));
    expect(shown(await log.list()).requests.map(({ id, path }) => [id, path])).toEqual([[5, '/e']]);
  });

  it('shows an answer body it keeps by reference, and leaves out the fields a request lacks', async () => {
    const log = logOf(2);
    const answer = {
      status: 201,
      headers: { 'Content-Type': 'application/json' },
      body: new CheckedJson(Buffer.from('{"id":7}')),
    };
    await log.add(
      logged('/pets', { method: 'POST', status: 201, response: answer, session: undefined }),
    );
    const entry = JSON.parse(((await log.get(1)) as CheckedJson).bytes.toString('utf8')) as Record<
      string,
      unknown
    >;
    expect(entry).toMatchObject({
      response: { headers: { 'content-type': 'application/json' }, body: { id: 7 } },
    });
    expect(Object.keys(entry)).not.toContain('session');
    expect(Object.keys(entry)).not.toContain('fault');
  });

  it('shows what a listing matched, numbered as it was, even when requests added while it ran push it out', async () => {
    const capacity = 400;
    const log = logOf(capacity);
    // Bodies slow enough to serialize that the listing lets other work run between slices.
    const body = {
      text: 'x'.repeat(12_000),
      items: Array.from({ length: 300 }, (_, i) => ({ i })),
    };
    for (let i = 1; i <= capacity; i++) await log.add(logged(`/old/${i}`, { body }));
    let turns = 0;
    const pushing = setInterval(() => {
      turns++;
      for (let i = 0; i < capacity; i++) void log.add(logged(`/new/${turns}/${i}`));
    }, 0);
    try {
      const listed = shown(await log.list());
      expect(turns).toBeGreaterThan(0);
      expect(listed.count).toBe(capacity);
      listed.requests.forEach(({ id, path }) => expect(path).toBe(`/old/${id}`));
    } finally {
      clearInterval(pushing);
    }
  });
});

describe('the budget the logs of one mock share (a store of this process)', () => {
  it('tracks about twice its bound at most, however many entries the logs drop or clear themselves', async () => {
    const sides = new LocalSides();
    const bounds = { entries: 50, bytes: 1 << 30 };
    const small = createRequestLog(sides.of(), { capacity: 3, bounds });
    const cleared = createRequestLog(sides.of('alice'), { capacity: 100, bounds });
    for (let i = 0; i < 20_000; i++) {
      await small.add(logged(`/s/${i}`));
      await cleared.add(logged(`/c/${i}`));
      if (i % 7 === 0) await cleared.clear();
    }
    expect(sides.budget.held.entries).toBeLessThanOrEqual(50);
    expect(sides.budget.queued).toBeLessThanOrEqual(2 * 50 + 64 + 2);
  });

  it('counts what a log keeps: a 10 KB body sent counts, one of more than 16 KiB (not kept) does not', async () => {
    const sides = new LocalSides();
    const log = createRequestLog(sides.of(), {
      capacity: 10,
      bounds: { entries: 1000, bytes: 1 << 30 },
    });
    await log.add(logged('/kept', { body: { text: 'x'.repeat(10_000) }, bodyBytes: 10_015 }));
    const kept = sides.budget.held.bytes;
    expect(kept).toBeGreaterThan(10_000);
    await log.add(logged('/noted', { bodyNote: 'The body was 50000 bytes', bodyBytes: 50_000 }));
    expect(sides.budget.held.bytes - kept).toBeLessThan(1000);
    await log.clear();
    expect(sides.budget.held).toEqual({ entries: 0, bytes: 0 });
  });

  it("a dropped scope's log leaves the budget, and its next log numbers from 1", async () => {
    const store = createMemoryStore();
    await store.touchScope('alice');
    const log = createRequestLog(store.sideData('alice'));
    for (const path of ['/a', '/b']) await log.add(logged(path));
    expect(await store.dropScope('alice')).toBe(true);
    const again = createRequestLog(store.sideData('alice'));
    expect(shown(await again.list()).count).toBe(0);
    await again.add(logged('/c'));
    expect(shown(await again.list()).requests.map(({ id }) => id)).toEqual([1]);
  });
});

describe('the ring the log keeps requests in', () => {
  it('gives back each request as it was added, fields it lacked left out, until its slot is reused or cleared', () => {
    const ring = new RequestRing(2);
    const body = new CheckedJson(Buffer.from('{"id":7}'));
    const created: AnsweredRequest = {
      method: 'POST',
      path: '/v1/pets?api_key=secret',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      status: 201,
      durationMs: 1.25,
      at: Date.UTC(2026, 0, 1, 12),
      body: { name: 'Rex' },
      response: { headers: { Location: '/v1/pets/7' }, body },
      session: 'alice',
    };
    const reset: AnsweredRequest = {
      method: 'GET',
      path: '/v1/pets',
      durationMs: 0.5,
      at: Date.UTC(2026, 0, 1, 13),
      fault: 'reset',
      bodyNote: 'A body of 3 bytes of image/png, not kept',
    };
    ring.put(0, 1, created);
    ring.put(1, 2, reset);
    expect(ring.get(0)).toEqual(created);
    expect(ring.get(0)?.response?.body).toBe(body);
    // A fault answers no status and keeps no answer: neither is made up.
    expect(ring.get(1)).toEqual(reset);
    expect(Object.keys(ring.get(1) ?? {})).not.toContain('status');
    expect(Object.keys(ring.get(1) ?? {})).not.toContain('response');
    const big: AnsweredRequest = {
      ...reset,
      status: 200,
      response: { headers: {}, start: Buffer.from('[1,'), bytes: 90_000 },
    };
    delete big.fault;
    ring.put(0, 3, big);
    expect([ring.idAt(0), ring.get(0)]).toEqual([3, big]);
    ring.clear();
    expect([ring.idAt(0), ring.get(0), ring.get(1)]).toEqual([0, undefined, undefined]);
  });
});
