import type { Schema } from './spec.js';

/** A request body the interface must refuse with 400, and why. */
export interface InvalidBody {
  /** What is wrong with it, as a rule name reads it: "a body without `name`". */
  what: string;
  /** The rule of the interface document it breaks. */
  rule: 1 | 2;
  /** The raw text sent as `application/json` (`undefined`: no body). */
  text: string | undefined;
}

/** The JSON types a value can have, and a sample of each. */
const SAMPLES: Record<string, unknown> = {
  number: 42.5,
  integer: 42,
  boolean: true,
  null: null,
  array: ['x'],
  object: { x: 1 },
  string: 'x',
};

/**
 * A valid body for a schema: every property it declares (read-only ones excepted), strings
 * carrying `label` so that what the suite creates is recognisable.
 * @example validBody(newCategory, 'contract-abc Dog') // { name: 'contract-abc Dog', description: 'contract-abc Dog' }
 */
export function validBody(schema: Schema, label: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(writableProperties(schema))) {
    body[name] = sampleOf(property, `${label} ${name}`);
  }
  return body;
}

/**
 * Bodies that break the schema, generated from it so that they follow the spec when it
 * changes: each required property left out (rule 1); each property given each JSON type it
 * does not allow (rule 2); bodies that are not an object at all (rule 2).
 */
export function invalidBodies(schema: Schema, label: string): InvalidBody[] {
  const valid = validBody(schema, label);
  const bodies: InvalidBody[] = [];
  for (const name of schema.required ?? []) {
    if (!(name in valid)) continue;
    const rest = Object.fromEntries(
      Object.entries(valid).filter(([property]) => property !== name),
    );
    bodies.push({ what: `a body without \`${name}\``, rule: 1, text: JSON.stringify(rest) });
  }
  for (const [name, property] of Object.entries(writableProperties(schema))) {
    for (const type of wrongTypes(property)) {
      bodies.push({
        what: `\`${name}\` given ${article(type)}`,
        rule: 2,
        text: JSON.stringify({ ...valid, [name]: SAMPLES[type] }),
      });
    }
  }
  bodies.push(
    { what: 'a body that is an array', rule: 2, text: JSON.stringify([valid]) },
    { what: 'a body that is a string', rule: 2, text: JSON.stringify(label) },
    { what: 'a body that is a number', rule: 2, text: '42' },
    { what: 'a body that is null', rule: 2, text: 'null' },
    { what: 'an empty body', rule: 2, text: undefined },
    { what: 'a body that is malformed JSON', rule: 2, text: '{"name": ' },
  );
  return bodies;
}

/** The properties a client may send: every declared one but the read-only ones (`id`). */
export function writableProperties(schema: Schema): Record<string, Schema> {
  const merged: Record<string, Schema> = {};
  for (const part of [schema, ...(schema.allOf ?? [])])
    Object.assign(merged, part.properties ?? {});
  return Object.fromEntries(Object.entries(merged).filter(([, property]) => !property.readOnly));
}

/** The JSON types a property allows (`number` allows `integer` too); empty: any. */
export function allowedTypes(property: Schema): string[] {
  const types = Array.isArray(property.type) ? property.type : property.type ? [property.type] : [];
  return types.includes('number') ? [...types, 'integer'] : types;
}

function wrongTypes(property: Schema): string[] {
  const allowed = allowedTypes(property);
  if (allowed.length === 0) return [];
  // The number sample is fractional, so it breaks `integer` too.
  return ['string', 'number', 'boolean', 'null', 'array', 'object'].filter(
    (type) => !allowed.includes(type),
  );
}

function sampleOf(property: Schema, text: string): unknown {
  const [type] = allowedTypes(property);
  return type === 'string' || type === undefined ? text : SAMPLES[type];
}

function article(type: string): string {
  return (
    { array: 'an array', object: 'an object', null: 'null', integer: 'an integer' }[type] ??
    `a ${type}`
  );
}
