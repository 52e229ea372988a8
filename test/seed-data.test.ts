import { describe, expect, it } from 'vitest';
import { generateCategories } from '../src/core/resources/seed-data.js';

describe('generateCategories', () => {
  it('gives the same categories for the same seed, and others for another seed', () => {
    expect(generateCategories({ count: 10, seed: 7 })).toEqual(
      generateCategories({ count: 10, seed: 7 }),
    );
    expect(generateCategories({ count: 10, seed: 7 })).not.toEqual(
      generateCategories({ count: 10, seed: 8 }),
    );
  });

  it('gives exactly the count asked for, 0 included', () => {
    for (const count of [0, 1, 10, 250])
      expect(generateCategories({ count, seed: 1 })).toHaveLength(count);
  });

  it('gives realistic, unique, non-empty names with descriptions', () => {
    const categories = generateCategories({ count: 250, seed: 3 });
    const names = categories.map((category) => category.name);
    expect(new Set(names).size).toBe(250);
    for (const category of categories) {
      expect(category.name.trim()).not.toBe('');
      expect(category.description).toEqual(expect.any(String));
    }
    expect(generateCategories({ count: 44, seed: 3 }).map((category) => category.name)).toEqual(
      expect.arrayContaining(['Dog', 'Cat', 'Rabbit']),
    );
  });
});
