// What the suite reads of a documented 409: which property one record only may hold, and which
// number the state bounds, from the description's own words.
import { describe, expect, it } from 'vitest';
import { conflictOf, overflowing, withinLimit } from '../contract-tests/conflicts.js';
import type { PlanOperation, Schema } from '../contract-tests/plan.js';

const create = (description?: string): PlanOperation => ({
  operationId: 'create',
  method: 'post',
  path: '/things',
  parameters: [],
  responses: {
    '201': { content: {}, headers: {}, links: {} },
    ...(description === undefined
      ? {}
      : { '409': { content: {}, headers: {}, links: {}, description } }),
  },
  security: [],
  successStatus: 201,
});

const copy: Schema = {
  type: 'object',
  properties: {
    id: { type: 'string', readOnly: true },
    barcode: { type: 'string', description: 'Unique within the branch.' },
    title: { type: 'string' },
  },
};
const movement: Schema = {
  type: 'object',
  properties: { quantity: { type: 'integer' }, reason: { type: 'string' } },
};

describe('conflictOf', () => {
  it('reads a unique property from its own description or the 409 naming it', () => {
    expect(conflictOf(create('Conflict.'), copy)).toEqual({ unique: ['barcode'] });
    expect(
      conflictOf(create('A thing with this title exists already.'), {
        type: 'object',
        properties: { title: { type: 'string' } },
      }),
    ).toEqual({ unique: ['title'] });
  });

  it('reads a number the state bounds, and which way it overflows', () => {
    expect(
      conflictOf(create("The movement would take the item's quantity below zero."), movement),
    ).toEqual({ unique: [], limit: { property: 'quantity', way: 'below' } });
    expect(
      conflictOf(create('The order exceeds the stock.'), {
        type: 'object',
        properties: { seats: { type: 'integer', minimum: 1, maximum: 10 }, note: {} },
      }),
    ).toEqual({ unique: [], limit: { property: 'seats', way: 'above' } });
  });

  it('reads nothing where no 409 is documented, or it says nothing it can use', () => {
    expect(conflictOf(create(), copy)).toBeUndefined();
    expect(conflictOf(create('Conflict.'), movement)).toBeUndefined();
  });
});

describe('the values past a limit, and within it', () => {
  it('goes as far as the schema allows, in 32 bits', () => {
    expect(overflowing({ type: 'integer' }, 'below')).toBe(-(2 ** 31 - 1));
    expect(overflowing({ type: 'integer', maximum: 10 }, 'above')).toBe(10);
    expect(withinLimit({ type: 'integer' })).toBe(1);
    expect(withinLimit({ type: 'integer', minimum: 5 })).toBe(5);
  });
});
