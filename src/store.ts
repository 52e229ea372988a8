import type { Category, NewCategory } from './types.js';

/**
 * Where the mock keeps categories. It holds plain values and knows nothing of HTTP.
 * Ids are positive integers, unique, assigned here and nowhere else.
 */
export interface CategoryStore {
  /** Every category, in the order they were created. */
  list(): readonly Category[];
  /** Stores a category under a new id and returns what was stored. */
  create(input: NewCategory): Category;
}

/**
 * A store held in memory, lost when the process ends.
 * @param initial records to start with, kept as given, ids included (tests plant records this way).
 * @example const store = createMemoryStore(); store.create({ name: 'Dog' }); // { id: 1, name: 'Dog' }
 */
export function createMemoryStore(initial: readonly Category[] = []): CategoryStore {
  const categories: Category[] = [...initial];
  let lastId = categories.reduce((max, category) => Math.max(max, Number(category.id) || 0), 0);

  return {
    list: () => categories,
    create(input) {
      // Assigned synchronously, so two creates can never share an id.
      lastId += 1;
      const category: Category = Object.freeze({
        id: lastId,
        name: input.name,
        ...(input.description === undefined ? {} : { description: input.description }),
      });
      categories.push(category);
      return category;
    },
  };
}
