// A serializer checks each stored record once and remembers what it showed of the lists it
// sent whole by position, not by a map from every text (issue 28): what it skips must still be
// right, a record never checked must be checked wherever it appears, and a page or a filtered
// list between two whole lists must not make the whole list be checked again.
import { describe, expect, it } from 'vitest';
import type { SchemaObject } from '../src/openapi/load.js';
import type { SchemaCompiler } from '../src/openapi/schemas.js';
import { createRecordSerializers } from '../src/core/resources/record-serializer.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp } from '../src/wiring/create-app.js';
import { TextArray } from '../src/vocabulary/texts.js';
import { AUTH, KEY } from './helpers.js';

/** A compiler whose response check counts the records it checks and refuses `bad: true`. */
function countingCompiler(): { compiler: SchemaCompiler; checked: () => number } {
  let count = 0;
  const response = () => (value: unknown, where?: string) => {
    count++;
    return (value as { bad?: boolean }).bad ? [`${where ?? ''} is bad`] : [];
  };
  const compiler = { response } as unknown as SchemaCompiler;
  return { compiler, checked: () => count };
}

const open: SchemaObject = { type: 'object' };
const texts = (ids: readonly number[]) => ids.map((id) => JSON.stringify({ id, name: `n${id}` }));
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

function show(serializer: ReturnType<ReturnType<typeof createRecordSerializers>>, list: string[]) {
  // undefined: shown as stored.
  const shown = serializer.texts(new TextArray(list));
  return list.map((json, index) => shown(index) ?? json);
}

describe('what a serializer remembers of the lists it sent', () => {
  it('checks only the records a list holds that the last whole list did not', () => {
    const { compiler, checked } = countingCompiler();
    const serializer = createRecordSerializers(compiler)(open);
    const first = texts(range(1, 1001));
    expect(show(serializer, first)).toEqual(first);
    expect(checked()).toBe(1000);
    // Three deletes here and there, one record replaced in its place, two created at the end.
    const second = first.filter((_, i) => i !== 10 && i !== 500 && i !== 501);
    second[700] = JSON.stringify({ id: 704, name: 'changed' });
    second.push(...texts([1001, 1002]));
    expect(show(serializer, second)).toEqual(second);
    expect(checked()).toBe(1000 + 3);
  });

  it('a page or a filtered list between two whole lists leaves the whole list remembered', () => {
    const { compiler, checked } = countingCompiler();
    const serializer = createRecordSerializers(compiler)(open);
    const whole = texts(range(1, 2001));
    show(serializer, whole);
    show(serializer, whole.slice(1500, 1520));
    show(
      serializer,
      whole.filter((_, i) => i % 100 === 0),
    );
    const after = checked();
    show(serializer, [...whole, ...texts([2001])]);
    expect(checked() - after).toBe(1);
  });

  it('a record that breaks the schema is refused in every list it is in, wherever it stands', () => {
    const { compiler } = countingCompiler();
    const serializer = createRecordSerializers(compiler)(open);
    const list = texts(range(1, 101));
    show(serializer, list);
    const bad = JSON.stringify({ id: 50, name: 'n50', bad: true });
    const broken = [...list];
    broken[49] = bad;
    expect(() => show(serializer, broken)).toThrow(/\/response\/49 is bad/);
    // Not remembered as shown: the next list with it is refused again, at its new place.
    expect(() => show(serializer, [bad, ...list])).toThrow(/\/response\/0 is bad/);
    expect(show(serializer, list)).toEqual(list);
  });

  it('a record shown through a closed schema is shown the same when remembered', () => {
    const { compiler, checked } = countingCompiler();
    const closed: SchemaObject = {
      type: 'object',
      properties: { id: { type: 'integer' } },
      additionalProperties: false,
    };
    const serializer = createRecordSerializers(compiler)(closed);
    const list = texts(range(1, 11));
    const shown = range(1, 11).map((id) => JSON.stringify({ id }));
    expect(show(serializer, list)).toEqual(shown);
    const before = checked();
    expect(show(serializer, [...list.slice(1), ...texts([11])])).toEqual([
      ...shown.slice(1),
      '{"id":11}',
    ]);
    expect(checked() - before).toBe(1);
  });
});

describe('a whole list of a collection no write has changed', () => {
  it('is the list checked last time, not checked again: a new one only after a write', async () => {
    const { mock } = createApp({ spec: await loadSpec(), apiKeys: [KEY] });
    const headers = AUTH;
    const create = (name: string) =>
      mock.handle({
        method: 'POST',
        target: '/v1/categories',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
    // More than a short list, which is checked at once by another path.
    for (let i = 0; i < 300; i++) expect((await create(`c${i}`)).answer?.status).toBe(201);
    const list = async () =>
      (await mock.handle({ method: 'GET', target: '/v1/categories', headers })).answer?.body;
    const first = await list();
    // The same checked bytes: every record of it was neither compared nor checked again
    // (each list used to be checked whole, 6 times slower at 20,000 records).
    expect(await list()).toBe(first);
    await create('one more');
    const after = await list();
    expect(after).not.toBe(first);
    expect(await list()).toBe(after);
  });
});
