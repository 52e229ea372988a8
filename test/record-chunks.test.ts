// A collection's records kept as bytes in shared chunks (issue 28) must read back exactly what
// was written, in order, whatever came between: replaces, deletes, copies (snapshots, sessions,
// reset marks) written to on both sides, lists taken before a write, and compactions.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../src/store/memory-store.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { AUTH, KEY, QUICK_SHUTDOWN } from './helpers.js';
import { RecordArena } from '../src/store/record-arena.js';
import type { Texts } from '../src/vocabulary/texts.js';
import { CheckedList } from '../src/vocabulary/answer.js';

type Id = number | string;

/** What an arena must hold: a plain Map of the same writes (a set keeps a record's place). */
type Model = Map<Id, string>;

/** A record's JSON, of any size (one larger than a chunk included) and any characters. */
const json = fc
  .record({
    name: fc.string({ unit: 'grapheme', maxLength: 12 }),
    pad: fc.nat({ max: 40_000 }).map((n) => (n > 36_000 ? 'x'.repeat(n) : 'é'.repeat(n % 200))),
  })
  .map((fields) => JSON.stringify(fields));

// Integer ids are found in a typed array once dense enough, others in a map: ids of each kind,
// ones the array grows to reach later (2050 before 2060) and ones it never reaches among them.
const id = fc.oneof(
  fc.integer({ min: 1, max: 30 }),
  fc.constantFrom('a', 'b', 'c', 'ü'),
  fc.constantFrom(0, -1, 2.5, 1500, 2050, 2060, 2100, 1e12),
);

const step = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), id, json }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), id }) },
  // A snapshot (or a session, or a reset mark): a copy, written to from then on as its own.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('copy' as const) }) },
  // A reset: the current state becomes a copy of one taken before.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reset' as const), pick: fc.nat() }) },
  // Write to another copy than the current one for a while.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('switch' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compact' as const) }) },
  // A list taken now: what it holds must not move, whatever is written after.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('list' as const) }) },
  // Everything read back now (a read lends the slots to a list: not after every step).
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('check' as const) }) },
);

function read(texts: Texts): string[] {
  return Array.from({ length: texts.length }, (_, i) => texts.at(i));
}

function expectSame(arena: RecordArena, model: Model): void {
  expect([...arena.keys()]).toEqual([...model.keys()]);
  expect([...arena.values()]).toEqual([...model.values()]);
  expect(arena.size).toBe(model.size);
  let bytes = 0;
  for (const [key, text] of model) {
    expect(arena.get(key)).toBe(text);
    expect(arena.byteLengthOf(key)).toBe(Buffer.byteLength(text));
    bytes += Buffer.byteLength(text);
  }
  expect(arena.byteLength).toBe(bytes);
  const texts = arena.texts();
  expect(read(texts)).toEqual([...model.values()]);
  expect(texts.byteLength).toBe(bytes);
  // Sent as a list, byte for byte the JSON array of the texts.
  expect(new CheckedList(texts).joined().toString()).toBe(`[${[...model.values()].join(',')}]`);
}

describe('a collection kept as bytes in shared chunks', () => {
  it('reads back what a Map of the same writes holds, in order, in every copy and list', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 120, size: 'max' }), (steps) => {
        const states: { arena: RecordArena; model: Model }[] = [
          { arena: new RecordArena(), model: new Map() },
        ];
        let current = 0;
        const lists: { texts: Texts; expected: string[] }[] = [];
        for (const s of steps) {
          const state = states[current]!;
          switch (s.kind) {
            case 'set':
              state.arena.set(s.id, s.json);
              state.model.set(s.id, s.json);
              break;
            case 'delete':
              expect(state.arena.delete(s.id)).toBe(state.model.delete(s.id));
              break;
            case 'copy':
              states.push({ arena: state.arena.copy(), model: new Map(state.model) });
              break;
            case 'reset': {
              const mark = states[s.pick % states.length]!;
              states[current] = { arena: mark.arena.copy(), model: new Map(mark.model) };
              break;
            }
            case 'switch':
              current = s.pick % states.length;
              break;
            case 'compact':
              state.arena.compact();
              break;
            case 'list':
              lists.push({ texts: state.arena.texts(), expected: [...state.model.values()] });
              break;
            case 'check':
              expectSame(state.arena, state.model);
              break;
          }
        }
        for (const { arena, model } of states) expectSame(arena, model);
        for (const { texts, expected } of lists) expect(read(texts)).toEqual(expected);
      }),
      { numRuns: 120 },
    );
  });

  it('compacts by itself once replaced records outweigh the live ones, keeping every record', () => {
    const arena = new RecordArena();
    const model: Model = new Map();
    const before = arena.texts();
    // 1,000 records replaced 20 times each: 20 times more dead bytes than live ones.
    for (let round = 0; round < 20; round++)
      for (let key = 1; key <= 1000; key++) {
        const text = JSON.stringify({ id: key, round, pad: 'p'.repeat(100) });
        arena.set(key, text);
        model.set(key, text);
      }
    expectSame(arena, model);
    // What it holds is the live records and at most as many dead bytes (and a chunk's slack).
    const texts = arena.texts() as unknown as { chunks: readonly Buffer[] };
    const held = texts.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    expect(held).toBeLessThan(2 * arena.byteLength + 2 * 1024 * 1024);
    expect(read(before)).toEqual([]);
  });

  it('two copies of one state written to on both sides never see each other’s records', () => {
    const base = new RecordArena();
    base.set(1, '{"id":1}');
    const copy = base.copy();
    base.set(2, '{"id":2,"side":"base"}');
    copy.set(2, '{"id":2,"side":"copy"}');
    copy.set(1, '{"id":1,"changed":true}');
    expect([...base.values()]).toEqual(['{"id":1}', '{"id":2,"side":"base"}']);
    expect([...copy.values()]).toEqual(['{"id":1,"changed":true}', '{"id":2,"side":"copy"}']);
  });

  it('refuses an empty text, which no record is', () => {
    expect(() => new RecordArena().set(1, '')).toThrow(TypeError);
  });
});

describe('a list sent from the bytes the store keeps', () => {
  const started: RunningMock[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((mock) => mock.close()));
  });

  it('arrives whole over HTTP, every character and every record in place, large ones too', async () => {
    // Records in many chunks, characters of 2 to 4 bytes, and one record larger than a write.
    const initial = Array.from({ length: 3000 }, (_, i) => ({
      id: i + 1,
      name: `Émeu ${i} 🐦`,
      description: i === 1500 ? 'ü'.repeat(100_000) : `a category, ${'ß'.repeat(i % 300)}`,
    }));
    const store = createMemoryStore({ initial: { categories: initial } });
    const mock = await startMock({ ...QUICK_SHUTDOWN, apiKeys: [KEY], store, seedCount: 0 });
    started.push(mock);
    const list = async () => {
      const res = await fetch(`${mock.url}/categories`, { headers: AUTH });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
      return JSON.parse(text) as unknown[];
    };
    expect(await list()).toEqual(initial);
    const made = await fetch(`${mock.url}/categories`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ñandú' }),
    });
    expect(made.status).toBe(201);
    expect(await list()).toEqual([...initial, await made.json()]);
  });
});
