// The locale entry of faker loads in a fifth of the time of its main entry (which
// loads every locale); a private instance built from it keeps seeding free of global state.
import type { Faker } from '@faker-js/faker';
import { faker as englishFaker } from '@faker-js/faker/locale/en';
import type { NewCategory } from '../../types.js';

export interface SeedOptions {
  /** How many categories to generate. */
  count: number;
  /** The same seed always gives the same categories. */
  seed: number;
}

/**
 * Realistic categories (Dog, Cat, Rabbit, ...) with breed-based descriptions; once every
 * animal kind is used, breeds become categories of their own.
 * @example generateCategories({ count: 2, seed: 1 }) // [{ name: 'Snake', description: ... }, ...]
 */
export function generateCategories({ count, seed }: SeedOptions): NewCategory[] {
  const faker = new (englishFaker.constructor as typeof Faker)({
    locale: englishFaker.rawDefinitions,
    seed,
  });
  const kinds = faker.helpers.shuffle([
    ...(faker.definitions.animal.type ?? ['dog', 'cat', 'rabbit']),
  ]);
  const names = new Set<string>();
  const categories: NewCategory[] = [];

  for (let i = 0; categories.length < count; i++) {
    const kind = kinds[i % kinds.length] ?? 'pet';
    const breed = breedOf(faker, kind);
    const firstRound = i < kinds.length;
    const name = firstRound ? capitalize(kind) : (breed ?? `${capitalize(kind)} ${i}`);
    if (names.has(name)) continue;
    names.add(name);
    categories.push(
      firstRound && breed
        ? { name, description: `Pets of the ${kind} kind, such as the ${breed}` }
        : firstRound
          ? { name, description: `Every kind of ${kind}` }
          : { name, description: `A breed of ${kind}` },
    );
  }
  return categories;
}

type BreedGenerator = () => string;

function breedOf(faker: Faker, kind: string): string | undefined {
  const generator = (faker.animal as unknown as Record<string, BreedGenerator | undefined>)[kind];
  return typeof generator === 'function' && kind !== 'type' ? generator() : undefined;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
