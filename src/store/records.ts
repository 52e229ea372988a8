// What every store does to records the same way: ids, the stored form of a record, its size,
// the limits. The stores differ only in when a write takes effect and where it is kept.
import { randomUUID } from 'node:crypto';
import {
  MAX_INTEGER_ID,
  StoreFullError,
  StoreIdsExhaustedError,
  type CollectionDescriptor,
  type RecordId,
  type StoreLimits,
  type StoredRecord,
} from './store.js';
import { withKeyIn } from '../vocabulary/record.js';
import type { Texts } from '../vocabulary/texts.js';
import { RecordArena } from './record-arena.js';

/**
 * The state of one collection: what a snapshot copies and a reset restores. Each record is
 * kept once, as its JSON's UTF-8 bytes outside V8's heap (RecordArena): a record as an object,
 * its cached serialization and its size, or as a string in a map, costs several times its JSON.
 */
export interface CollectionState {
  /** Each record's JSON, by id, oldest first. */
  records: RecordArena;
  /** The last integer id handed out (or planted): never handed out again. */
  lastId: number;
}

/** How many records and bytes a store holds, all collections together. */
export interface Totals {
  records: number;
  bytes: number;
}

/**
 * The collection states of a store and their totals, kept in step.
 * @example
 * const states = new StoreStates();
 * states.put('categories', 1, '{"id":1,"name":"Dog"}');
 * states.totals; // { records: 1, bytes: 21 }
 */
export class StoreStates {
  readonly byName: Map<string, CollectionState>;
  readonly totals: Totals = { records: 0, bytes: 0 };

  constructor(byName = new Map<string, CollectionState>(), totals?: Totals) {
    this.byName = byName;
    if (totals) Object.assign(this.totals, totals);
    else this.#recount();
  }

  /** The state of the collection of that name, made empty the first time. */
  of(name: string): CollectionState {
    let state = this.byName.get(name);
    if (!state) {
      state = emptyState();
      this.byName.set(name, state);
    }
    return state;
  }

  /**
   * Stores a record's JSON under its id, in place of any record with that id (keeping its position).
   * @param bytes the UTF-8 bytes of `json`, when the caller has counted them.
   */
  put(name: string, id: RecordId, json: string, bytes = Buffer.byteLength(json)): void {
    const previous = this.of(name).records.put(id, json, bytes);
    if (previous === undefined) this.totals.records += 1;
    this.totals.bytes += bytes - (previous ?? 0);
  }

  delete(name: string, id: RecordId): void {
    const state = this.of(name);
    const bytes = state.records.byteLengthOf(id);
    if (bytes === undefined) return;
    this.totals.records -= 1;
    this.totals.bytes -= bytes;
    state.records.delete(id);
  }

  /** A copy that later writes to either leave alone. */
  copy(): StoreStates {
    return new StoreStates(copyStates(this.byName), this.totals);
  }

  #recount(): void {
    this.totals.records = 0;
    this.totals.bytes = 0;
    for (const state of this.byName.values()) {
      this.totals.records += state.records.size;
      this.totals.bytes += state.records.byteLength;
    }
  }
}

/**
 * Every record's JSON, oldest first: one list per state of the collection, shared by every
 * list until the next write (a list being sent holds it, not a copy of its own), made of the
 * store's own bytes.
 * @example textsOf(state) === textsOf(state) // true, until a write
 */
export function textsOf(state: CollectionState): Texts {
  return state.records.texts();
}

/** @example emptyState() // { records: RecordArena {}, lastId: 0 } */
function emptyState(): CollectionState {
  return { records: new RecordArena(), lastId: 0 };
}

/**
 * A copy of every collection state that later writes to either side leave alone.
 * @example const marked = copyStates(states);
 */
function copyStates(states: ReadonlyMap<string, CollectionState>): Map<string, CollectionState> {
  // The records' bytes are never written again: copying the slots is a full copy.
  return new Map(
    [...states].map(([name, state]) => [
      name,
      { records: state.records.copy(), lastId: state.lastId },
    ]),
  );
}

/**
 * Integer ids are numbers, others strings, whatever form a caller gives them in.
 * @example keyOf({ name: 'pets', idProperty: 'id', idKind: 'integer' }, '7') // 7
 */
export function keyOf(descriptor: CollectionDescriptor, id: RecordId): RecordId {
  return descriptor.idKind === 'integer' ? Number(id) : String(id);
}

/**
 * A new id for the collection: the integer after `lastId`, or a UUID that `taken` refuses.
 * Strings of kind `string` are UUIDs too: unique is all that kind promises.
 * @example newId({ name: 'pets', idProperty: 'id', idKind: 'integer' }, 41, () => false) // 42
 */
export function newId(
  descriptor: CollectionDescriptor,
  lastId: number,
  taken: (id: string) => boolean,
): RecordId {
  if (descriptor.idKind === 'integer') {
    if (lastId >= MAX_INTEGER_ID) throw new StoreIdsExhaustedError(descriptor.name);
    return lastId + 1;
  }
  let id: string;
  do id = randomUUID();
  while (taken(id));
  return id;
}

/**
 * Where a stored record carries the JSON text it was made from or stored as: a property no
 * JSON, `Object.keys` or spread sees (a symbol, not enumerable). The answer that sends a record
 * the store has just made or read takes its text from it instead of stringifying it again.
 * Not a module-level memo (global state), nor a WeakMap (one more object per record for the
 * collector).
 */
const STORED_JSON = Symbol('stored JSON');

/** The record, deeply frozen, carrying `json` (which must be its JSON) for `jsonOf`. */
function carrying(record: Record<string, unknown>, json: string): StoredRecord {
  Object.defineProperty(record, STORED_JSON, { value: json });
  return deepFreeze(record);
}

/**
 * The record as stored, frozen, carrying its JSON: the id first in the object that holds it,
 * then the fields (a stale id among them dropped).
 * @example withId(pets, 1, { id: 9, name: 'Rex' }) // { id: 1, name: 'Rex' }
 */
export function withId(
  descriptor: CollectionDescriptor,
  id: RecordId,
  fields: Readonly<Record<string, unknown>>,
): StoredRecord {
  const record = withKeyIn(fields, descriptor, id);
  return carrying(record, JSON.stringify(record));
}

/**
 * A record's JSON: the text it carries when a store made or read it (stringified once), else
 * stringified now.
 * @example jsonOf(recordOf('{"id":1}')) // '{"id":1}', the same string, not stringified again
 */
export function jsonOf(record: StoredRecord): string {
  const carried = (record as { [STORED_JSON]?: unknown })[STORED_JSON];
  return typeof carried === 'string' ? carried : JSON.stringify(record);
}

/**
 * The stored record a JSON text holds, frozen, carrying that text (jsonOf).
 * @example recordOf('{"id":1}') // { id: 1 }
 */
export function recordOf(json: string): StoredRecord {
  return carrying(JSON.parse(json) as Record<string, unknown>, json);
}

/**
 * Refuses a write that changes the totals by these deltas when it would take them past
 * the limits. Shrinking is always allowed, even in a store that is over its limits.
 * @throws {StoreFullError}
 * @example checkRoom(limits, states.totals, 1, sizeOf(record)); // before storing a new record
 */
export function checkRoom(
  limits: StoreLimits,
  totals: Totals,
  records: number,
  bytes: number,
): void {
  if (records > 0 && totals.records + records > limits.maxRecords)
    throw new StoreFullError('maxRecords', limits.maxRecords);
  if (bytes > 0 && totals.bytes + bytes > limits.maxBytes)
    throw new StoreFullError('maxBytes', limits.maxBytes);
}

/**
 * What a scope holding `totals` adds to its store's whole: what it holds beyond the mark it
 * started as a copy of. Its copy of the mark is the mark's records, counted once for the whole
 * store; a scope that removed some of them makes no room for the others.
 * @example beyondMark({ records: 12, bytes: 900 }, { records: 10, bytes: 700 }) // { records: 2, bytes: 200 }
 */
export function beyondMark(totals: Totals, mark: Totals | undefined): Totals {
  return {
    records: Math.max(0, totals.records - (mark?.records ?? 0)),
    bytes: Math.max(0, totals.bytes - (mark?.bytes ?? 0)),
  };
}

/**
 * Refuses a write to a scope that moves its totals by these deltas when it would take the
 * whole store past the limits: only what moves the scope's share beyond the mark counts.
 * @throws {StoreFullError}
 * @example checkScopeRoom(limits, whole, scope.totals, mark.totals, 1, sizeOf(record));
 */
export function checkScopeRoom(
  limits: StoreLimits,
  whole: Totals,
  own: Totals,
  mark: Totals | undefined,
  records: number,
  bytes: number,
): void {
  const before = beyondMark(own, mark);
  const after = beyondMark({ records: own.records + records, bytes: own.bytes + bytes }, mark);
  checkRoom(limits, whole, after.records - before.records, after.bytes - before.bytes);
}

/** @example deepFreeze({ tags: ['a'] }) // the object and its array, both frozen */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
