import type { SchemaObject } from './load.js';
import { propertiesOf, requiredOf, typesOf } from './schema-parts.js';

/**
 * One record schema made of every schema the spec gives a record in (list items, the create
 * answer, the item answer...): each property any of them declares, with every definition of it
 * (a property two schemas define differently must fit both, `allOf`), required where any of
 * them requires it. It stays open to other properties: an answer whose own schema is closed
 * shows only the properties that schema declares.
 * @example mergeRecordSchemas([summary, detail]) // { type: 'object', properties: {...both}, required: [...both] }
 */
export function mergeRecordSchemas(schemas: readonly SchemaObject[]): SchemaObject {
  const unique = [...new Set(schemas)];
  if (unique.length === 1 && unique[0]) return unique[0];
  const definitions = new Map<string, SchemaObject[]>();
  const required = new Set<string>();
  for (const schema of unique) {
    for (const [name, property] of Object.entries(propertiesOf(schema))) {
      const known = definitions.get(name) ?? [];
      if (!known.includes(property)) known.push(property);
      definitions.set(name, known);
    }
    for (const name of requiredOf(schema)) required.add(name);
  }
  const properties: Record<string, SchemaObject> = {};
  for (const [name, known] of definitions) properties[name] = mergeDefinitions(known);
  return {
    type: 'object',
    properties,
    required: [...required].filter((name) => name in properties),
  } as SchemaObject;
}

/**
 * One definition for a property several schemas define: all of them (`allOf`), unless their
 * types cannot meet (an `id` integer in one answer, string in another, as Jira's): then the
 * numeric one, which an answer that wants a string shows as one (projectionFor), else the first.
 */
function mergeDefinitions(known: readonly SchemaObject[]): SchemaObject {
  if (known.length === 1) return known[0] as SchemaObject;
  const typed = known.map((schema) => typesOf(schema)).filter((types) => types.length > 0);
  const shared = typed.reduce<string[] | undefined>(
    (common, types) => (common ? common.filter((type) => types.includes(type)) : types),
    undefined,
  );
  if (!shared || shared.length > 0) return { allOf: [...known] } as SchemaObject;
  return (
    known.find((schema) =>
      typesOf(schema).some((type) => type === 'integer' || type === 'number'),
    ) ?? (known[0] as SchemaObject)
  );
}

/**
 * Whether a schema refuses properties it does not declare (`additionalProperties: false`, or
 * `unevaluatedProperties: false`), itself or in an `allOf` part.
 * @example isClosed({ properties: { id: {} }, additionalProperties: false }) // true
 */
export function isClosed(schema: SchemaObject): boolean {
  return [schema, ...((schema.allOf ?? []) as SchemaObject[])].some(
    (part) =>
      part.additionalProperties === false ||
      (part as { unevaluatedProperties?: unknown }).unevaluatedProperties === false,
  );
}
