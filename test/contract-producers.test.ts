// Where the spec has no links, a path parameter named after a collection takes the id of one
// of its records: `authorId`, `author_id` or the collection's own item parameter.
import { describe, expect, it } from 'vitest';
import type { CollectionKit } from '../contract-tests/kit.js';
import type { PlanCollection } from '../contract-tests/plan.js';
import { producerOf, singular } from '../contract-tests/producers.js';

const collection = (name: string, plan: Partial<PlanCollection> = {}): CollectionKit => ({
  plan: {
    name,
    collectionPath: `/${name}`,
    idProperty: 'id',
    idKind: 'integer',
    schema: {},
    operations: {},
    envelopes: {},
    ...plan,
  },
});
const authors = collection('authors', { itemParameter: 'ref' });
const categories = collection('categories');
const boxes = collection('boxes');
const tickets = collection('projects/{projectId}/tickets', {
  parent: { collection: 'projects', parameter: 'projectId' },
});
const all = [authors, categories, boxes, tickets];

describe('the producer of a path parameter', () => {
  it('is the collection its name names, singular, with an id suffix in any style', () => {
    expect(producerOf(all, 'authorId')).toBe(authors);
    expect(producerOf(all, 'author_id')).toBe(authors);
    expect(producerOf(all, 'CategoryId')).toBe(categories);
    expect(producerOf(all, 'box-id')).toBe(boxes);
  });

  it('is the collection whose own item parameter it is, whatever that is named', () => {
    expect(producerOf(all, 'ref')).toBe(authors);
  });

  it('is none for a name no top-level collection has', () => {
    expect(producerOf(all, 'entryId')).toBeUndefined();
    expect(producerOf(all, 'author')).toBeUndefined();
    expect(producerOf(all, 'ticketId')).toBeUndefined();
  });

  it('reads English plurals', () => {
    expect(['categories', 'boxes', 'churches', 'addresses', 'authors'].map(singular)).toEqual([
      'category',
      'box',
      'church',
      'address',
      'author',
    ]);
  });
});
