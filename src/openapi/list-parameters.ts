// What a list operation's query parameters ask of it: a page (limit and offset, page and
// size, a cursor) and equality filters on record properties, read from their names and types.
import type { SchemaObject } from './load.js';
import type { Operation, Parameter } from './operations.js';
import { wordsOf } from './item-key.js';
import { typesOf } from './schema-parts.js';

/** The parameters that choose a page of a list, by name. */
export interface Paging {
  /** How many records a page holds at most. */
  readonly limit?: string;
  /** How many matching records come before the page. */
  readonly offset?: string;
  /** The page number, counted from `first`. */
  readonly page?: { readonly name: string; readonly first: number };
  /** An opaque position, handed out by the mock with each page. */
  readonly cursor?: string;
  /**
   * The key of a record the page ends before (`before`, `ending_before`):
   * the page before the one that record starts.
   */
  readonly before?: string;
  /** The page size when the request names none: the limit's `default`. */
  readonly defaultLimit?: number;
  /**
   * The most records the answer's array may hold (its `maxItems`): no page holds more, whatever
   * the limit asked (a list documented to hold one holds one).
   */
  readonly maxItems?: number;
}

/** A query parameter that orders a list: its name, and the record property each field it names is. */
interface Sorting {
  readonly name: string;
  /** Field names as the parameter's values write them → record properties. */
  readonly fields: ReadonlyMap<string, string>;
  /**
   * The parameter beside it that says the direction of a field written without one
   * (`order=desc`, `direction=asc`): its enum lists `asc` and `desc`.
   */
  readonly direction?: string;
}

export interface ListParameters {
  readonly paging: Paging;
  /** The parameter that orders the list, when it documents one whose values name record properties. */
  readonly sort?: Sorting;
  /** Query parameters that select records whose property equals their value: parameter → property. */
  readonly filters: ReadonlyMap<string, string>;
}

/** Parameter names, by what they do to a page (tables keyed by what the spec says, never by API). */
const LIMIT =
  /^(\$?top|limit|per_?page|page_?size|size|max_?results|max_?items|max_?records|count|take|first)$/i;
const OFFSET = /^(\$?skip|offset|start|start_?at|start_?index|from)$/i;
const PAGE = /^(page|page_?number|page_?no|page_?index|p)$/i;
const CURSOR =
  /^(cursor|after|starting_?after|page_?token|next_?token|continue|continuation(_?token)?|marker|offset|start_?cursor|page_?cursor)$/i;
const BEFORE = /^(before|ending_?before|before_?id)$/i;
/** Query parameters that never filter, whatever property shares their name. */
/** Parameters that order a list by the fields their values name. */
const SORT = /^(sort|sort_?by|order_?by|ordering)$/i;
/** One term of a sort value: `name`, `-name`, `+name`, `name:desc` (RFC-less, as APIs write them). */
export const SORT_TERM = /^([+-]?)([^:,+\s-][^:,\s]*)(?::(asc|desc))?$/i;
/** A parameter that says the sort's direction, when its enum is asc and desc. */
const DIRECTION = /^(order|direction|dir|sort_?order|sort_?dir(ection)?|order_?dir(ection)?)$/i;
/** The values of a direction parameter, lower-cased. */
const DIRECTIONS = /^(asc|desc|ascending|descending)$/;
const NOT_FILTERS =
  /^(sort|sort_?by|order|order_?by|direction|fields|expand|include|embed|q|query|search|format|lang|locale|api_?key|access_?token)$/i;

/**
 * The number of a list's first page: the page a client gets when it names none (the
 * parameter's `default`) where that is 0 or 1, else 0 where the schema allows it
 * (`minimum: 0`), else 1: the default says where pages start, a minimum only what is let through.
 */
function firstPageOf(schema: SchemaObject): number {
  if (schema.default === 0 || schema.default === 1) return schema.default;
  return schema.minimum === 0 ? 0 : 1;
}

/**
 * The paging and filtering a list operation documents, for records with these properties, in
 * an answer whose records are held by `array` (the answer, or its wrapper's array).
 * @example listParametersOf(listPets, { status: {...}, name: {...} })
 * // { paging: { limit: 'limit', offset: 'offset' }, filters: Map { 'status' => 'status' } }
 */
export function listParametersOf(
  operation: Operation,
  properties: Readonly<Record<string, SchemaObject>>,
  array?: SchemaObject,
): ListParameters {
  const query = operation.parameters.filter((parameter) => parameter.in === 'query');
  const numeric = (parameter: Parameter) =>
    typesOf(parameter.schema).some((type) => type === 'integer' || type === 'number');
  const limit = query.find((p) => LIMIT.test(p.name) && numeric(p));
  const offset = query.find((p) => OFFSET.test(p.name) && numeric(p));
  const page = query.find((p) => PAGE.test(p.name) && numeric(p));
  const cursor = query.find((p) => CURSOR.test(p.name) && !numeric(p) && p !== offset);
  // Only beside a cursor that goes forward (`after` and `before`, `starting_after` and
  // `ending_before`): a `before` alone, or one that is a date, is a
  // time filter (`created before`), which names no record.
  const before = cursor
    ? query.find(
        (p) => BEFORE.test(p.name) && !numeric(p) && !/date/i.test(String(p.schema.format ?? '')),
      )
    : undefined;
  const defaultLimit = limit?.schema.default;
  const paging: Paging = {
    ...(limit ? { limit: limit.name } : {}),
    ...(offset ? { offset: offset.name } : {}),
    ...(page ? { page: { name: page.name, first: firstPageOf(page.schema) } } : {}),
    ...(cursor ? { cursor: cursor.name } : {}),
    ...(before ? { before: before.name } : {}),
    ...(typeof defaultLimit === 'number' && defaultLimit > 0 ? { defaultLimit } : {}),
    ...(typeof array?.maxItems === 'number' && array.maxItems >= 1
      ? { maxItems: array.maxItems }
      : {}),
  };
  const paged = new Set([limit, offset, page, cursor, before].filter((p) => p !== undefined));

  const byWords = new Map(Object.keys(properties).map((name) => [wordsOf(name).join(' '), name]));
  const filters = new Map<string, string>();
  for (const parameter of query) {
    if (paged.has(parameter) || NOT_FILTERS.test(parameter.name)) continue;
    const property = byWords.get(wordsOf(parameter.name).join(' '));
    if (property !== undefined && isScalar(properties[property] ?? {}))
      filters.set(parameter.name, property);
  }
  const sort = sortingOf(query, properties, byWords);
  return sort ? { paging, filters, sort } : { paging, filters };
}

/**
 * The sort parameter of a list, when its schema's `enum` (or its items') lists values that name
 * record properties, bare or in the forms that say a direction (`-sku`, `sku:desc`); without an
 * enum, every scalar property its `pattern` takes in one of those forms (`^[-+]?[a-z_]+$`, or
 * none), each under its own name, snake_case and camelCase.
 */
function sortingOf(
  query: readonly Parameter[],
  properties: Readonly<Record<string, SchemaObject>>,
  byWords: ReadonlyMap<string, string>,
): Sorting | undefined {
  const parameter = query.find((p) => SORT.test(p.name));
  if (!parameter) return undefined;
  const { schema } = parameter;
  const items = (schema as { items?: SchemaObject }).items;
  const values = [...(schema.enum ?? []), ...(items?.enum ?? [])];
  const fields = new Map<string, string>();
  for (const value of values) {
    const field = typeof value === 'string' ? SORT_TERM.exec(value)?.[2] : undefined;
    const property = field === undefined ? undefined : byWords.get(wordsOf(field).join(' '));
    if (field !== undefined && property !== undefined) fields.set(field, property);
  }
  if (values.length === 0) {
    const accepts = patternOf(schema.pattern ?? items?.pattern);
    for (const [name, property] of Object.entries(properties)) {
      if (!isScalar(property)) continue;
      for (const spelling of spellingsOf(name))
        if (
          ['', '-', '+'].some((sign) => accepts(`${sign}${spelling}`)) ||
          accepts(`${spelling}:desc`)
        )
          fields.set(spelling, name);
    }
  }
  if (fields.size === 0) return undefined;
  const direction = query.find(
    (p) =>
      p !== parameter &&
      DIRECTION.test(p.name) &&
      ['asc', 'desc'].every((one) =>
        (p.schema.enum ?? []).some((value) => String(value).toLowerCase() === one),
      ) &&
      (p.schema.enum ?? []).every((value) => DIRECTIONS.test(String(value).toLowerCase())),
  );
  return { name: parameter.name, fields, ...(direction ? { direction: direction.name } : {}) };
}

/** A test of a value against a schema's pattern (ECMA-262, as JSON Schema says); none takes all. */
function patternOf(pattern: unknown): (value: string) => boolean {
  if (typeof pattern !== 'string') return () => true;
  try {
    const expression = new RegExp(pattern, 'u');
    return (value) => expression.test(value);
  } catch {
    // A pattern this engine cannot read tells nothing of the forms: none is inferred.
    return () => false;
  }
}

/** A property's name as a sort value may write it: as is, snake_case, camelCase. */
function spellingsOf(name: string): Set<string> {
  const words = wordsOf(name);
  const camel = words.map((word, i) =>
    i === 0 ? word : `${word[0]?.toUpperCase() ?? ''}${word.slice(1)}`,
  );
  return new Set([name, words.join('_'), camel.join('')]);
}

/** A value a query parameter can be compared with: a scalar, or an array of them (which then contains it). */
function isScalar(schema: SchemaObject): boolean {
  const types = typesOf(schema);
  const items = (schema as { items?: unknown }).items;
  if (types.includes('array') && typeof items === 'object' && items !== null)
    return isScalar(items as SchemaObject);
  if (types.length === 0) return Array.isArray(schema.enum) || 'const' in schema;
  return types.some((type) => ['string', 'integer', 'number', 'boolean'].includes(type));
}
