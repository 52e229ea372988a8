import { describe, expect, it } from 'vitest';
import { animalKinds, realisticRecords, seededFaker } from '../src/openapi/realistic.js';

describe('animal kinds, the realistic records of pet categories', () => {
  it('gives the same categories for the same seed, and others for another seed', () => {
    expect(animalKinds(10, seededFaker(7))).toEqual(animalKinds(10, seededFaker(7)));
    expect(animalKinds(10, seededFaker(7))).not.toEqual(animalKinds(10, seededFaker(8)));
  });

  it('gives exactly the count asked for, 0 included', () => {
    for (const count of [0, 1, 10, 250])
      expect(animalKinds(count, seededFaker(1))).toHaveLength(count);
  });

  it('gives realistic, unique, non-empty names with descriptions', () => {
    const categories = animalKinds(250, seededFaker(3));
    const names = categories.map((category) => category.name);
    expect(new Set(names).size).toBe(250);
    for (const category of categories) {
      expect(category.name.trim()).not.toBe('');
      expect(category.description).toEqual(expect.any(String));
    }
    expect(animalKinds(44, seededFaker(3)).map((category) => category.name)).toEqual(
      expect.arrayContaining(['Dog', 'Cat', 'Rabbit']),
    );
  });
});

describe('realisticRecords: tables keyed by what a schema says', () => {
  const facts = (collection: string, properties: Record<string, unknown[]>) => ({
    collection,
    properties: new Map(Object.entries(properties)),
  });

  it('gives animal kinds to a collection whose names the spec exemplifies with one', () => {
    const records = realisticRecords(
      facts('categories', { name: ['Dog'], description: [] }),
      44,
      3,
    );
    expect(records?.map((record) => record.name)).toEqual(
      expect.arrayContaining(['Dog', 'Cat', 'Rabbit']),
    );
    // Whatever the collection is called: the spec's examples say what it holds.
    expect(realisticRecords(facts('kinds', { label: ['cat'] }), 3, 3)).toHaveLength(3);
  });

  it('gives book titles to a collection of books', () => {
    const records = realisticRecords(facts('books', { title: [], isbn: [] }), 3, 1);
    expect(records).toHaveLength(3);
    for (const record of records ?? []) expect(record.title).toEqual(expect.any(String));
  });

  it('gives nothing where no row fits, and the same for the same seed', () => {
    expect(realisticRecords(facts('categories', { name: ['Books'] }), 3, 1)).toBeUndefined();
    expect(realisticRecords(facts('books', { title: [] }), 5, 9)).toEqual(
      realisticRecords(facts('books', { title: [] }), 5, 9),
    );
  });
});
