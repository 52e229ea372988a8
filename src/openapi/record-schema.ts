import type { SchemaObject } from './load.js';
import {
  admittedTypes,
  definitionsOf,
  partsOf,
  propertiesOf,
  requiredOf,
  typesOf,
} from './schema-parts.js';

/**
 * One record schema made of every schema the spec gives a record in (list items, the create
 * answer, the item answer...): each property any of them declares, with every definition of it
 * (a property two schemas define differently must fit both, `allOf`), required where any of
 * them requires it. It stays open to other properties: an answer whose own schema is closed
 * shows only the properties that schema declares.
 * @example mergeRecordSchemas([summary, detail]) // { type: 'object', properties: {...both}, required: [...both] }
 */
export function mergeRecordSchemas(schemas: readonly SchemaObject[], depth = 0): SchemaObject {
  const unique = [...new Set(schemas)];
  if (unique.length === 1 && unique[0]) return unique[0];
  const definitions = new Map<string, SchemaObject[]>();
  const required = new Set<string>();
  for (const schema of unique) {
    for (const [name, defined] of definitionsOf(schema)) {
      const known = definitions.get(name) ?? [];
      for (const property of defined) if (!known.includes(property)) known.push(property);
      definitions.set(name, known);
    }
    for (const name of requiredOf(schema)) required.add(name);
  }
  const properties: Record<string, SchemaObject> = {};
  for (const [name, known] of definitions)
    properties[name] =
      depth === 0 && inTwoShapes(known) && !scalarsApart(known)
        ? // Either shape, as the answers describe them: a record holds what a client sent in
          // one of them, and each answer shows it in its own (projectionFor).
          ({ anyOf: [...known] } as SchemaObject)
        : mergeDefinitions(known, depth);
  // A name required and defined nowhere (a `namespace` required and never described) must
  // still be there, with any value: records without it would break every list.
  for (const name of required) properties[name] ??= {};
  return { type: 'object', properties, required: [...required] } as SchemaObject;
}

/**
 * The properties two of a record's schemas (its answers, its list's items) describe in two
 * shapes, which no value fits at once: an object in one and an array of them in another
 * (a `scope`), an id text here and the object it names there.
 * Only the types they admit are compared (see admittedTypes), null aside: a field both make
 * nullable still holds, in a record, something other than null. Top-level properties only.
 * @example fieldsInTwoShapes([{ properties: { scope: { type: 'object' } } }, { properties: { scope: { type: 'array' } } }]) // Set { 'scope' }
 */
export function fieldsInTwoShapes(schemas: readonly SchemaObject[]): Set<string> {
  const definitions = new Map<string, SchemaObject[]>();
  for (const schema of new Set(schemas))
    for (const [name, defined] of definitionsOf(schema)) {
      const known = definitions.get(name) ?? [];
      for (const property of defined) if (!known.includes(property)) known.push(property);
      definitions.set(name, known);
    }
  const found = new Set<string>();
  for (const [name, known] of definitions) if (inTwoShapes(known)) found.add(name);
  return found;
}

/** Whether two of a property's definitions admit no type in common, null aside. */
function inTwoShapes(known: readonly SchemaObject[]): boolean {
  if (known.length < 2) return false;
  const typed = known
    .map((schema) => admittedTypes(schema))
    .filter((types): types is Set<string> => types !== undefined)
    .map((types) => [...types].filter((type) => type !== 'null'))
    .filter((types) => types.length > 0);
  return typed.some((one, i) =>
    typed.slice(i + 1).some((other) => !one.some((type) => other.includes(type))),
  );
}

/**
 * Whether the definitions are a number in one and a text in another, nothing else (an id
 * integer here, string there): the record keeps the number, which an answer that wants text shows as one.
 */
function scalarsApart(known: readonly SchemaObject[]): boolean {
  const types = known.flatMap((schema) => [...(admittedTypes(schema) ?? ['any'])]);
  return (
    types.some((type) => type === 'integer') &&
    types.every((type) => ['integer', 'number', 'string', 'null'].includes(type))
  );
}

/** How deep nested objects are merged as records are; deeper (a recursive schema), `allOf`. */
const NESTED_DEPTH = 4;

/**
 * One definition for a property several schemas define: for objects, one open object merged
 * as the record is (Dialogporten's search results show a dialog's `content` closed over fewer
 * fields than its read does: both at once held no content the create took, and the mock made
 * the field anew); else all of them (`allOf`), unless their types cannot meet (an `id` integer
 * in one answer, string in another): then the numeric one, which an answer that
 * wants a string shows as one (projectionFor), else the first.
 */
function mergeDefinitions(known: readonly SchemaObject[], depth: number): SchemaObject {
  if (known.length === 1) return known[0] as SchemaObject;
  // Values listed apart (a reference's `type: schedule_v3_reference`, the record's
  // `schedule_v3`): no value fits both, the record keeps the last answer's, and
  // each answer shows its own (projectionFor), where it names each of them.
  if (listedApart(known)) return known.at(-1) as SchemaObject;
  if (
    depth < NESTED_DEPTH &&
    known.every(
      (schema) =>
        Object.keys(propertiesOf(schema)).length > 0 &&
        typesOf(schema).every((type) => type === 'object'),
    )
  )
    return mergeRecordSchemas(known, depth + 1);
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

/** Whether each definition lists its values (`enum`, `const`) and no value is listed by all. */
function listedApart(known: readonly SchemaObject[]): boolean {
  const lists = known.map(listedOf);
  if (lists.some((list) => list === undefined)) return false;
  const [first, ...others] = lists as unknown[][];
  if ((first ?? []).some((value) => others.every((list) => list.includes(value)))) return false;
  // Each other answer must name each value the last one lists, or fix its own.
  const last = lists.at(-1) as unknown[];
  return lists.every(
    (list) =>
      list === last ||
      list?.length === 1 ||
      last.every((value) => listedValueFor(value, list as unknown[]) !== undefined),
  );
}

/** The values a schema lists (`const`, `enum`); undefined when it lists none. */
function listedOf(schema: SchemaObject): unknown[] | undefined {
  if ('const' in schema) return [(schema as { const: unknown }).const];
  const listed = (schema as { enum?: unknown }).enum;
  return Array.isArray(listed) ? listed : undefined;
}

/**
 * The value of `listed` that shows `value`: itself, else the one listed text that extends it
 * (a reference's `incident_show_addon_reference` for the record's `incident_show_addon`);
 * undefined when none or several do.
 * @example listedValueFor('full_page_addon', ['full_page_addon_reference', 'incident_show_addon_reference']) // 'full_page_addon_reference'
 */
export function listedValueFor(value: unknown, listed: readonly unknown[]): unknown {
  if (listed.includes(value)) return value;
  if (typeof value !== 'string' || value === '') return undefined;
  const extending = listed.filter(
    (one) => typeof one === 'string' && one.length > value.length && one.startsWith(value),
  );
  return extending.length === 1 ? extending[0] : undefined;
}

/**
 * Whether a schema refuses properties it does not declare (`additionalProperties: false`, or
 * `unevaluatedProperties: false`), itself, in an `allOf` part or in its lone `oneOf`/`anyOf` arm.
 * @example isClosed({ properties: { id: {} }, additionalProperties: false }) // true
 */
export function isClosed(schema: SchemaObject): boolean {
  return [schema, ...partsOf(schema)].some(
    (part) =>
      part.additionalProperties === false ||
      (part as { unevaluatedProperties?: unknown }).unevaluatedProperties === false,
  );
}
