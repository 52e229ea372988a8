// Stores keep each record as its JSON text and hand out records that carry that text (issue 28):
// whatever sequence of creates, replaces, updates and deletes a client makes, what a store
// answers (one record, the list, the texts a list is sent from, a record's JSON) is what a
// plain Map given the same writes holds, in the same order; and a data file written in the
// format of earlier versions loads as it was.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openFileStore } from '../src/store/file-store.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import { jsonOf } from '../src/store/records.js';
import type { Collection, StateBackend, StoredRecord } from '../src/store/store.js';
import { CATEGORIES } from './helpers.js';
import { tempFolder } from './temp-folders.js';

function folder(): Promise<string> {
  return tempFolder('lean');
}

type Fields = Record<string, unknown>;
type Step =
  | { kind: 'create'; fields: Fields }
  | { kind: 'create at'; id: number; fields: Fields }
  | { kind: 'replace'; pick: number; fields: Fields }
  | { kind: 'update'; pick: number; fields: Fields }
  | { kind: 'delete'; pick: number }
  | { kind: 'read two'; first: number; second: number };

const value = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);
// Names a client may send, `__proto__` and the id among them (a stale id is dropped).
const name = fc.constantFrom('name', 'description', 'tags', 'é', '__proto__', 'id', 'n');
const fields = fc.dictionary(name, value, { maxKeys: 4 });
const pick = fc.nat({ max: 50 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fields.map((f) => ({ kind: 'create' as const, fields: f })),
  fc.record({
    kind: fc.constant('create at' as const),
    id: fc.integer({ min: 1, max: 40 }),
    fields,
  }),
  fc.record({ kind: fc.constant('replace' as const), pick, fields }),
  fc.record({ kind: fc.constant('update' as const), pick, fields }),
  fc.record({ kind: fc.constant('delete' as const), pick }),
  fc.record({ kind: fc.constant('read two' as const), first: pick, second: pick }),
);

/** The record as the store must keep it: the id first, then the fields but a stale id. */
function stored(id: number, given: Fields): Fields {
  const record: Fields = { id };
  for (const [key, inner] of Object.entries(given))
    if (key !== 'id')
      Object.defineProperty(record, key, {
        value: inner,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  return record;
}

/** Runs the steps on the collection and on a Map, checking each answer against the Map. */
async function replay(
  collection: Collection,
  steps: readonly Step[],
  start: Model = { records: new Map(), lastId: 0 },
): Promise<Model> {
  const model = new Map(start.records);
  let lastId = start.lastId;
  const idAt = (at: number): number => [...model.keys()][at % Math.max(1, model.size)] ?? at + 1;
  const same = (record: StoredRecord | undefined, expected: Fields | undefined) => {
    expect(record === undefined ? undefined : JSON.parse(JSON.stringify(record))).toEqual(
      expected === undefined ? undefined : JSON.parse(JSON.stringify(expected)),
    );
    // The JSON a record carries is its own, whatever was read or made since.
    if (record) expect(jsonOf(record)).toBe(JSON.stringify(record));
  };
  for (const s of steps) {
    switch (s.kind) {
      case 'create': {
        const record = await collection.create(s.fields);
        lastId += 1;
        model.set(lastId, stored(lastId, s.fields));
        same(record, model.get(lastId));
        break;
      }
      case 'create at': {
        if (model.has(s.id)) {
          await expect(collection.create(s.fields, s.id)).rejects.toThrow();
          break;
        }
        same(await collection.create(s.fields, s.id), stored(s.id, s.fields));
        model.set(s.id, stored(s.id, s.fields));
        lastId = Math.max(lastId, s.id);
        break;
      }
      case 'replace':
      case 'update': {
        const id = idAt(s.pick);
        const before = model.get(id);
        const record = await collection.update(id, (current) =>
          s.kind === 'replace' ? s.fields : { ...current, ...s.fields },
        );
        if (!before) {
          expect(record).toBeUndefined();
          break;
        }
        const after = stored(id, s.kind === 'replace' ? s.fields : { ...before, ...s.fields });
        model.set(id, after);
        same(record, after);
        break;
      }
      case 'delete': {
        const id = idAt(s.pick);
        expect(await collection.remove(id)).toBe(model.delete(id));
        break;
      }
      case 'read two': {
        const first = await collection.get(idAt(s.first));
        const second = await collection.get(idAt(s.second));
        same(first, model.get(idAt(s.first)));
        same(second, model.get(idAt(s.second)));
        break;
      }
    }
    const expected = JSON.parse(JSON.stringify([...model.values()])) as unknown;
    expect(JSON.parse(JSON.stringify(await collection.list()))).toEqual(expected);
    const texts = await collection.texts?.();
    if (texts) expect(texts.map((json) => JSON.parse(json) as unknown)).toEqual(expected);
  }
  return { records: model, lastId };
}

interface Model {
  records: Map<number, Fields>;
  lastId: number;
}

const steps = fc.array(step, { minLength: 1, maxLength: 40 });

describe('stores against a plain Map of the same writes', () => {
  it('the memory store answers every read as the Map holds it, and its copies are left alone', async () => {
    await fc.assert(
      fc.asyncProperty(steps, steps, async (first, second) => {
        const store = createMemoryStore();
        const model = await replay(store.collection(CATEGORIES), first);
        // A scope starts as a copy of the mark; writes to it leave the main state as it was.
        await store.markInitial();
        await replay(store.scope('other').collection(CATEGORIES), second, model);
        const main = await store.collection(CATEGORIES).list();
        expect(JSON.parse(JSON.stringify(main))).toEqual(
          JSON.parse(JSON.stringify([...model.records.values()])),
        );
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('the file store answers as the Map holds it, and again after it is opened anew', async () => {
    const dir = await folder();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(steps, async (written) => {
        const path = join(dir, `data-${run++}.jsonl`);
        const store: StateBackend = await openFileStore(path);
        let model: Model;
        try {
          model = await replay(store.collection(CATEGORIES), written);
        } finally {
          await store.close();
        }
        const reopened = await openFileStore(path);
        try {
          const list = await reopened.collection(CATEGORIES).list();
          expect(JSON.parse(JSON.stringify(list))).toEqual(
            JSON.parse(JSON.stringify([...model.records.values()])),
          );
        } finally {
          await reopened.close();
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});

describe('the data file format', () => {
  it('a file written by earlier versions loads with its records, order and counter', async () => {
    // Written byte for byte as version 1 of the format writes it (decisions/003-data-file.md).
    const path = join(await folder(), 'data.jsonl');
    await writeFile(
      path,
      [
        '{"format":"petstore-kit-data","version":1}',
        '{"op":"put","collection":"categories","id":1,"record":{"id":1,"name":"Dog"}}',
        '{"op":"put","collection":"categories","id":2,"record":{"id":2,"name":"Cat","tags":["a"]}}',
        '{"op":"put","collection":"categories","id":3,"record":{"id":3,"name":"Émeu"}}',
        '{"op":"put","collection":"categories","id":1,"record":{"id":1,"name":"Dogs"}}',
        '{"op":"delete","collection":"categories","id":2}',
        '{"op":"counter","collection":"categories","lastId":9}',
        '',
      ].join('\n'),
    );
    const store = await openFileStore(path);
    try {
      const categories = store.collection(CATEGORIES);
      expect(await categories.list()).toEqual([
        { id: 1, name: 'Dogs' },
        { id: 3, name: 'Émeu' },
      ]);
      expect(await categories.texts?.()).toEqual([
        '{"id":1,"name":"Dogs"}',
        '{"id":3,"name":"Émeu"}',
      ]);
      expect(await categories.create({ name: 'Next' })).toEqual({ id: 10, name: 'Next' });
    } finally {
      await store.close();
    }
  });
});
