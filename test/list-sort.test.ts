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
  return listingOf({ type: 'string', enum: values });
}

/** The listing of an operation with a `sort_by` of this schema, and other query parameters. */
function listingOf(sortSchema: SchemaObject, others: Record<string, SchemaObject> = {}) {
  const operation = {
    parameters: [
      { name: 'sort_by', in: 'query', required: false, schema: sortSchema },
      ...Object.entries(others).map(([name, schema]) => ({
        name,
        in: 'query',
        required: false,
        schema,
      })),
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

  it('reads the -field form from a pattern where there is no enum, any property in any spelling', () => {
    const sorting = listingOf({ type: 'string', pattern: '^[-+]?[a-z_]+$' });
    expect(sorting.sort?.fields.get('created_at')).toBe('createdAt');
    expect(sorting.sort?.fields.has('createdAt')).toBe(false);
    const order = (query: Record<string, unknown>) =>
      selectPage(RECORDS, query, sorting, READ).records.map((one) => one.id);
    expect(order({ sort_by: '-created_at' })).toEqual([3, 1, 2]);
    expect(order({ sort_by: 'title' })).toEqual([3, 1, 2]);
  });

  it('reads the field:asc|desc form from a pattern on the items of an array', () => {
    const sorting = listingOf({
      type: 'array',
      items: { type: 'string', pattern: '^[a-zA-Z]+:(asc|desc)$' },
    });
    expect(sorting.sort?.fields.get('createdAt')).toBe('createdAt');
    expect(
      selectPage(RECORDS, { sort_by: ['createdAt:desc'] }, sorting, READ).records.map(
        (one) => one.id,
      ),
    ).toEqual([3, 1, 2]);
  });

  it('finds no sort where the pattern takes no property in any form', () => {
    expect(listingOf({ type: 'string', pattern: '^(relevance|popularity)$' }).sort).toBeUndefined();
  });

  it('reads an order=asc|desc parameter beside the sort field, a direction in the value first', () => {
    const sorting = listingOf(
      { type: 'string', enum: ['title', 'createdAt'] },
      { order: { type: 'string', enum: ['asc', 'desc'] } },
    );
    expect(sorting.sort?.direction).toBe('order');
    const order = (query: Record<string, unknown>) =>
      selectPage(RECORDS, query, sorting, READ).records.map((one) => one.id);
    expect(order({ sort_by: 'title', order: 'desc' })).toEqual([2, 1, 3]);
    expect(order({ sort_by: 'title', order: 'asc' })).toEqual([3, 1, 2]);
    expect(order({ sort_by: 'title' })).toEqual([3, 1, 2]);
    // An order parameter whose values are no directions is not one.
    expect(
      listingOf(
        { type: 'string', enum: ['title'] },
        { order: { type: 'string', enum: ['newest', 'oldest'] } },
      ).sort?.direction,
    ).toBeUndefined();
  });
});
