// Answers that hold records as the spec's envelopes say: the record or the array itself, or
// a wrapper (`{data: [...], total}`, `{droplet: {...}, links}`) whose other fields are made
// from its schema, with its counts and cursors telling the truth about the page.
import type { Envelope } from '../../openapi/resources.js';
import { SpecError, type SchemaObject } from '../../openapi/load.js';
import type { DataGenerator } from '../../openapi/sample.js';
import { isObjectSchema } from '../../openapi/envelopes.js';
import {
  admittedTypes,
  definitionsOf,
  propertiesOf,
  requiredOf,
  typesOf,
} from '../../openapi/schema-parts.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import { CheckedJson, RecordList, RecordTexts } from '../../vocabulary/answer.js';
import { TextArray, type Texts } from '../../vocabulary/texts.js';
import type { RecordId, StoredRecord } from '../../store/store.js';
import { jsonOf } from '../../store/records.js';
import type { Page } from './list-page.js';
import { cachedProjectionFor, type RecordSerializer } from './record-serializer.js';
import { isJsonObject } from '../../vocabulary/record.js';
import type { FieldShapes } from './two-shapes.js';

/**
 * A page as an answer tells it: with the link to its next page, where the list has one, and the
 * keys of its first and last records, where it has any.
 */
export type PageWithLinks = Page & {
  readonly nextLink?: string;
  readonly firstKey?: RecordId;
  readonly lastKey?: RecordId;
};

/** A record's key as a field of `type` tells it, or null (none, or not of that type). */
function keyAs(key: RecordId | undefined, type: 'string' | 'number'): string | number | null {
  if (key === undefined) return null;
  if (type === 'string') return String(key);
  return typeof key === 'number' ? key : null;
}

/**
 * A field that tells a page: the names it goes by, the type it must have, and what it says
 * (undefined: nothing, the field is left as made).
 */
type PageField = [
  RegExp,
  'number' | 'string' | 'boolean',
  (page: PageWithLinks, property: SchemaObject) => unknown,
];

/** What a wrapper's fields say of a page, by their names and types. */
const PAGE_FIELDS: readonly PageField[] = [
  [
    /^(total|total_?count|total_?items|total_?results|total_?records|total_?size|total_?elements|count|num_?results|record_?count|hits)$/i,
    'number',
    (page) => page.total,
  ],
  [
    /^(limit|per_?page|page_?size|size|max_?results)$/i,
    'number',
    (page) => page.limit ?? page.records.length,
  ],
  [/^(offset|skip|start|start_?at|start_?index)$/i, 'number', (page) => page.offset],
  [/^(page|page_?number|current_?page|page_?index)$/i, 'number', (page) => page.page],
  [
    /^(total_?pages|page_?count|pages|last_?page|num_?pages)$/i,
    'number',
    (page) => (page.limit ? Math.max(1, Math.ceil(page.total / page.limit)) : 1),
  ],
  [/^(returned|num_?returned|result_?count)$/i, 'number', (page) => page.records.length],
  [
    // `next` alone is a cursor unless its schema says it is a link (see isLink): then the
    // next page's link, as the client asked for this one.
    /^(next|next_?cursor|next_?page_?token|next_?token|next_?marker|cursor|after|end_?cursor|continue|continuation_?token|next_?offset)$/i,
    'string',
    (page, property) =>
      page.next === undefined ? null : isLink(property) ? page.nextLink : page.next,
  ],
  [
    /^(has_?more|has_?next(_?page)?|more|is_?truncated)$/i,
    'boolean',
    (page) => page.more ?? page.next !== undefined,
  ],
  // The keys of the page's first and last records (`first_id`, `last_id` beside `has_more`),
  // which a client sends back as `after` or `before`: made up, they would page nowhere.
  [/^(first_?id|first_?key)$/i, 'string', (page) => keyAs(page.firstKey, 'string')],
  [/^(first_?id|first_?key)$/i, 'number', (page) => keyAs(page.firstKey, 'number')],
  [/^(last_?id|last_?key)$/i, 'string', (page) => keyAs(page.lastKey, 'string')],
  [/^(last_?id|last_?key)$/i, 'number', (page) => keyAs(page.lastKey, 'number')],
];

export interface EnvelopeAnswers {
  /** The body of an answer holding one record. */
  record(envelope: Envelope, record: StoredRecord): unknown;
  /** The body of an answer holding a page of records. */
  list(envelope: Envelope, page: PageWithLinks): unknown;
  /** The body of a plain list of every record, given as their stored JSON texts. */
  texts(envelope: Envelope, texts: Texts): RecordTexts;
}

export interface EnvelopeOptions {
  compiler: SchemaCompiler;
  generator: DataGenerator;
  serializerFor: (schema: SchemaObject) => RecordSerializer;
  /** The fields of the records in two shapes, which each answer shows in its own (see FieldShapes). */
  shapes?: FieldShapes;
}

/**
 * @example createEnvelopeAnswers(options).list(dropletsEnvelope, page) // { droplets: [...], links: {...}, meta: { total: 3 } }
 */
export function createEnvelopeAnswers(options: EnvelopeOptions): EnvelopeAnswers {
  const { compiler, generator, serializerFor, shapes } = options;
  /** One projection per record schema, made once: each keeps what it has shown. */
  const projections = new WeakMap<SchemaObject, (record: StoredRecord) => StoredRecord>();
  const projectionOf = (schema: SchemaObject) => {
    let project = projections.get(schema);
    if (!project) projections.set(schema, (project = cachedProjectionFor(schema, shapes)));
    return project;
  };
  // Made on first use, once per wrapper: the same fields on every answer, as a real server's would be.
  const rests = new WeakMap<Envelope, Record<string, unknown>>();
  const restOf = (envelope: Extract<Envelope, { kind: 'wrapped' }>): Record<string, unknown> => {
    let rest = rests.get(envelope);
    if (!rest) {
      const schema = restSchemaOf(envelope.wrapper, envelope.property);
      rest = generator.value(schema, `the fields beside ${envelope.property}`) as Record<
        string,
        unknown
      >;
      rest = withoutErrors(rest, schema, check);
      rests.set(envelope, rest);
    }
    return rest;
  };
  // A wrapper whose parts give its records' property types no value has can hold no record:
  // said once found, by the mock's named answer for a schema no value satisfies.
  const contradictions = new WeakMap<Envelope, string | false>();
  const refuseContradiction = (envelope: Extract<Envelope, { kind: 'wrapped' }>): void => {
    let found = contradictions.get(envelope);
    if (found === undefined)
      contradictions.set(envelope, (found = contradictionOf(envelope.wrapper, envelope.property)));
    if (found) throw new SpecError(`cannot generate data valid against ${found}`);
  };
  const check = (schema: SchemaObject, value: unknown) =>
    compiler.response(schema)(value).length === 0;

  /** What a wrapper schema's properties say of a page, read once per schema: the same on every list. */
  interface PagePlan {
    /** The properties that tell the page (a total, a cursor...), with the field each tells. */
    pageFields: { name: string; property: SchemaObject; required: boolean; value: PageField[2] }[];
    /** The object properties whose own fields may tell it (`meta: {total}`), one level down. */
    nested: { name: string; property: SchemaObject }[];
  }
  const plans = new WeakMap<SchemaObject, PagePlan>();
  const planOf = (schema: SchemaObject): PagePlan => {
    let plan = plans.get(schema);
    if (!plan) {
      const required = requiredOf(schema);
      plan = { pageFields: [], nested: [] };
      for (const [name, property] of Object.entries(propertiesOf(schema))) {
        const types = typesOf(property);
        const field = PAGE_FIELDS.find(
          ([pattern, type]) =>
            pattern.test(name) &&
            (type === 'number'
              ? types.includes('integer') || types.includes('number')
              : types.includes(type)),
        );
        if (field)
          plan.pageFields.push({ name, property, required: required.has(name), value: field[2] });
        else if (isObjectSchema(property)) plan.nested.push({ name, property });
      }
      plans.set(schema, plan);
    }
    return plan;
  };

  /**
   * `source` with the fields that say something of the page set, in it and in its nested
   * objects; an optional one with nothing to say (no next cursor, where null is refused) left out.
   */
  function tellPage(
    source: Readonly<Record<string, unknown>>,
    schema: SchemaObject,
    page: PageWithLinks,
    depth: number,
  ): Record<string, unknown> {
    const fields = new Map(Object.entries(source));
    const plan = planOf(schema);
    for (const { name, property, required, value: valueOf } of plan.pageFields) {
      const value = valueOf(page, property);
      if (value === null && !check(property, null)) {
        if (!required) fields.delete(name);
      } else if (value !== undefined && check(property, value)) fields.set(name, value);
    }
    if (depth < 1)
      for (const { name, property } of plan.nested) {
        const inner = fields.get(name);
        if (isJsonObject(inner)) fields.set(name, tellPage(inner, property, page, depth + 1));
      }
    return Object.fromEntries(fields);
  }

  return {
    record(envelope, record) {
      const bytes = serializerFor(envelope.record)(record);
      if (envelope.kind === 'plain') return new CheckedJson(bytes);
      refuseContradiction(envelope);
      return { ...restOf(envelope), [envelope.property]: projectionOf(envelope.record)(record) };
    },
    texts(envelope, texts) {
      const serializer = serializerFor(envelope.record);
      return new RecordTexts(texts, serializer.texts(texts), serializer);
    },
    list(envelope, page) {
      const serialize = serializerFor(envelope.record);
      if (envelope.kind === 'plain') return new RecordList(page.records, serialize);
      // Each record checked (and its JSON kept) as a plain list's would be.
      refuseContradiction(envelope);
      const show = serialize.texts(new TextArray(page.records.map(jsonOf)));
      page.records.forEach((_record, index) => show(index));
      const project = projectionOf(envelope.record);
      const body = { ...restOf(envelope), [envelope.property]: page.records.map(project) };
      return tellPage(body, envelope.wrapper, page, 0);
    },
  };
}

/**
 * The wrapper's schema without the records' property, every constraint it holds kept: a
 * property described in several `allOf` parts is all of them (`errors: <array of messages>` in
 * one part and `errors: {}` in a later one: the later alone lets through what the whole
 * answer refuses), and a required name no part describes is still
 * required.
 */
function restSchemaOf(wrapper: SchemaObject, records: string): SchemaObject {
  const described = definitionsOf(wrapper);
  const required = [...requiredOf(wrapper)].filter((name) => name !== records);
  const properties: Record<string, SchemaObject> = {};
  for (const name of new Set([...described.keys(), ...required])) {
    if (name === records) continue;
    const parts = described.get(name) ?? [];
    properties[name] = parts.length > 1 ? ({ allOf: parts } as SchemaObject) : (parts[0] ?? {});
  }
  return { type: 'object', properties, required } as SchemaObject;
}

/**
 * The fields beside a successful answer's records with no made-up errors: a wrapper's `errors`
 * list (as in `{result, errors, messages, success}`) empty, where its schema allows it.
 * A generated one (`[{code: 1000, message: "H2N"}]` beside `success: true`) is a failure a
 * client would show.
 */
function withoutErrors(
  rest: Record<string, unknown>,
  schema: SchemaObject,
  check: (schema: SchemaObject, value: unknown) => boolean,
): Record<string, unknown> {
  const properties = propertiesOf(schema);
  const cleared = { ...rest };
  for (const name of Object.keys(rest))
    if (/^errors$/i.test(name) && Array.isArray(rest[name]) && check(properties[name] ?? {}, []))
      cleared[name] = [];
  return check(schema, cleared) ? cleared : rest;
}

/**
 * Why a wrapper's records property can hold no value, if its descriptions allow no type in
 * common: a create answer that is the collection envelope (`result: array or null`) and the
 * record's (`result: object`) at once. False when they agree.
 * @example contradictionOf({ allOf: [{ properties: { result: { type: 'array' } } }, { properties: { result: { type: 'object' } } }] }, 'result')
 * // 'the answer that holds "result": it is array in one allOf part and object in another'
 */
function contradictionOf(wrapper: SchemaObject, property: string): string | false {
  // Each part's types as a validator reads them (an integer is a number; an anyOf's arms;
  // nullable): `result: anyOf [object, string]` (nullable) in one part and `result: array` in
  // another. Null in common holds no record.
  const typed = (definitionsOf(wrapper).get(property) ?? [])
    .map((part) => admittedTypes(part))
    .filter((types): types is Set<string> => types !== undefined && types.size > 0);
  let common = [...(typed[0] ?? [])];
  for (const types of typed.slice(1)) {
    const next = common.filter((type) => types.has(type));
    if (next.filter((type) => type !== 'null').length === 0)
      return `the answer that holds "${property}": it is ${shown(common)} in one allOf part and ${shown([...types])} in another`;
    common = next;
  }
  return false;
}

/** Types as a message says them: `integer` left out beside `number`, which admits it. */
function shown(types: readonly string[]): string {
  return types.filter((type) => type !== 'integer' || !types.includes('number')).join(' or ');
}

/** An example that is a URL or a path with a query: `/planets?limit=10&offset=10`. */
const LINK_EXAMPLE = /^(https?:\/\/|\/)\S*$/;

/**
 * Whether a string property holds a link, which a cursor is not: its format says so
 * (`format: uri`), or its examples are URLs or paths.
 */
function isLink(property: SchemaObject): boolean {
  if (typeof property.format === 'string' && /^(uri|uri-reference|iri|url)$/.test(property.format))
    return true;
  const { example, examples } = property as { example?: unknown; examples?: unknown };
  const shown = [example, ...(Array.isArray(examples) ? (examples as unknown[]) : [])];
  return shown.some((value) => typeof value === 'string' && LINK_EXAMPLE.test(value));
}
