import fc, { type Arbitrary, type WeightedArbitrary } from 'fast-check';
import type { Schema } from './plan.js';
import { sampleValue } from './samples.js';
import {
  allowedTypes,
  isClosed,
  keyword,
  propertiesOf,
  requiredOf,
  textKeyword,
  writableProperties,
} from './schema-parts.js';

/** Whitespace a pasted value carries, HTTP's and Unicode's. */
const WHITESPACE = fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u3000');

/**
 * Text as clients write it: mostly short printable ASCII (markup and quotes included) or any
 * printable Unicode grapheme (accents, scripts, emoji outside the BMP), sometimes padded with
 * whitespace, sometimes hundreds to thousands of characters long. Never lone surrogates or
 * control characters, which no real client sends. Every kind can shrink to the empty string,
 * so that a failure shrinks to the few characters that cause it, whichever kind found it.
 */
function textArbitrary(property: Schema = {}): Arbitrary<string> {
  const min = typeof property.minLength === 'number' ? property.minLength : 0;
  const max = typeof property.maxLength === 'number' ? property.maxLength : Infinity;
  const short = Math.max(min, Math.min(max, 40));
  const ascii = fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: short });
  const unicode = fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(short, 20) });
  const padding = fc.string({ unit: WHITESPACE, maxLength: 3 });
  const kinds: WeightedArbitrary<string>[] = [
    { weight: 4, arbitrary: ascii },
    { weight: 3, arbitrary: unicode },
    {
      weight: 1,
      arbitrary: fc
        .tuple(padding, fc.oneof(ascii, unicode), padding)
        .map(([before, text, after]) => `${before}${text}${after}`),
    },
  ];
  if (max >= 256) {
    kinds.push({
      weight: 1,
      // `size: 'max'`: lengths spread up to the maximum, not kept small as fast-check prefers.
      arbitrary: fc.string({
        unit: fc.oneof(
          {
            weight: 9,
            arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
          },
          { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
        ),
        minLength: min,
        maxLength: Math.min(max, 3000),
        size: 'max',
      }),
    });
  }
  // JSON Schema counts lengths in code points; a grapheme may hold several.
  return fc.oneof(...kinds).filter((text) => {
    const length = [...text].length;
    return length >= min && length <= max;
  });
}

/** How deep generated bodies nest objects and arrays. */
const MAX_DEPTH = 3;

/** A valid value of each format, as clients send them. */
const FORMAT_ARBITRARIES: Record<string, () => Arbitrary<string>> = {
  email: () => fc.emailAddress(),
  uuid: () => fc.uuid(),
  date: () => isoDates().map((iso) => iso.slice(0, 10)),
  'date-time': () => isoDates(),
  uri: () => fc.webUrl(),
  url: () => fc.webUrl(),
  hostname: () => fc.domain(),
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
};

function isoDates(): Arbitrary<string> {
  return fc
    .date({
      min: new Date('1900-01-01T00:00:00Z'),
      max: new Date('2200-01-01T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString());
}

/** A value of a property's schema; anything JSON when the schema names no type. */
function valueArbitrary(property: Schema, depth = 0): Arbitrary<unknown> {
  if (property.const !== undefined) return fc.constant(property.const);
  const choices = textKeyword<unknown[]>(property, 'enum');
  if (Array.isArray(choices) && choices.length > 0) return fc.constantFrom(...choices);
  const alternatives = property.oneOf ?? property.anyOf;
  if (alternatives?.length && allowedTypes(property).length === 0)
    return fc.oneof(...alternatives.map((alternative) => valueArbitrary(alternative, depth)));
  const byType: Record<string, () => Arbitrary<unknown>> = {
    string: () => stringArbitrary(property),
    integer: () => numberArbitrary(property, true),
    number: () => numberArbitrary(property, false),
    boolean: () => fc.boolean(),
    null: () => fc.constant(null),
    array: () => {
      const items = (textKeyword<Schema>(property, 'items') ?? {}) as Schema;
      const minLength = keyword(property, 'minItems') ?? 0;
      const maxLength = Math.max(
        minLength,
        Math.min(keyword(property, 'maxItems') ?? 3, depth >= MAX_DEPTH ? minLength : 3),
      );
      const item = valueArbitrary(items, depth + 1);
      return textKeyword(property, 'uniqueItems') === true
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (value) => JSON.stringify(value) })
        : fc.array(item, { minLength, maxLength });
    },
    object: () => declaredBodyArbitrary(property, depth + 1),
  };
  const types = allowedTypes(property).filter((type) => type in byType);
  return types.length === 0
    ? fc.jsonValue({ maxDepth: 1 })
    : fc.oneof(...types.map((t) => byType[t]!()));
}

function stringArbitrary(property: Schema): Arbitrary<string> {
  const min = keyword(property, 'minLength') ?? 0;
  const max = keyword(property, 'maxLength') ?? Infinity;
  const fits = (text: string) => [...text].length >= min && [...text].length <= max;
  const pattern = textKeyword<string>(property, 'pattern');
  if (pattern !== undefined) {
    try {
      return fc.stringMatching(new RegExp(pattern, 'u')).filter(fits);
    } catch {
      // A pattern JavaScript cannot read: the spec's validator will judge what is sent.
    }
  }
  const format = textKeyword<string>(property, 'format');
  const formatted = format === undefined ? undefined : FORMAT_ARBITRARIES[format];
  if (formatted) return formatted().filter(fits);
  if (format !== undefined) return fc.constant(sampleValue(property, 'contract') as string);
  return textArbitrary(property);
}

function numberArbitrary(property: Schema, integer: boolean): Arbitrary<number> {
  const low = keyword(property, 'minimum') ?? keyword(property, 'exclusiveMinimum');
  const high = keyword(property, 'maximum') ?? keyword(property, 'exclusiveMaximum');
  const multiple = keyword(property, 'multipleOf');
  const numbers = integer
    ? fc.integer({
        ...(low === undefined ? {} : { min: Math.ceil(low) }),
        ...(high === undefined ? {} : { max: Math.floor(high) }),
      })
    : fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        ...(low === undefined ? {} : { min: low }),
        ...(high === undefined ? {} : { max: high }),
      });
  return multiple === undefined || multiple <= 0
    ? numbers
    : numbers.map((n) => Math.round(n / multiple) * multiple);
}

/**
 * Values of each JSON type, for a property that does not allow that type, weighted by how
 * often a client sends them by mistake: numbers for strings most, then null.
 */
const WRONG: Record<string, WeightedArbitrary<unknown>> = {
  string: { weight: 2, arbitrary: fc.string({ maxLength: 10 }) },
  integer: { weight: 3, arbitrary: fc.integer() },
  number: {
    weight: 2,
    arbitrary: fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .filter((n) => !Number.isInteger(n)),
  },
  boolean: { weight: 1, arbitrary: fc.boolean() },
  null: { weight: 2, arbitrary: fc.constant(null) },
  array: { weight: 1, arbitrary: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }) },
  object: {
    weight: 1,
    arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), {
      maxKeys: 3,
    }),
  },
};

/** The declared properties of a body, each given a valid value; optional ones may be absent. */
function declaredBodyArbitrary(schema: Schema, depth = 0): Arbitrary<Record<string, unknown>> {
  const properties = writableProperties(schema);
  const required = requiredOf(schema).filter((name) => name in properties);
  const model = Object.fromEntries(
    Object.entries(properties)
      .filter(([name]) => depth < MAX_DEPTH || required.includes(name))
      .map(([name, property]) => [name, valueArbitrary(property, depth)]),
  );
  return fc.record(model, { requiredKeys: required });
}

/**
 * Bodies a schema allows: its writable properties with valid values, optional ones sometimes
 * left out, and sometimes unknown fields beside them.
 * @example fc.sample(validBodyArbitrary(newCategory), 1) // [{ name: ' Ünï <b> ', colour: 3 }]
 */
export function validBodyArbitrary(schema: Schema): Arbitrary<Record<string, unknown>> {
  if (isClosed(schema)) return declaredBodyArbitrary(schema);
  const declared = new Set(Object.keys(propertiesOf(schema)));
  const unknownKey = fc
    .stringMatching(/^[a-z][a-zA-Z0-9_]{0,11}$/)
    .filter((key) => !declared.has(key));
  const extras = fc.oneof(
    { weight: 3, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.dictionary(unknownKey, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
    },
  );
  return fc
    .tuple(declaredBodyArbitrary(schema), extras)
    .map(([body, extra]) => ({ ...extra, ...body }));
}

/**
 * Bodies a schema refuses: a required property left out, a property of a type it does not
 * allow, or a JSON value that is not an object at all.
 * @example fc.sample(invalidBodyArbitrary(newCategory), 1) // [{ name: 17 }]
 */
export function invalidBodyArbitrary(schema: Schema): Arbitrary<unknown> {
  const properties = writableProperties(schema);
  const valid = declaredBodyArbitrary(schema);
  // A wrong value in a field is the likeliest mistake, and has the most shapes to explore.
  const kinds: WeightedArbitrary<unknown>[] = [];
  for (const name of requiredOf(schema)) {
    if (!(name in properties)) continue;
    kinds.push({ weight: 1, arbitrary: valid.map(({ [name]: _left, ...rest }) => rest) });
  }
  for (const [name, property] of Object.entries(properties)) {
    const allowed = allowedTypes(property);
    if (allowed.length === 0) continue;
    const wrong = Object.keys(WRONG).filter((type) => !allowed.includes(type));
    kinds.push({
      weight: 3,
      arbitrary: fc
        .tuple(valid, fc.oneof(...wrong.map((type) => WRONG[type]!)))
        .map(([body, value]) => ({ ...body, [name]: value })),
    });
  }
  kinds.push({
    weight: 1,
    arbitrary: fc.oneof(
      fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
      fc.string({ maxLength: 10 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
    ),
  });
  return fc.oneof(...kinds);
}
