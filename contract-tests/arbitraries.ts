import fc, { type Arbitrary, type WeightedArbitrary } from 'fast-check';
import { allowedTypes, writableProperties } from './bodies.js';
import type { Schema } from './spec.js';

/** Whitespace a pasted value carries, HTTP's and Unicode's. */
const WHITESPACE = fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u3000');

/**
 * Text as clients write it: mostly short printable ASCII (markup and quotes included) or any
 * printable Unicode grapheme (accents, scripts, emoji outside the BMP), sometimes padded with
 * whitespace, sometimes hundreds to thousands of characters long. Never lone surrogates or
 * control characters, which no real client sends. Every kind can shrink to the empty string,
 * so that a failure shrinks to the few characters that cause it, whichever kind found it.
 */
export function textArbitrary(property: Schema = {}): Arbitrary<string> {
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

/** A value of a property's schema; anything JSON when the schema names no type. */
function valueArbitrary(property: Schema): Arbitrary<unknown> {
  const byType: Record<string, () => Arbitrary<unknown>> = {
    string: () => textArbitrary(property),
    integer: () => fc.integer(),
    number: () => fc.double({ noNaN: true, noDefaultInfinity: true }),
    boolean: () => fc.boolean(),
    null: () => fc.constant(null),
  };
  const types = allowedTypes(property).filter((type) => type in byType);
  return types.length === 0
    ? fc.jsonValue({ maxDepth: 1 })
    : fc.oneof(...types.map((t) => byType[t]!()));
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
function declaredBodyArbitrary(schema: Schema): Arbitrary<Record<string, unknown>> {
  const properties = writableProperties(schema);
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, valueArbitrary(property)]),
  );
  return fc.record(model, {
    requiredKeys: (schema.required ?? []).filter((name) => name in properties),
  });
}

/**
 * Bodies a schema allows: its writable properties with valid values, optional ones sometimes
 * left out, and sometimes unknown fields beside them.
 * @example fc.sample(validBodyArbitrary(newCategory), 1) // [{ name: ' Ünï <b> ', colour: 3 }]
 */
export function validBodyArbitrary(schema: Schema): Arbitrary<Record<string, unknown>> {
  const declared = new Set(Object.keys(schema.properties ?? {}));
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
  for (const name of schema.required ?? []) {
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
