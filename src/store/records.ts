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
import { setField } from '../vocabulary/record.js';

/** The state of one collection: what a snapshot copies and a reset restores. */
export interface CollectionState {
  records: Map<RecordId, StoredRecord>;
  /** UTF-8 JSON size of each record, for the byte limit. */
  sizes: Map<RecordId, number>;
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
 * states.put('categories', 1, Object.freeze({ id: 1, name: 'Dog' }), 19);
 * states.totals; // { records: 1, bytes: 19 }
 */
export class StoreStates {
  readonly byName: Map<string, CollectionState>;
  readonly totals: Totals = { records: 0, bytes: 0 };

  constructor(byName = new Map<string, CollectionState>()) {
    this.byName = byName;
    this.#recount();
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

  /** Stores a record under its id, in place of any record with that id (keeping its position). */
  put(name: string, id: RecordId, record: StoredRecord, size: number): void {
    const state = this.of(name);
    const previous = state.sizes.get(id);
    if (previous === undefined) this.totals.records += 1;
    this.totals.bytes += size - (previous ?? 0);
    state.records.set(id, record);
    state.sizes.set(id, size);
  }

  delete(name: string, id: RecordId): void {
    const state = this.of(name);
    const size = state.sizes.get(id);
    if (size === undefined) return;
    this.totals.records -= 1;
    this.totals.bytes -= size;
    state.records.delete(id);
    state.sizes.delete(id);
  }

  /** A copy that later writes to either leave alone. */
  copy(): StoreStates {
    return new StoreStates(copyStates(this.byName));
  }

  #recount(): void {
    this.totals.records = 0;
    this.totals.bytes = 0;
    for (const state of this.byName.values()) {
      this.totals.records += state.records.size;
      for (const size of state.sizes.values()) this.totals.bytes += size;
    }
  }
}

/** @example emptyState() // { records: Map {}, sizes: Map {}, lastId: 0 } */
export function emptyState(): CollectionState {
  return { records: new Map(), sizes: new Map(), lastId: 0 };
}

/**
 * A copy of every collection state that later writes to either side leave alone.
 * @example const marked = copyStates(states);
 */
export function copyStates(
  states: ReadonlyMap<string, CollectionState>,
): Map<string, CollectionState> {
  // Records are frozen: copying the maps is a full copy.
  return new Map(
    [...states].map(([name, state]) => [
      name,
      { records: new Map(state.records), sizes: new Map(state.sizes), lastId: state.lastId },
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
 * The record as stored, frozen: the id first, then the fields (a stale id among them dropped).
 * @example withId(pets, 1, { id: 9, name: 'Rex' }) // { id: 1, name: 'Rex' }
 */
export function withId(
  descriptor: CollectionDescriptor,
  id: RecordId,
  fields: Readonly<Record<string, unknown>>,
): StoredRecord {
  const record: Record<string, unknown> = { [descriptor.idProperty]: id };
  for (const name of Object.keys(fields))
    if (name !== descriptor.idProperty) setField(record, name, fields[name]);
  return deepFreeze(record);
}

/**
 * The record last stringified, and its JSON. A store counts a new record's bytes with its JSON
 * as it keeps it, and the answer that sends the record serializes it next: that second time is
 * this one. Kept for every record instead (a WeakMap), the JSON was one more object per record
 * for the collector to copy, and one more entry in a weak table, on every create (issue 18).
 */
let lastRecord: StoredRecord | undefined;
let lastJson = '';

/**
 * A stored record's JSON; the last one is kept, for the answer that sends the record the
 * store has just counted. Records are frozen, so the same record is the same JSON.
 * @example jsonOf(record) === jsonOf(record) // the same string, stringified once
 */
export function jsonOf(record: StoredRecord): string {
  if (record === lastRecord) return lastJson;
  const json = JSON.stringify(record);
  if (Object.isFrozen(record)) {
    lastRecord = record;
    lastJson = json;
  }
  return json;
}

/** @example sizeOf({ id: 1 }) // 8, the bytes of '{"id":1}' */
export function sizeOf(record: StoredRecord): number {
  return Buffer.byteLength(jsonOf(record));
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
