// Records are kept once, as their JSON text, and a whole list is sent from those texts: a
// record costs about twice its JSON, not 6.4 times, and lists stay checked and true (issue 28).
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../src/store/memory-store.js';
import { AUTH, editedSpec } from './helpers.js';
import { ownConnections } from './own-connections.js';
import { closeAll, serve } from './server-helpers.js';

const { closeConnections } = ownConnections();

// The test's own keep-alive connections closed first: the stop has no idle grace to wait out.
afterEach(async () => {
  await closeConnections();
  await closeAll();
});

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heap(): number {
  gc();
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/** Categories of about 120 bytes of JSON each, as the issue's. */
function categories(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `Category ${i}`,
    description: `A category of the lean records test, number ${i}, about 120 bytes long.`,
  }));
}

async function list(origin: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${origin}/v1/categories`, { headers: AUTH });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>[];
}

/** Heap bytes a stored and listed record costs, and bytes of JSON it lists as, over `count`. */
async function recordCost(count: number): Promise<{ perRecord: number; jsonPerRecord: number }> {
  const store = createMemoryStore();
  const mock = await serve({ store });
  const collection = store.collection({
    name: 'categories',
    idProperty: 'id',
    idKind: 'integer',
  });
  let input: Record<string, unknown>[] | undefined = categories(count);
  await list(mock.origin);
  const before = heap();
  for (const fields of input) await collection.create(fields);
  input = undefined;
  // Listed twice: what the answers remember of the records counts too.
  const jsonBytes = JSON.stringify(await list(mock.origin)).length;
  await list(mock.origin);
  return { perRecord: (heap() - before) / count, jsonPerRecord: jsonBytes / count };
}

describe('lean records', () => {
  it('a stored and listed record costs at most about twice its JSON', async () => {
    // The lower of two rounds: in a whole run the worker holds other files' modules, and what
    // they leave running can allocate during one round (4.6 times its JSON once, 2.2 alone).
    const rounds = [await recordCost(20_000), await recordCost(20_000)];
    const { perRecord, jsonPerRecord } = rounds.reduce((low, round) =>
      round.perRecord / round.jsonPerRecord < low.perRecord / low.jsonPerRecord ? round : low,
    );
    // Kept as objects with a cached buffer each, a record took 5 times its JSON here (6.4 in
    // RSS, the issue); as text, 1.9 to 2.4 times. 3 leaves room for the collector's timing.
    const shown = `${Math.round(perRecord)} B of heap a record for ${Math.round(jsonPerRecord)} B of JSON`;
    expect(perRecord / jsonPerRecord, shown).toBeLessThan(3);
  }, 60_000);

  it('a list shows every record, those created after an earlier list included, in order', async () => {
    const store = createMemoryStore();
    const mock = await serve({ store });
    const before = await list(mock.origin);
    const created = await fetch(`${mock.origin}/v1/categories`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ferret', description: 'Ferrets, polecats' }),
    });
    expect(created.status).toBe(201);
    const after = await list(mock.origin);
    expect(after).toEqual([...before, await created.json()]);
  });

  it('a stored record that breaks the list schema still turns the list into a 500 naming it', async () => {
    const store = createMemoryStore({
      initial: {
        categories: [
          { id: 1, name: 'Dog' },
          { id: 2, description: 'no name' },
        ],
      },
    });
    const mock = await serve({ store });
    const res = await fetch(`${mock.origin}/v1/categories`, { headers: AUTH });
    expect(res.status).toBe(500);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe('invalid_response');
    expect(body.message).toMatch(/\/response\/1/);
  });

  it('a list shows each record as its schema does: a closed schema hides what it does not declare', async () => {
    const spec = await editedSpec((document) => {
      const schemas = document.components?.schemas as Record<string, Record<string, unknown>>;
      (schemas.NewCategory as Record<string, unknown>).additionalProperties = false;
    });
    const store = createMemoryStore({
      initial: { categories: [{ id: 1, name: 'Dog', secret: 'kept in the store' }] },
    });
    const mock = await serve({ spec, store });
    expect(await list(mock.origin)).toEqual([{ id: 1, name: 'Dog' }]);
    // Twice: what the serializer remembers is the shown text, not the stored one.
    expect(await list(mock.origin)).toEqual([{ id: 1, name: 'Dog' }]);
  });
});
