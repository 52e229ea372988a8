import { jsonOf } from '../../store/records.js';
import { errors } from '../../vocabulary/error-catalogue.js';
import type { SchemaObject } from '../../openapi/load.js';
import { isClosed, listedValueFor } from '../../openapi/record-schema.js';
import { ID_WORDS, wordsOf } from '../../openapi/item-key.js';
import { carries, partsOf, propertiesOf, typesOf } from '../../openapi/schema-parts.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import type { StoredRecord } from '../../store/store.js';
import { isJsonObject } from '../../vocabulary/record.js';
import type { Texts } from '../../vocabulary/texts.js';
import type { FieldShapes, FieldShower } from './two-shapes.js';

/**
 * Checks a record against one schema and serializes it to UTF-8 JSON; `index` (its place in a
 * list) locates it in the message about a broken one. `texts` does the same for a list of
 * records given as their stored JSON: it answers the function that checks each of them, by its
 * place in that list, so that a list of stored texts is checked and sent with nothing parsed
 * (nothing even read as a string, for the records it finds checked).
 */
export type RecordSerializer = ((record: StoredRecord, index?: number) => Buffer) & {
  /**
   * The function that checks (or finds checked) the text at each place of `texts`, and answers
   * what the answer shows instead of it, or undefined when it is shown as stored.
   */
  texts(texts: Texts): (index: number) => string | undefined;
};

/** The last words of the fields that hold ids, or keys. */
const KEY_WORDS = new Set([...ID_WORDS, 'key']);

/**
 * What of a record an answer of this schema shows: the fields it declares when it is closed
 * (`additionalProperties: false`), never one it marks `writeOnly`, and a field the record
 * keeps as a number where the answer documents a string (ids: integers in the item answer,
 * strings in the create answer) as that string, or a numeric string as its number:
 * for ids only (`id`, `projectId`...), a misfit of any other field is a broken record. A
 * record holds everything the spec says of it; each answer shows it in its own terms, at every
 * depth: a nested object whose schema is closed is shown as that schema declares it. A name a
 * closed schema admits through `patternProperties` is kept; a schema that admits names through
 * `oneOf`, `anyOf`, `if` or `dependentSchemas` is shown whole (the answer check judges it).
 * A field the resource's answers describe in two shapes (`shapes`, see FieldShapes) is shown
 * in this answer's shape where the record holds the other; no other field is reshaped.
 * @example projectionFor({ properties: { id: { type: 'string' } }, additionalProperties: false })({ id: 1, bio: 'x' }) // { id: '1' }
 * @internal for its tests: no part of the package's surface
 */
export function projectionFor(
  schema: SchemaObject,
  shapes?: FieldShapes,
): (record: StoredRecord) => StoredRecord {
  const properties = propertiesOf(schema);
  const patterns = patternsOf(schema);
  const closed = isClosed(schema) && patterns !== undefined && !admitsNamesElsewhere(schema);
  const hidden = new Set(
    Object.keys(properties).filter((name) => carries(properties[name] ?? {}, 'writeOnly')),
  );
  const asText = new Set<string>();
  const asNumber = new Set<string>();
  for (const [name, property] of Object.entries(properties)) {
    // Only ids are typed one way here and another there; any other misfit is a broken record.
    if (!KEY_WORDS.has(wordsOf(name).at(-1) ?? '')) continue;
    const types = typesOf(property);
    const numeric = types.includes('integer') || types.includes('number');
    if (types.includes('string') && !numeric) asText.add(name);
    if (numeric && !types.includes('string')) asNumber.add(name);
  }
  // A field the answer fixes to one value is that value there: a list of references,
  // `type: "schedule_v3_reference"`, of records read as `type: "schedule_v3"`;
  // one it lists values of shows the value that names the record's (its add-ons' references,
  // `incident_show_addon_reference` for `incident_show_addon`).
  const fixed = new Map<string, unknown>();
  const listed = new Map<string, readonly unknown[]>();
  for (const [name, property] of Object.entries(properties)) {
    const only = onlyValueOf(property);
    if (only !== undefined) fixed.set(name, only.value);
    else {
      const values = (property as { enum?: unknown }).enum;
      if (Array.isArray(values) && values.every((value) => typeof value === 'string'))
        listed.set(name, values);
    }
  }
  const nested = new Map<string, (value: unknown) => unknown>();
  for (const [name, property] of Object.entries(properties)) {
    const inner = nestedProjection(property, new Set());
    if (inner) nested.set(name, inner);
  }
  // Settled once per answer: a resource with no field in two shapes has none to look up.
  const shapers = new Map<string, FieldShower>();
  if (shapes)
    for (const [name, property] of Object.entries(properties))
      if (shapes.fields.has(name)) shapers.set(name, shapes.showerFor(name, property));
  const hides = (name: string): boolean =>
    hidden.has(name) ||
    (closed && !(name in properties) && !patterns?.some((pattern) => pattern.test(name)));
  const asStated = (name: string, value: unknown): unknown => {
    if (fixed.has(name)) return fixed.get(name);
    const values = listed.get(name);
    if (values && typeof value === 'string' && !values.includes(value))
      return listedValueFor(value, values) ?? value;
    if (typeof value === 'number' && asText.has(name)) return String(value);
    if (typeof value === 'string' && asNumber.has(name) && /^-?\d+(\.\d+)?$/.test(value))
      return Number(value);
    return nested.get(name)?.(value) ?? value;
  };
  const shown: (name: string, value: unknown, record: StoredRecord) => unknown =
    shapers.size === 0
      ? asStated
      : (name, value, record) => {
          const stated = asStated(name, value);
          const shaper = shapers.get(name);
          return shaper ? shaper(stated, record, (other) => asStated(name, other)) : stated;
        };
  /** The record as shown; the fields before `from` are shown as stored, `from`'s as `value`. */
  const reshaped = (record: StoredRecord, from: number, value: unknown): StoredRecord => {
    const names = Object.keys(record);
    const fields: [string, unknown][] = [];
    names.forEach((name, index) => {
      if (index < from) fields.push([name, record[name]]);
      else if (index === from) {
        if (!hides(name)) fields.push([name, value]);
      } else if (!hides(name)) fields.push([name, shown(name, record[name], record)]);
    });
    return Object.freeze(Object.fromEntries(fields));
  };
  return (record) => {
    // An answer that shows the record as it is keeps it: one object, one cached JSON, and
    // nothing allocated to find that out (a create's answer, nearly always). A field shown
    // otherwise is shown once (a made one is not made again).
    const names = Object.keys(record);
    for (let index = 0; index < names.length; index++) {
      const name = names[index] as string;
      if (hides(name)) return reshaped(record, index, undefined);
      const value = shown(name, record[name], record);
      if (value !== record[name]) return reshaped(record, index, value);
    }
    return record;
  };
}

/**
 * projectionFor, each record's projection made once and kept while the record lives, for
 * answers that show records through it on every request (a wrapped list). A serializer needs
 * none: it keeps each record's JSON.
 * @example const project = cachedProjectionFor(schema); project(record) === project(record) // true
 */
export function cachedProjectionFor(
  schema: SchemaObject,
  shapes?: FieldShapes,
): (record: StoredRecord) => StoredRecord {
  const project = projectionFor(schema, shapes);
  const shown = new WeakMap<StoredRecord, StoredRecord>();
  return (record) => {
    let projected = shown.get(record);
    if (!projected) {
      projected = project(record);
      shown.set(record, projected);
    }
    return projected;
  };
}

/**
 * How a field's value is shown when its schema is a closed object, or an array of them: through
 * that schema's own projection. Made on first use, so that a recursive schema costs what its
 * values are deep; `seen` holds the schemas above, where an array of itself ends.
 */
function nestedProjection(
  schema: SchemaObject,
  seen: Set<SchemaObject>,
): ((value: unknown) => unknown) | undefined {
  if (seen.has(schema)) return undefined;
  if (isClosed(schema) && Object.keys(propertiesOf(schema)).length > 0) {
    let project: ((record: StoredRecord) => StoredRecord) | undefined;
    return (value) =>
      isJsonObject(value) ? (project ??= projectionFor(schema))(value as StoredRecord) : value;
  }
  const items = (schema as { items?: unknown }).items;
  if (!isJsonObject(items)) return undefined;
  const each = nestedProjection(items as SchemaObject, new Set([...seen, schema]));
  if (!each) return undefined;
  return (value) => {
    if (!Array.isArray(value)) return value;
    const shown = value.map(each);
    return shown.some((item, i) => item !== value[i]) ? Object.freeze(shown) : value;
  };
}

/** The one value a schema allows, by `const` or an `enum` of one (itself or an `allOf` part). */
function onlyValueOf(schema: SchemaObject): { value: unknown } | undefined {
  for (const part of [schema, ...((schema.allOf ?? []) as SchemaObject[])]) {
    if (typeof part !== 'object' || part === null) continue;
    if ('const' in part) return { value: (part as { const: unknown }).const };
    const listed = (part as { enum?: unknown }).enum;
    if (Array.isArray(listed) && listed.length === 1) return { value: listed[0] as unknown };
  }
  return undefined;
}

/** The keywords through which a schema admits property names its `properties` do not list. */
const OTHER_NAMES = ['oneOf', 'anyOf', 'if', 'dependentSchemas'] as const;

function admitsNamesElsewhere(schema: SchemaObject): boolean {
  // A `oneOf` or `anyOf` of one arm is the schema itself (see partsOf), no alternative.
  const isLone = (arms: unknown) => Array.isArray(arms) && arms.length === 1;
  return allPartsOf(schema).some((part) =>
    OTHER_NAMES.some(
      (keyword) => keyword in part && !isLone((part as Record<string, unknown>)[keyword]),
    ),
  );
}

/**
 * The `patternProperties` of a schema and its `allOf` parts, as expressions; none when one of
 * them is not an expression this engine reads (the schema is then shown whole).
 */
function patternsOf(schema: SchemaObject): RegExp[] | undefined {
  const patterns = allPartsOf(schema).flatMap((part) =>
    Object.keys((part as { patternProperties?: object }).patternProperties ?? {}),
  );
  try {
    return patterns.map((pattern) => new RegExp(pattern, 'u'));
  } catch {
    return undefined;
  }
}

/** A schema and its parts (see partsOf), at every depth. */
function allPartsOf(schema: SchemaObject, seen = new Set<SchemaObject>()): SchemaObject[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  return [schema, ...partsOf(schema).flatMap((part) => allPartsOf(part, seen))];
}

/**
 * Serializers that check each record once, when they first see it, and remember what they
 * showed of the lists they last sent whole, by position: stored records are immutable and a
 * store's list keeps its order (a create adds at the end, a replace keeps its place, a delete
 * closes the gap), so the record at a place of the next list is, nearly always, the text at the
 * same place of the last one, or a few places on; found there (the same text), it is not
 * checked again. A list of any size costs one comparison per record, and the memory is the
 * last lists' arrays (the store's own, shared until its next write), 8 bytes a record at most
 * (a map from each text to what it showed costs several times that). One
 * serializer per schema object. A closed schema sees the record through its projection
 * (projectionFor), with `shapes`, the fields of the resource's records in two shapes.
 * @throws {ApiError} 500 `invalid_response` naming the problem, for a record that breaks its schema.
 * @example createRecordSerializers(compiler)(categorySchema)({ id: 1, name: 'Dog' }).toString() // '{"id":1,"name":"Dog"}'
 */
export function createRecordSerializers(
  compiler: SchemaCompiler,
  shapes?: FieldShapes,
): (schema: SchemaObject) => RecordSerializer {
  const serializers = new WeakMap<SchemaObject, RecordSerializer>();
  return (schema) => {
    let serializer = serializers.get(schema);
    if (!serializer) {
      const check = compiler.response(schema);
      const project = projectionFor(schema, shapes);
      const shownOf = (json: string, index: number | undefined, given?: StoredRecord) => {
        const record = given ?? (JSON.parse(json) as StoredRecord);
        const shown = project(record);
        const problems = check(shown, index === undefined ? '/response' : `/response/${index}`);
        if (problems.length > 0) throw errors.invalidResponse(problems);
        return shown === record ? json : JSON.stringify(shown);
      };
      // One record's answer (a create's, which the handler checks, then sends): the last one.
      let lastJson: string | undefined;
      let lastText = '';
      const lists = createListMemo();
      serializer = Object.assign(
        (record: StoredRecord, index?: number) => {
          const json = jsonOf(record);
          if (json !== lastJson) {
            lastText = shownOf(json, index, record);
            lastJson = json;
          }
          return Buffer.from(lastText);
        },
        { texts: (texts: Texts) => lists.showing(texts, shownOf) },
      );
      serializers.set(schema, serializer);
    }
    return serializer;
  };
}

/** How many places on from where the last list matched a text is looked for: deletes since. */
const LOOK_AHEAD = 8;

/** A list a serializer showed whole: its texts, and what it showed of each where that differs. */
interface ShownList {
  texts: Texts;
  /**
   * What each text was shown as, when any was not shown as stored (a closed schema's
   * projection): undefined for one shown as stored.
   */
  shown: readonly (string | undefined)[] | undefined;
}

/**
 * What a serializer remembers of the lists it showed whole: the last one, and the longest of
 * the recent ones (a list of the whole collection, which a filtered list or a page between
 * two must not make check again). Each new list is matched against them by position: the
 * same stored text (Texts.sameAs, which a store's bytes answer with no text read) was checked.
 */
function createListMemo() {
  let last: ShownList | undefined;
  let longest: ShownList | undefined;
  return {
    /** The function that checks each text of `texts`, by its place: what it shows instead, if anything. */
    showing(
      texts: Texts,
      shownOf: (json: string, index: number) => string,
    ): (index: number) => string | undefined {
      const known = [last, longest].filter((list): list is ShownList => list !== undefined);
      const next = known.map(() => 0);
      let shown: (string | undefined)[] | undefined;
      return (index) => {
        let found = false;
        let text: string | undefined;
        for (let k = 0; k < known.length && !found; k++) {
          const { texts: old, shown: oldShown } = known[k] as ShownList;
          const from = next[k] as number;
          const to = Math.min(old.length, from + LOOK_AHEAD);
          for (let at = from; at < to; at++)
            if (texts.sameAs(index, old, at)) {
              text = oldShown?.[at];
              found = true;
              next[k] = at + 1;
              break;
            }
        }
        if (!found) {
          const json = texts.at(index);
          const made = shownOf(json, index);
          text = made === json ? undefined : made;
        }
        if (text !== undefined) shown ??= new Array<string | undefined>(index).fill(undefined);
        shown?.push(text);
        if (index === texts.length - 1) {
          // Shown whole, every record checked: the list to match the next ones against.
          last = { texts, shown };
          // A page or a filtered list does not take the place of a list of the whole collection.
          if (!longest || texts.length * 2 >= longest.texts.length) longest = last;
        }
        return text;
      };
    },
  };
}
