// Realistic records, as tables keyed by what a schema says: a collection whose spec exemplifies
// its names with an animal kind gets animal kinds, one named after books gets book titles. No
// code names a resource: each row below says when it applies and what it makes.
import { seededFaker, type SeededFaker as Faker } from './english-faker.js';

/** What a collection's schema says, as the table's rows read it. */
export interface SchemaFacts {
  /** The collection's name, e.g. `categories`. */
  collection: string;
  /** Its record's properties, each with the spec's own examples of it (`examples`, `example`). */
  properties: ReadonlyMap<string, readonly unknown[]>;
}

/** One row: when its records fit a collection, and how to make `count` of them. */
interface RecordTable {
  /** What its records are, for documentation. */
  readonly holds: string;
  applies(facts: SchemaFacts, faker: Faker): boolean;
  records(count: number, faker: Faker): Record<string, unknown>[];
}

const TABLES: readonly RecordTable[] = [
  {
    holds: 'kinds of animal (Dog, Cat, Rabbit), then breeds, each with a description',
    applies: (facts, faker) => {
      const kinds = new Set(animalTypes(faker).map((kind) => kind.toLowerCase()));
      return [...facts.properties].some(
        ([name, examples]) =>
          /^(name|title|label)$/i.test(name) &&
          examples.some(
            (example) => typeof example === 'string' && kinds.has(example.toLowerCase()),
          ),
      );
    },
    records: (count, faker) => animalKinds(count, faker),
  },
  {
    holds: 'books: titles, authors, genres and publishers',
    applies: (facts) => /book/i.test(facts.collection) && facts.properties.has('title'),
    records: (count, faker) =>
      Array.from({ length: count }, () => ({
        title: faker.book.title(),
        author: faker.book.author(),
        genre: faker.book.genre(),
        publisher: faker.book.publisher(),
      })),
  },
];

/**
 * Realistic fields for `count` records of a collection, from the first table whose row fits
 * what its schema says; undefined when none does. The same seed gives the same records. The
 * fields are a proposal: the seeder keeps those the schema has, where they fit it.
 * @example realisticRecords({ collection: 'categories', properties: new Map([['name', ['Dog']]]) }, 2, 1)
 * // [{ name: 'Snake', description: 'Pets of the snake kind, ...' }, ...]
 */
export function realisticRecords(
  facts: SchemaFacts,
  count: number,
  seed: number,
): Record<string, unknown>[] | undefined {
  const faker = seededFaker(seed);
  return TABLES.find((table) => table.applies(facts, faker))?.records(count, faker);
}

/**
 * Kinds of animal (Dog, Cat, Rabbit, ...) with breed-based descriptions; once every kind is
 * used, breeds become names of their own. Names are unique.
 * @example animalKinds(2, seededFaker(1)) // [{ name: 'Snake', description: ... }, ...]
 * @internal for its tests and the benches: no part of the package's surface
 */
export function animalKinds(count: number, faker: Faker): { name: string; description: string }[] {
  const kinds = faker.helpers.shuffle([...animalTypes(faker)]);
  const names = new Set<string>();
  const records: { name: string; description: string }[] = [];

  for (let i = 0; records.length < count; i++) {
    const kind = kinds[i % kinds.length] ?? 'pet';
    const breed = breedOf(faker, kind);
    const firstRound = i < kinds.length;
    const name = firstRound ? capitalize(kind) : (breed ?? `${capitalize(kind)} ${i}`);
    if (names.has(name)) continue;
    names.add(name);
    records.push(
      firstRound && breed
        ? { name, description: `Pets of the ${kind} kind, such as the ${breed}` }
        : firstRound
          ? { name, description: `Every kind of ${kind}` }
          : { name, description: `A breed of ${kind}` },
    );
  }
  return records;
}

/** @internal for its tests and the benches: no part of the package's surface */
export { seededFaker };

function animalTypes(faker: Faker): readonly string[] {
  return faker.definitions.animal.type ?? ['dog', 'cat', 'rabbit'];
}

type BreedGenerator = () => string;

function breedOf(faker: Faker, kind: string): string | undefined {
  const generator = (faker.animal as unknown as Record<string, BreedGenerator | undefined>)[kind];
  return typeof generator === 'function' && kind !== 'type' ? generator() : undefined;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
