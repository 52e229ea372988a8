// Where the spec has no links, a path parameter named after a collection takes the id of one
// of its records: `authorId`, `author_id` or the collection's own item parameter.
import { describe, expect, it } from 'vitest';
import type { CollectionKit } from '../contract-tests/kit.js';
import type { PlanCollection } from '../contract-tests/plan.js';
import { fieldProducers, idFits, producerOf, singular } from '../contract-tests/producers.js';

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

describe('the producers of a body', () => {
  const book = {
    type: 'object',
    properties: {
      title: { type: 'string' },
      authorId: { type: 'string', format: 'uuid' },
      category_id: { type: 'integer' },
      ref: { type: 'string' },
    },
  };

  it('are its fields named after a collection, other than the one it writes to', () => {
    expect(fieldProducers(all, book)).toEqual([
      { field: 'authorId', collection: authors },
      { field: 'category_id', collection: categories },
      { field: 'ref', collection: authors },
    ]);
    expect(fieldProducers(all, book, authors).map(({ field }) => field)).toEqual(['category_id']);
  });

  it('take an id only where its JSON type fits the field', () => {
    expect(idFits('0b7e…', { type: 'string', format: 'uuid' })).toBe(true);
    expect(idFits(7, { type: 'integer' })).toBe(true);
    expect(idFits(7, { type: ['string', 'null'] })).toBe(false);
    expect(idFits('7', { type: 'integer' })).toBe(false);
    expect(idFits(7, {})).toBe(true);
  });
});
