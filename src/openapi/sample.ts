import type { Faker } from '@faker-js/faker';
import { faker as englishFaker } from '@faker-js/faker/locale/en';
import { createGeneratorSync, type JsonSchema } from 'json-schema-faker';
import { SpecError, type SchemaObject } from './load.js';
import { typesOf } from './schema-parts.js';
import type { SchemaCompiler } from './schemas.js';

/** Makes data valid against the spec's schemas: seeds, example answers, server-set fields. */
export interface DataGenerator {
  /**
   * A value valid against `schema` (every keyword: formats, patterns, ranges, enums,
   * `allOf`), with realistic strings where a property's name says what it holds.
   * @throws {SpecError} when no valid value could be made for the schema.
   */
  value(schema: SchemaObject, where?: string): unknown;
}

export interface DataGeneratorOptions {
  /** The same seed gives the same sequence of values. */
  seed: number;
  compiler: SchemaCompiler;
}

/**
 * Faker methods for string properties by name, when the schema itself says nothing more
 * precise (no format, pattern, enum or const): what makes `email` look like an address.
 */
const FAKER_BY_NAME: readonly [RegExp, string][] = [
  [/^e-?mail(address)?$/i, 'internet.email'],
  [/^(first_?name|given_?name)$/i, 'person.firstName'],
  [/^(last_?name|family_?name|surname)$/i, 'person.lastName'],
  [/^(full_?name|display_?name|owner|author)$/i, 'person.fullName'],
  [/^(user_?name|login|handle)$/i, 'internet.username'],
  [/^(phone|phone_?number|mobile|tel)$/i, 'phone.number'],
  [/^city$/i, 'location.city'],
  [/^country$/i, 'location.country'],
  [/^(street|address|street_?address)$/i, 'location.streetAddress'],
  [/^(zip|zip_?code|postal_?code|postcode)$/i, 'location.zipCode'],
  [/^(company|organization|organisation)$/i, 'company.name'],
  [/^(url|website|homepage|link)$/i, 'internet.url'],
  [/^(avatar|image|photo|photo_?url|image_?url|picture)$/i, 'image.url'],
  [/^(colou?r)$/i, 'color.human'],
  [/^(description|summary|bio|about|notes?|comment)$/i, 'lorem.sentence'],
  [/^(title|subject|headline)$/i, 'lorem.words'],
  [/^(tag|label|keyword)s?$/i, 'word.noun'],
  [/^(breed)$/i, 'animal.dog'],
  [/^(species|kind|animal)$/i, 'animal.type'],
  [/^(pet_?name|nickname)$/i, 'animal.petName'],
  [/^name$/i, 'person.firstName'],
];

/** Generated instants fall in this range, fixed rather than ending today: the same seed must give the same data on any day. */
const EARLIEST = Date.UTC(2020, 0, 1);
const LATEST = Date.UTC(2026, 0, 1);

/** The part of json-schema-faker's seeded random source that formats use. */
interface Random {
  next(): number;
}

/** A seeded instant, in UTC whatever the machine's time zone: ISO 8601 to the second. */
function instant(random: Random): string {
  const time = EARLIEST + Math.floor((random.next() * (LATEST - EARLIEST)) / 1000) * 1000;
  return new Date(time).toISOString().replace('.000Z', 'Z');
}

const DATE_FORMATS = {
  'date-time': instant,
  date: (random: Random) => instant(random).slice(0, 10),
};

/** How many times a value is made before the generator gives up on a schema. */
const ATTEMPTS = 20;

/**
 * A seeded generator built on json-schema-faker, with faker for realistic strings. Every
 * value is checked against its schema before it is handed out, so a schema keyword the
 * generator misses shows as a retry, and in the end as a clear error, never as bad data.
 * @example createDataGenerator({ seed: 1, compiler }).value({ type: 'string', format: 'email' }) // 'Kyla.Hahn@yahoo.com'
 */
export function createDataGenerator({ seed, compiler }: DataGeneratorOptions): DataGenerator {
  // Made on first use: most mocks answer from examples and seed realistic categories.
  let generator: ReturnType<typeof createGeneratorSync> | undefined;
  const made = () =>
    (generator ??= createGeneratorSync({
      seed,
      optionalsProbability: 0.8,
      maxDefaultItems: 3,
      maxDepth: 6,
      // Dates and times of our own: the library's read the local time zone, so the same seed
      // gave other data in another zone.
      formats: DATE_FORMATS,
      extensions: {
        faker: new (englishFaker.constructor as typeof Faker)({
          locale: englishFaker.rawDefinitions,
          seed,
        }),
      },
    } as never));
  const hinted = new WeakMap<object, SchemaObject>();

  return {
    value(schema, where = 'a schema') {
      const check = compiler.response(schema);
      let problems: string[] = [];
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        // Hints first; if they keep breaking a constraint (a maxLength, say), plain data.
        const source = attempt < ATTEMPTS / 2 ? withHints(schema, hinted) : schema;
        const value = made().generate(source as JsonSchema);
        problems = check(value);
        if (problems.length === 0) return value;
      }
      throw new SpecError(
        `cannot generate data valid against ${where}: ${problems.slice(0, 3).join('; ')}`,
      );
    },
  };
}

/** The schema with faker hints on the string properties whose names say what they hold. */
function withHints(schema: SchemaObject, memo: WeakMap<object, SchemaObject>): SchemaObject {
  if (typeof schema !== 'object' || schema === null) return schema;
  const done = memo.get(schema);
  if (done) return done;
  const out: Record<string, unknown> = { ...schema };
  memo.set(schema, out as SchemaObject);
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => {
        const hint = hintFor(name, property as SchemaObject);
        const inner = withHints(property as SchemaObject, memo);
        return [name, hint ? { ...inner, faker: hint } : inner];
      }),
    );
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) out[key] = list.map((part) => withHints(part as SchemaObject, memo));
  }
  const items = (schema as { items?: unknown }).items;
  if (typeof items === 'object' && items !== null)
    out.items = withHints(items as SchemaObject, memo);
  return out as SchemaObject;
}

function hintFor(name: string, property: SchemaObject): string | undefined {
  if (!typesOf(property).includes('string')) return undefined;
  // Faker knows nothing of these: its value would break them, and hints are for realism only.
  if (property.format || property.pattern || property.enum || 'const' in property) return undefined;
  // Faker's words and sentences fit loose bounds; tight ones are left to the plain generator.
  if ((property.minLength ?? 0) > 10 || (property.maxLength ?? Infinity) < 30) return undefined;
  return FAKER_BY_NAME.find(([pattern]) => pattern.test(name))?.[1];
}
