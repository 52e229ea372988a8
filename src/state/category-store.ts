import type { Category, NewCategory } from '../types.js';

/**
 * Where the mock keeps categories. It holds plain values and knows nothing of HTTP.
 * Ids are positive integers, unique, assigned here and nowhere else.
 */
export interface CategoryStore {
  /** Every category, in the order they were created. */
  list(): readonly Category[];
  /** Changes on every write: a reader that cached what it read knows when to read again. */
  readonly version: number;
  /** Stores a category under a new id and returns what was stored. */
  create(input: NewCategory): Category;
}

/**
 * A store held in memory, lost when the process ends.
 * @param initial records to start with, kept as given, ids included (tests plant records this way).
 * @example const store = createMemoryStore(); store.create({ name: 'Dog' }); // { id: 1, name: 'Dog' }
 */
export function createMemoryStore(initial: readonly Category[] = []): CategoryStore {
  // Frozen, so that whoever caches a record's serialized form can trust it stays true.
  const categories: Category[] = initial.map((category) => Object.freeze({ ...category }));
  let lastId = categories.reduce((max, category) => Math.max(max, Number(category.id) || 0), 0);
  let version = 0;

  return {
    list: () => categories,
    get version() {
      return version;
    },
    create(input) {
      // Assigned synchronously, so two creates can never share an id.
      lastId += 1;
      const category: Category = Object.freeze({
        id: lastId,
        name: input.name,
        ...(input.description === undefined ? {} : { description: input.description }),
      });
      categories.push(category);
      version += 1;
      return category;
    },
  };
}
