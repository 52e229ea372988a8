// faker's English locale behind a small type of what we use. The build bundles faker into this
// file (scripts/build-vendored.mjs): its package is 3.9 MB, the English locale 0.5 MB, and no
// declaration we ship names it. The locale entry of faker loads in a fifth of the time of its
// main entry (which loads every locale); a private instance built from it keeps seeding free
// of global state.
import { faker as englishFaker } from '@faker-js/faker/locale/en';

/** The part of faker that realistic records use; json-schema-faker's `faker` hints call the rest. */
export interface SeededFaker {
  readonly definitions: { readonly animal: { readonly type?: readonly string[] | undefined } };
  readonly animal: object;
  readonly book: {
    title(): string;
    author(): string;
    genre(): string;
    publisher(): string;
  };
  readonly helpers: { shuffle<T>(list: T[]): T[] };
}

/**
 * A faker of its own, seeded: the same seed always gives the same values.
 * @example seededFaker(1).book.title() // the same title for seed 1, every run
 */
export function seededFaker(seed: number): SeededFaker {
  const Faker = englishFaker.constructor as new (options: {
    locale: typeof englishFaker.rawDefinitions;
    seed: number;
  }) => typeof englishFaker;
  return new Faker({ locale: englishFaker.rawDefinitions, seed });
}
