// One page of a list, as its documented query parameters ask: the records whose properties
// equal the filters, then the page that the limit and the offset, page or cursor choose.
import type { ListParameters } from '../../openapi/resources.js';
import { errors } from '../../vocabulary/error-catalogue.js';
import type { RecordId, StoredRecord } from '../../store/store.js';

export interface Page {
  /** The records of this page, in the list's order. */
  readonly records: readonly StoredRecord[];
  /** How many records match the filters, on every page together. */
  readonly total: number;
  /** How many matching records come before this page. */
  readonly offset: number;
  /** The most records a page holds, when the request or the spec set one. */
  readonly limit: number | undefined;
  /** The page number, counted as the spec counts them, when the list has page numbers. */
  readonly page: number | undefined;
  /** The cursor of the next page; undefined on the last page. */
  readonly next: string | undefined;
}

/**
 * Selects a page of `records` (every record of the collection, oldest first).
 * @param keyOf the key of a record, for a cursor that names the last record seen (`after=42`).
 * @throws {ApiError} 400 `invalid_cursor` for a cursor the mock did not hand out.
 * @example selectPage(records, { status: 'sold', limit: 2 }, listing, (r) => r.id) // { records: [two sold], total: 7, ... }
 */
export function selectPage(
  records: readonly StoredRecord[],
  query: Readonly<Record<string, unknown>>,
  listing: ListParameters,
  keyOf: (record: StoredRecord) => RecordId,
): Page {
  const matching = filtered(records, query, listing);
  const { paging } = listing;
  const asked = paging.limit === undefined ? undefined : numberIn(query[paging.limit]);
  const limit = asked ?? paging.defaultLimit;
  let offset = 0;
  let page: number | undefined;
  if (paging.offset !== undefined && query[paging.offset] !== undefined)
    offset = numberIn(query[paging.offset]) ?? 0;
  else if (paging.cursor !== undefined && query[paging.cursor] !== undefined)
    offset = offsetOfCursor(paging.cursor, query[paging.cursor], matching, keyOf);
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
  const end = limit === undefined ? matching.length : Math.min(matching.length, offset + limit);
  return {
    records: offset === 0 && end === matching.length ? matching : matching.slice(offset, end),
    total: matching.length,
    offset,
    limit,
    page:
      page ?? (paging.page && limit ? paging.page.first + Math.floor(offset / limit) : undefined),
    next: end < matching.length ? cursorAt(end) : undefined,
  };
}

/**
 * Whether the page `selectPage` would select is every record, in order: no filter set, no
 * limit asked or by default, the first page. A plain list of the whole collection is then
 * sent from the store's texts.
 * @example takesAll({}, listing) // true, unless the spec sets a default limit
 */
export function takesAll(
  query: Readonly<Record<string, unknown>>,
  listing: ListParameters | undefined,
): boolean {
  if (!listing) return true;
  const { paging } = listing;
  for (const [parameter] of listing.filters) if (query[parameter] !== undefined) return false;
  if (paging.defaultLimit !== undefined) return false;
  const set = (name: string | undefined) => name !== undefined && query[name] !== undefined;
  if (set(paging.limit) || set(paging.cursor)) return false;
  if (set(paging.offset) && numberIn(query[paging.offset as string]) !== 0) return false;
  if (paging.page && set(paging.page.name))
    return numberIn(query[paging.page.name]) === paging.page.first;
  return true;
}

/** The records equal to every filter the query sets; a filter given several values takes any. */
function filtered(
  records: readonly StoredRecord[],
  query: Readonly<Record<string, unknown>>,
  listing: ListParameters,
): readonly StoredRecord[] {
  const tests: [string, unknown][] = [];
  for (const [parameter, property] of listing.filters)
    if (query[parameter] !== undefined) tests.push([property, query[parameter]]);
  if (tests.length === 0) return records;
  return records.filter((record) =>
    tests.every(([property, value]) => matches(record[property], value)),
  );
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

/** The offset a cursor stands for: one the mock handed out, or the key of the last record seen. */
function offsetOfCursor(
  name: string,
  cursor: unknown,
  records: readonly StoredRecord[],
  keyOf: (record: StoredRecord) => RecordId,
): number {
  const text = String(cursor);
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  if (
    new RegExp(`^${CURSOR_PREFIX}\\d{1,15}$`).test(decoded) &&
    cursorAt(Number(decoded.slice(1))) === text
  )
    return Number(decoded.slice(1));
  const index = records.findIndex((record) => String(keyOf(record)) === text);
  if (index >= 0) return index + 1;
  throw errors.invalidCursor(name, cursor);
}
