import type { Schema } from './plan.js';
import { carries } from './spec.js';

/**
 * Reading a schema as the rules need it, `allOf` parts included: specs build records by
 * composition (Category is NewCategory plus its id).
 */

/**
 * The properties a schema declares, its `allOf` parts included.
 * @example propertiesOf(category) // { id: {...}, name: {...}, description: {...} }
 */
export function propertiesOf(schema: Schema): Record<string, Schema> {
  const merged: Record<string, Schema> = {};
  // A lone `oneOf` or `anyOf` arm (`oneOf: [$ref]`, to carry a description) is the schema itself.
  const lone = (arms: Schema[] | undefined) => (arms?.length === 1 ? arms : []);
  for (const part of [
    schema,
    ...(schema.allOf ?? []),
    ...lone(schema.oneOf),
    ...lone(schema.anyOf),
  ]) {
    if (part !== schema && part.allOf) Object.assign(merged, propertiesOf(part));
    else Object.assign(merged, part.properties ?? {});
  }
  return merged;
}

/** The required property names of a schema, its `allOf` parts included. */
export function requiredOf(schema: Schema): string[] {
  const required = new Set<string>(schema.required ?? []);
  for (const part of schema.allOf ?? []) for (const name of requiredOf(part)) required.add(name);
  return [...required];
}

/** The properties a client may send: every declared one but the read-only ones. */
export function writableProperties(schema: Schema): Record<string, Schema> {
  return Object.fromEntries(
    Object.entries(propertiesOf(schema)).filter(([, property]) => !carries(property, 'readOnly')),
  );
}

/** The JSON types a schema allows (`number` allows `integer` too); empty: any. */
export function allowedTypes(schema: Schema): string[] {
  const types = [schema, ...(schema.allOf ?? [])].flatMap((part) =>
    Array.isArray(part.type) ? part.type : part.type ? [part.type] : [],
  );
  if (types.length === 0 && Object.keys(propertiesOf(schema)).length > 0) return ['object'];
  if (types.length === 0 && schema.items !== undefined) return ['array'];
  return types.includes('number') ? [...new Set([...types, 'integer'])] : [...new Set(types)];
}

/** Whether a body's schema says it is something else than an object (an array of patch operations). */
export function isOtherThanObject(schema: Schema): boolean {
  const types = allowedTypes(schema);
  return types.length > 0 && !types.includes('object');
}

/** Whether a schema says it is an object, by `type` or by declaring properties. */
export function isObjectSchema(schema: Schema): boolean {
  return allowedTypes(schema).includes('object');
}

/** Whether the schema closes the object: no property but the declared ones. */
export function isClosed(schema: Schema): boolean {
  return [schema, ...(schema.allOf ?? [])].some(
    (part) => part.additionalProperties === false || part.unevaluatedProperties === false,
  );
}

/**
 * Free text: a string with no format, pattern, enum or const, which a client fills with
 * whatever its user types.
 */
export function isFreeText(schema: Schema): boolean {
  const types = allowedTypes(schema);
  return (
    types.includes('string') &&
    [schema, ...(schema.allOf ?? [])].every(
      (part) =>
        part.format === undefined &&
        part.pattern === undefined &&
        part.enum === undefined &&
        part.const === undefined,
    )
  );
}

/** A numeric keyword of a schema or of its `allOf` parts (the strictest wins for bounds). */
export function keyword(schema: Schema, name: string): number | undefined {
  const values = [schema, ...(schema.allOf ?? [])]
    .map((part) => part[name])
    .filter((value): value is number => typeof value === 'number');
  if (values.length === 0) return undefined;
  return /^(min|exclusiveMin)/.test(name) ? Math.max(...values) : Math.min(...values);
}

/** A keyword that is not a number (`format`, `pattern`, `enum`), from the schema or an `allOf` part. */
export function textKeyword<T = unknown>(schema: Schema, name: string): T | undefined {
  for (const part of [schema, ...(schema.allOf ?? [])])
    if (part[name] !== undefined) return part[name] as T;
  return undefined;
}
