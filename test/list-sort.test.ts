// A list's sort parameter, read from its enum: `-name` and `name:desc` forms alike.
import { describe, expect, it } from 'vitest';
import { selectPage } from '../src/core/resources/list-page.js';
import { listParametersOf } from '../src/openapi/list-parameters.js';
import type { SchemaObject } from '../src/openapi/load.js';
import type { Operation } from '../src/openapi/operations.js';
import type { StoredRecord } from '../src/store/store.js';

const PROPERTIES: Readonly<Record<string, SchemaObject>> = {
  id: { type: 'integer' },
  createdAt: { type: 'string' },
  title: { type: 'string' },
};

function listing(values: string[]) {
  const operation = {
    parameters: [
      { name: 'sort_by', in: 'query', required: false, schema: { type: 'string', enum: values } },
    ],
  } as unknown as Operation;
  return listParametersOf(operation, PROPERTIES);
}

const RECORDS: StoredRecord[] = [
  { id: 1, createdAt: '2026-01-02', title: 'b' },
  { id: 2, createdAt: '2026-01-01', title: 'c' },
  { id: 3, createdAt: '2026-01-03', title: 'a' },
];
const READ = {
  fieldsOf: (one: StoredRecord) => one,
  keyOf: (one: Readonly<Record<string, unknown>>) => one.id as number,
};
const ids = (query: Record<string, unknown>, values: string[]) =>
  selectPage(RECORDS, query, listing(values), READ).records.map((one) => one.id);

describe('sorting a list as its sort parameter documents', () => {
  it('reads field:asc|desc values, the field named in another case', () => {
    const values = ['created_at:asc', 'created_at:desc', 'title:asc', 'title:desc'];
    expect(listing(values).sort?.fields.get('created_at')).toBe('createdAt');
    expect(ids({ sort_by: 'created_at:desc' }, values)).toEqual([3, 1, 2]);
    expect(ids({ sort_by: 'title:asc' }, values)).toEqual([3, 1, 2]);
  });

  it('reads -/+ prefixes, several fields, and leaves the order alone without a sort', () => {
    const values = ['title', '-title', '+createdAt', '-createdAt'];
    expect(ids({ sort_by: '-title' }, values)).toEqual([2, 1, 3]);
    expect(ids({ sort_by: '+createdAt' }, values)).toEqual([2, 1, 3]);
    expect(ids({}, values)).toEqual([1, 2, 3]);
  });

  it('finds no sort where the values name no property', () => {
    expect(listing(['relevance', 'popularity']).sort).toBeUndefined();
  });
});
