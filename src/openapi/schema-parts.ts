import type { SchemaObject } from './load.js';

/**
 * Reading a (resolved) schema as the mock needs it, `allOf` parts included: OpenAPI specs
 * build records by composition (Category is NewCategory plus its id), so what a schema
 * declares is spread over its parts.
 */

/**
 * The properties a schema declares, its `allOf` parts included.
 * @example propertiesOf(category) // { id: {...}, name: {...}, description: {...} }
 */
export function propertiesOf(schema: SchemaObject): Record<string, SchemaObject> {
  const merged: Record<string, SchemaObject> = {};
  for (const part of [schema, ...((schema.allOf ?? []) as SchemaObject[])]) {
    if (part !== schema && part.allOf) Object.assign(merged, propertiesOf(part));
    else Object.assign(merged, part.properties ?? {});
  }
  return merged;
}

/** The required property names of a schema, its `allOf` parts included. */
export function requiredOf(schema: SchemaObject): Set<string> {
  const required = new Set<string>(schema.required ?? []);
  for (const part of (schema.allOf ?? []) as SchemaObject[])
    for (const name of requiredOf(part)) required.add(name);
  return required;
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
