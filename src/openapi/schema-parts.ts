import type { SchemaObject } from './load.js';

/**
 * Reading a (resolved) schema as the mock needs it, `allOf` parts included: OpenAPI specs
 * build records by composition (Category is NewCategory plus its id), so what a schema
 * declares is spread over its parts.
 */

/**
 * The properties a schema declares, its `allOf` parts included, and the arm of a `oneOf` or
 * `anyOf` that has only one (`allOf: [base, oneOf: [percentage]]`: one arm is no choice, its
 * fields are the schema's).
 * @example propertiesOf(category) // { id: {...}, name: {...}, description: {...} }
 */
export function propertiesOf(
  schema: SchemaObject,
  seen = new Set<object>(),
): Record<string, SchemaObject> {
  const merged: Record<string, SchemaObject> = {};
  seen.add(schema);
  Object.assign(merged, schema.properties ?? {});
  for (const part of partsOf(schema))
    if (!seen.has(part)) Object.assign(merged, propertiesOf(part, seen));
  return merged;
}

/**
 * Every definition a schema gives each property, its parts included (see partsOf): a property
 * described in several `allOf` parts is all of them, where propertiesOf keeps the last.
 * In `allOf: [operation, { properties: { features: {} } }]` the last alone says a record's
 * features could be anything, the first that they are objects.
 * @example definitionsOf({ allOf: [{ properties: { a: { type: 'object' } } }, { properties: { a: {} } }] }).get('a') // [{ type: 'object' }, {}]
 */
export function definitionsOf(
  schema: SchemaObject,
  seen = new Set<object>(),
  found = new Map<string, SchemaObject[]>(),
): Map<string, SchemaObject[]> {
  seen.add(schema);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const known = found.get(name) ?? [];
    if (!known.includes(property as SchemaObject)) known.push(property as SchemaObject);
    found.set(name, known);
  }
  for (const part of partsOf(schema)) if (!seen.has(part)) definitionsOf(part, seen, found);
  return found;
}

/** The required property names of a schema, its parts included (see propertiesOf). */
export function requiredOf(schema: SchemaObject, seen = new Set<object>()): Set<string> {
  const required = new Set<string>(schema.required ?? []);
  seen.add(schema);
  for (const part of partsOf(schema))
    if (!seen.has(part)) for (const name of requiredOf(part, seen)) required.add(name);
  return required;
}

/**
 * The schemas a value must also satisfy: the `allOf` parts, and a lone `oneOf` or `anyOf` arm
 * (`oneOf: [$ref]`, written to carry a description: the schema itself).
 * @example partsOf({ description: 'read', oneOf: [content] }) // [content]
 */
export function partsOf(schema: SchemaObject): SchemaObject[] {
  const lone = (arms: unknown) =>
    Array.isArray(arms) && arms.length === 1 ? (arms as SchemaObject[]) : [];
  return [
    ...((schema.allOf ?? []) as SchemaObject[]),
    ...lone(schema.oneOf),
    ...lone(schema.anyOf),
  ];
}

/**
 * Whether a schema carries `readOnly: true` (or `writeOnly: true`), itself or in an `allOf` part.
 * @example carries({ allOf: [{ $comment: 'id' }, { readOnly: true }] }, 'readOnly') // true
 */
export function carries(schema: SchemaObject, marker: 'readOnly' | 'writeOnly'): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  return (
    (schema as Record<string, unknown>)[marker] === true ||
    ((schema.allOf ?? []) as SchemaObject[]).some((part) => carries(part, marker))
  );
}

/** Whether a property schema is `readOnly`, itself or through an `allOf` part. */
export function isReadOnly(schema: SchemaObject): boolean {
  return carries(schema, 'readOnly');
}

/**
 * The JSON types a schema allows, `allOf` parts included; empty when it says none.
 * @example typesOf({ type: ['string', 'null'] }) // ['string', 'null']
 */
export function typesOf(schema: SchemaObject): string[] {
  return [schema, ...((schema.allOf ?? []) as SchemaObject[])].flatMap((part) =>
    Array.isArray(part.type) ? part.type : part.type ? [part.type] : [],
  );
}

/** Whether a schema takes numbers (an integer or a number type, in itself or its parts). */
export function isNumeric(schema: SchemaObject): boolean {
  return typesOf(schema).some((type) => type === 'integer' || type === 'number');
}

/** How deep admittedTypes reads parts and arms: a recursive schema admits any type below. */
const ADMITTED_DEPTH = 8;

/**
 * The JSON types a schema admits, read as a validator would: its `type` (an integer is a
 * number), `nullable: true` adding null, its `allOf` parts narrowing them, its `oneOf`/`anyOf`
 * arms each adding theirs. Undefined where it admits any type (no `type` anywhere).
 * @example admittedTypes({ type: 'object', nullable: true }) // Set { 'object', 'null' }
 * @example admittedTypes({ oneOf: [{ type: 'string' }, { type: 'array' }] }) // Set { 'string', 'array' }
 */
export function admittedTypes(schema: SchemaObject, depth = 0): Set<string> | undefined {
  if (typeof schema !== 'object' || schema === null || depth > ADMITTED_DEPTH) return undefined;
  let admitted: Set<string> | undefined;
  const narrow = (types: Set<string> | undefined) => {
    if (types) admitted = admitted ? intersection(admitted, types) : types;
  };
  const own = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : undefined;
  if (own) {
    const types = new Set<string>(own as string[]);
    if ((schema as { nullable?: unknown }).nullable === true) types.add('null');
    narrow(widened(types));
  }
  for (const part of (schema.allOf ?? []) as SchemaObject[]) narrow(admittedTypes(part, depth + 1));
  for (const arms of [schema.oneOf, schema.anyOf]) {
    if (!Array.isArray(arms) || arms.length === 0) continue;
    const each = (arms as SchemaObject[]).map((arm) => admittedTypes(arm, depth + 1));
    if (each.some((types) => types === undefined)) continue;
    narrow(new Set(each.flatMap((types) => [...(types as Set<string>)])));
  }
  return admitted;
}

/** A number type admits integers. */
function widened(types: Set<string>): Set<string> {
  if (types.has('number')) types.add('integer');
  return types;
}

function intersection(one: ReadonlySet<string>, other: ReadonlySet<string>): Set<string> {
  return new Set([...one].filter((type) => other.has(type)));
}
