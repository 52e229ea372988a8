import type { SchemaObject } from './load.js';

/**
 * Reading a (resolved) schema as the mock needs it, `allOf` parts included: OpenAPI specs
 * build records by composition (Category is NewCategory plus its id), so what a schema
 * declares is spread over its parts.
 */

/**
 * The properties a schema declares, its `allOf` parts included, and the arm of a `oneOf` or
 * `anyOf` that has only one (Cloudflare's `allOf: [base, oneOf: [percentage]]`: one arm is
 * no choice, its fields are the schema's).
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
