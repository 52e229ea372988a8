// One page of a list, as its documented query parameters ask: the records whose properties
// equal the filters, then the page that the limit and the offset, page or cursor choose.
import type { ListParameters } from '../../openapi/resources.js';
import { SORT_TERM } from '../../openapi/list-parameters.js';
import { errors } from '../../vocabulary/error-catalogue.js';
import type { RecordId, StoredRecord } from '../../store/store.js';

/** Items read by position: an array, or a store's texts (which a page slices with no copy). */
export interface Sequence<T> {
  readonly length: number;
  at(index: number): T | undefined;
  /** The items from `start` to `end` (excluded), of the same kind as these. */
  slice(start: number, end: number): Sequence<T>;
}

export interface PageOf<T, L extends Sequence<T> = readonly T[]> {
  /**
   * The records of this page, in the list's order: the items given, or a slice of them, or
   * (filtered) an array of those that match.
   */
  readonly records: L | readonly T[];
  /** How many records match the filters, on every page together. */
  readonly total: number;
  /** How many matching records come before this page. */
  readonly offset: number;
  /** The most records a page holds, when the request or the spec set one. */
  readonly limit: number | undefined;
  /** The page number, counted as the spec counts them, when the list has page numbers. */
  readonly page: number | undefined;
  /** The cursor of the next page; undefined on the last page, and on a page asked `before` a record. */
  readonly next: string | undefined;
  /**
   * Whether records follow in the direction the page was asked in: after it, or before it for
   * a page asked `before` a record (what a `has_more` says). Undefined: `next` says it.
   */
  readonly more?: boolean;
}

/** A page of records as objects. */
export type Page = PageOf<StoredRecord>;

/**
 * How a page reads the items it selects from: a record's fields (to filter, and to find the
 * key a cursor names), and its key. Items are records, or a store's JSON texts of them, which
 * are parsed only when a filter or a cursor needs their fields.
 */
export interface PageItems<T> {
  fieldsOf(item: T): Readonly<Record<string, unknown>>;
  keyOf(fields: Readonly<Record<string, unknown>>): RecordId;
}

/**
 * Selects a page of `records` (every record of the collection, oldest first, as objects or as
 * JSON texts): the same list when the page is every record (no filter, no limit, the first
 * page), so that a list of the whole collection is still the store's own texts, and a slice of
 * it for a page (the store's texts slice with no copy).
 * @param read how to read an item's fields and key (a cursor may name the last record seen: `after=42`).
 * @throws {ApiError} 400 `invalid_cursor` for a cursor the mock did not hand out.
 * @example selectPage(records, { status: 'sold', limit: 2 }, listing, read) // { records: [two sold], total: 7, ... }
 */
export function selectPage<T, L extends Sequence<T> = readonly T[]>(
  records: L,
  query: Readonly<Record<string, unknown>>,
  listing: ListParameters | undefined,
  read: PageItems<T>,
): PageOf<T, L> {
  if (!listing)
    return {
      records,
      total: records.length,
      offset: 0,
      limit: undefined,
      page: undefined,
      next: undefined,
    };
  const matching = sorted(filtered<T, L>(records, query, listing, read), query, listing, read);
  const { paging } = listing;
  const asked = paging.limit === undefined ? undefined : numberIn(query[paging.limit]);
  const wanted = asked ?? paging.defaultLimit;
  const limit =
    paging.maxItems === undefined ? wanted : Math.min(wanted ?? paging.maxItems, paging.maxItems);
  let offset = 0;
  let page: number | undefined;
  /** Where the page ends, when a `before` says so rather than the limit. */
  let before: number | undefined;
  if (paging.before !== undefined && query[paging.before] !== undefined) {
    before = positionOf(paging.before, query[paging.before], matching, read);
    offset = limit === undefined ? 0 : Math.max(0, before - limit);
  } else if (paging.offset !== undefined && query[paging.offset] !== undefined)
    offset = numberIn(query[paging.offset]) ?? 0;
  else if (paging.cursor !== undefined && query[paging.cursor] !== undefined)
    offset = offsetOfCursor(paging.cursor, query[paging.cursor], matching, read);
  else if (paging.page !== undefined) {
    page = numberIn(query[paging.page.name]) ?? paging.page.first;
    // Without a page size, the first page holds every record and later ones none.
    offset =
      limit === undefined
        ? page > paging.page.first
          ? matching.length
          : 0
        : (page - paging.page.first) * limit;
  }
  offset = Math.max(0, Math.min(offset, matching.length));
  const end =
    before ?? (limit === undefined ? matching.length : Math.min(matching.length, offset + limit));
  return {
    // A slice is of the kind sliced: an array's an array, a store's texts its texts.
    records:
      offset === 0 && end === matching.length
        ? matching
        : (matching.slice(offset, end) as L | readonly T[]),
    total: matching.length,
    offset,
    limit,
    page:
      page ?? (paging.page && limit ? paging.page.first + Math.floor(offset / limit) : undefined),
    // A page asked `before` a record is followed by asking before its own first record (its
    // `first_id`): no cursor or link leads on from it, and it says whether records lie before.
    ...(before === undefined
      ? { next: end < matching.length ? cursorAt(end) : undefined }
      : { next: undefined, more: offset > 0 }),
  };
}

/** The records equal to every filter the query sets; a filter given several values takes any. */
function filtered<T, L extends Sequence<T>>(
  records: L,
  query: Readonly<Record<string, unknown>>,
  listing: ListParameters,
  read: PageItems<T>,
): L | readonly T[] {
  const tests: [string, unknown][] = [];
  for (const [parameter, property] of listing.filters)
    if (query[parameter] !== undefined) tests.push([property, query[parameter]]);
  if (tests.length === 0) return records;
  const matching: T[] = [];
  for (let i = 0; i < records.length; i++) {
    const item = records.at(i) as T;
    const fields = read.fieldsOf(item);
    if (tests.every(([property, value]) => matches(fields[property], value))) matching.push(item);
  }
  return matching;
}

/**
 * The records in the order the sort parameter asks, each of its comma-separated terms a field
 * ascending, or descending with a `-` prefix or a `:desc` suffix; stable, so equal records keep
 * their order. As they are when the list documents no sort or the query sets none.
 */
function sorted<T, L extends Sequence<T>>(
  records: L | readonly T[],
  query: Readonly<Record<string, unknown>>,
  listing: ListParameters,
  read: PageItems<T>,
): L | readonly T[] {
  const { sort } = listing;
  const asked = sort && query[sort.name];
  if (!sort || asked === undefined) return records;
  // A field written without a direction takes the one the direction parameter gives.
  const given = sort.direction === undefined ? undefined : query[sort.direction];
  const fallback = typeof given === 'string' && /^desc/i.test(given) ? -1 : 1;
  const keys: [property: string, sign: number][] = [];
  for (const term of (Array.isArray(asked) ? asked : [asked]).flatMap((one) =>
    String(one).split(','),
  )) {
    const parts = SORT_TERM.exec(term.trim());
    const property = parts ? sort.fields.get(parts[2] ?? '') : undefined;
    if (parts && property !== undefined)
      keys.push([property, directionOf(parts[1], parts[3]) ?? fallback]);
  }
  if (keys.length === 0) return records;
  const rows = Array.from({ length: records.length }, (_, i) => {
    const item = records.at(i) as T;
    return { item, fields: read.fieldsOf(item) };
  });
  rows.sort((a, b) => {
    for (const [property, sign] of keys) {
      const order = compareValues(a.fields[property], b.fields[property]);
      if (order !== 0) return order * sign;
    }
    return 0;
  });
  return rows.map((row) => row.item);
}

/** The direction a sort term writes (a `-` or `+` prefix, an `:asc` or `:desc` suffix): 1, -1 or none. */
function directionOf(sign: string | undefined, suffix: string | undefined): number | undefined {
  if (sign === '-' || suffix?.toLowerCase() === 'desc') return -1;
  if (sign === '+' || suffix?.toLowerCase() === 'asc') return 1;
  return undefined;
}

/** Numbers by value, everything else as text; a record without the field sorts last. */
function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

function matches(actual: unknown, wanted: unknown): boolean {
  if (Array.isArray(wanted)) return wanted.some((one) => matches(actual, one));
  if (Array.isArray(actual)) return actual.some((one) => matches(one, wanted));
  // Query values arrive as text, converted to the parameter's type: compare them as text.
  return actual !== undefined && actual !== null && String(actual) === String(wanted);
}

function numberIn(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : Number(value);
  return value === undefined || !Number.isFinite(number)
    ? undefined
    : Math.max(0, Math.floor(number));
}

const CURSOR_PREFIX = 'o';

/** An opaque cursor: the offset of the next page, encoded. */
function cursorAt(offset: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${offset}`).toString('base64url');
}

/** The position of the record a key names, among the matching records. */
function positionOf<T>(
  name: string,
  key: unknown,
  records: Sequence<T>,
  read: PageItems<T>,
): number {
  const text = String(key);
  for (let i = 0; i < records.length; i++)
    if (String(read.keyOf(read.fieldsOf(records.at(i) as T))) === text) return i;
  throw errors.invalidCursor(name, key);
}

/** The offset a cursor stands for: one the mock handed out, or the key of the last record seen. */
function offsetOfCursor<T>(
  name: string,
  cursor: unknown,
  records: Sequence<T>,
  read: PageItems<T>,
): number {
  const text = String(cursor);
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  if (
    new RegExp(`^${CURSOR_PREFIX}\\d{1,15}$`).test(decoded) &&
    cursorAt(Number(decoded.slice(1))) === text
  )
    return Number(decoded.slice(1));
  for (let i = 0; i < records.length; i++)
    if (String(read.keyOf(read.fieldsOf(records.at(i) as T))) === text) return i + 1;
  throw errors.invalidCursor(name, cursor);
}
