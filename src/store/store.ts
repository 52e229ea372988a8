/**
 * The one storage interface of the mock. The engine (resources inferred from the spec)
 * talks only to it; the in-memory store is the default, the file store adds persistence,
 * and a store shared by several replicas (for example on Redis) can be added beside them
 * without touching the engine: that is why every operation is asynchronous.
 *
 * A store holds plain JSON records and knows nothing of HTTP or of the spec.
 */

import type { IdKind, JsonRecord, KeyPlace, RecordId } from '../vocabulary/record.js';
import type { Texts } from '../vocabulary/texts.js';

export type { RecordId };

/** A stored record: a JSON object, frozen so that cached serializations of it stay true. */
export type StoredRecord = JsonRecord;

/**
 * What a store needs to know of a collection: its name, where each record holds its id (a
 * property, e.g. `id`, maybe within nested objects: `idWithin`) and the kind of its ids.
 */
export interface CollectionDescriptor extends KeyPlace {
  /** Unique within a store and stable across restarts: persisted records are keyed by it. */
  readonly name: string;
  readonly idKind: IdKind;
}

/** One collection of records, e.g. the categories. */
export interface Collection {
  readonly descriptor: CollectionDescriptor;
  /** Every record, oldest first: a snapshot that later writes leave as it is. */
  list(): Promise<readonly StoredRecord[]>;
  /**
   * Every record's JSON, oldest first, as `list` gives them: a snapshot that later writes
   * leave as it is. Offered by stores that keep records as text, so that a whole list is sent
   * from them, nothing parsed.
   */
  texts?(): Promise<readonly string[]>;
  /**
   * The same texts as the store keeps them (its records' bytes, outside V8's heap), shared by
   * every list until the next write: a list of any size is sent from them with no string made
   * per record. Offered by the stores that keep records' bytes; a promise only when they must
   * be read first (a store of this process hands them at once: a list awaits nothing).
   */
  storedTexts?(): Texts | Promise<Texts>;
  /** The record with this id, or undefined. */
  get(id: RecordId): Promise<StoredRecord | undefined>;
  /**
   * Stores `fields` under a new id, assigned here, and returns the stored record: `fields`
   * plus the id property. Any id property in `fields` is replaced.
   * @param id an id chosen by the caller instead (seeding, for ids that repeat with the
   * seed); one that is taken is an error. Integer counters move past it.
   * @throws {StoreFullError} when the record would take the store past its limits; then nothing is stored.
   * @throws {StoreDiskFullError} or {StoreUnavailableError} when it could not be stored.
   */
  create(fields: Readonly<Record<string, unknown>>, id?: RecordId): Promise<StoredRecord>;
  /**
   * Replaces the record with this id by what `change` returns for it (the id property is
   * kept), atomically: no other write to this record comes between the read and the write.
   * `change` may throw, and then nothing is stored and the error reaches the caller.
   * @returns the stored record, or undefined when there is no record with this id.
   * @throws {StoreFullError} when the new record would take the store past its limits.
   * @throws {StoreDiskFullError} or {StoreUnavailableError} when it could not be stored.
   */
  update(
    id: RecordId,
    change: (current: StoredRecord) => Readonly<Record<string, unknown>>,
  ): Promise<StoredRecord | undefined>;
  /**
   * Removes the record with this id; false when there was none.
   * @throws {StoreDiskFullError} or {StoreUnavailableError} when the removal could not be stored.
   */
  remove(id: RecordId): Promise<boolean>;
}

/** Bounds that keep a long-running mock from eating the machine. */
export interface StoreLimits {
  /**
   * The most records, all collections and all states (scopes) together: a scope's copy of the
   * mark counts once, as the mark's (see MemoryStore.whole).
   * @default DEFAULT_STORE_LIMITS.maxRecords
   */
  maxRecords: number;
  /**
   * The most bytes of stored records, counted as their UTF-8 JSON, all collections and all
   * states (scopes) together, as `maxRecords`.
   * @default DEFAULT_STORE_LIMITS.maxBytes
   */
  maxBytes: number;
}

/**
 * A million records or 256 MiB of JSON: a list of 100,000 categories of 1 KB fits, and a
 * full store stays under about a gigabyte of memory, which a laptop and a CI runner bear.
 */
export const DEFAULT_STORE_LIMITS: StoreLimits = {
  maxRecords: 1_000_000,
  maxBytes: 256 * 1024 * 1024,
};

export interface Store {
  /** The collection of that name, empty the first time it is asked for. */
  collection(descriptor: CollectionDescriptor): Collection;
  /** How many records the store holds, all collections together. */
  count(): Promise<number>;
  /**
   * Remembers the current state (records and id counters) as the one `reset` returns to.
   * The mock calls it once it has loaded or seeded its data.
   */
  markInitial(): Promise<void>;
  /** Back to the state of the last `markInitial` (empty if there was none), ids included. */
  reset(): Promise<void>;
  /** Finishes pending writes and releases files and connections. */
  close(): Promise<void>;
}

/**
 * The one state backend of the mock: everything it keeps, behind one asynchronous interface
 * that the memory, file and Redis stores implement in full. Beside the records of its main
 * state (Store) it holds scopes (the mock's sessions: states of their own, each made as a copy
 * of the marked start-up data, with the same ids), the registry of when each scope was made
 * and used, and the side data of every state: small documents (a state's scenario settings)
 * and bounded lists of entries (its request log). There is one mark for the main state and
 * every scope: `markInitial` of any of them sets it, and every `reset` returns to it. A store
 * of one process keeps its side data in memory; a store several processes share keeps it
 * with the records, so that every replica sees the same. A custom store that implements only
 * Store gets the rest from `withLocalSideData`.
 * @example const alice = backend.scope('alice'); await alice.collection(pets).create({ name: 'Rex' });
 */
export interface StateBackend extends Store {
  /**
   * Whether other processes serve from this store too (Redis): it is then seeded once, at
   * start-up, by the first of them, and its calls get a time budget per request.
   */
  readonly shared: boolean;
  /**
   * The scope of that name: a store of its own over the same storage, made (as a copy of the
   * mark) the first time it is used. Its `close` does nothing: closing this store closes it.
   * @throws {StoreNoScopesError} from a store that keeps no scopes (see withLocalSideData).
   */
  scope(name: string): Store;
  /** The names of the scopes that hold a state, in no particular order. */
  scopeNames(): Promise<string[]>;
  /**
   * Forgets a scope's state and its side data; its next use starts again from the mark.
   * @returns whether the scope held a state.
   */
  dropScope(name: string): Promise<boolean>;
  /**
   * Notes that a scope was used now; the first time, that it was made now (it then holds a
   * state, made from the mark when first read or written).
   * @throws {StoreNoScopesError} from a store that keeps no scopes.
   */
  touchScope(name: string): Promise<void>;
  /** When each scope that holds a state was made and last used (0 for one never touched). */
  scopeUsage(): Promise<ScopeUsage[]>;
  /** The side data of the main state, or of the scope of that name. */
  sideData(scope?: string): SideData;
}

/**
 * What a store keeps beside the records of each of its states: small JSON documents (a
 * state's scenario settings) and bounded lists of entries (its request log).
 */
export interface SideData {
  /**
   * The document of that name, a JSON value; undefined when it was never written (or was
   * deleted). A store of this process hands out what it was given: treat it as read-only.
   */
  readDocument(name: string): Promise<unknown>;
  /** Stores a JSON value under that name; a store of this process keeps it as it is. */
  writeDocument(name: string, value: unknown): Promise<void>;
  deleteDocument(name: string): Promise<void>;
  /**
   * Adds an entry to the front of a list, dropping its oldest past `bounds.capacity`, and past
   * `bounds.whole` (the most entries and bytes of every list of every state of the store
   * together) the oldest entry of any list. Entries are numbered 1, 2, 3... in the order they
   * are pushed, and a clear does not restart the numbers. A promise only when the store is
   * shared: a store of this process adds at once, and the request that logs it awaits nothing.
   */
  pushEntry<T>(
    list: string,
    entry: T,
    codec: EntryCodec<T>,
    bounds: EntryBounds,
  ): void | Promise<void>;
  /**
   * The entries of a list, newest first, and how many were ever pushed to it: the number of
   * the entry at index `i` is `pushed - i`. A snapshot: later pushes leave it as it is.
   */
  readEntries<T>(list: string, codec: EntryCodec<T>): Promise<{ entries: T[]; pushed: number }>;
  /** Empties a list; its numbers go on from where they were. */
  clearEntries(list: string): Promise<void>;
}

/**
 * How the entries of a list are kept: a store of this process holds them as they are (in the
 * slots `slots` makes, if given), a shared one as their JSON.
 */
export interface EntryCodec<T> {
  /** The entry as one JSON text, for a store that keeps it outside the process. */
  encode(entry: T): string;
  /** An entry back from its JSON. */
  decode(json: string): T;
  /** What an entry held in this process counts for against `ListBounds.bytes`. */
  bytes(entry: T): number;
  /** Where a store of this process keeps `capacity` entries; slots of plain references by default. */
  slots?(capacity: number): EntrySlots<T>;
}

/** Room for a list's entries in this process, one slot per entry (a ring). */
export interface EntrySlots<T> {
  put(slot: number, id: number, entry: T): void;
  get(slot: number): T | undefined;
  empty(slot: number): void;
  clear(): void;
}

/** How long a list may grow: its own capacity, and the bound of every list together. */
export interface EntryBounds {
  /** The most entries of this list. */
  capacity: number;
  /** The most entries, and bytes, of every list of every state of the store together. */
  whole: ListBounds;
}

/** The most entries, and bytes of their JSON, that a store's lists hold all together. */
export interface ListBounds {
  entries: number;
  bytes: number;
}

/** When a scope was made and last used, as a store keeps it (a shared one, for every replica). */
export interface ScopeUsage {
  name: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  lastUsedAt: number;
}

/** A shared store that can seed its start-up data again once it is lost (Redis). */
export interface ReseedableStore extends Store {
  /**
   * Seeds the main state again with `fill` when its start-up data is gone, and marks it; when
   * another did so first, resets to that instead.
   * @returns whether this store seeded.
   */
  reseed(fill: () => Promise<void>): Promise<boolean>;
}

/** @example isReseedable(await openRedisStore(url)) // true */
export function isReseedable(store: Store): store is ReseedableStore {
  return typeof (store as Partial<ReseedableStore>).reseed === 'function';
}

/** A write that would take the store past its limits. Nothing of it was stored. */
export class StoreFullError extends Error {
  override name = 'StoreFullError';

  constructor(
    readonly limit: keyof StoreLimits,
    readonly value: number,
  ) {
    super(
      limit === 'maxRecords'
        ? `The mock's store is full: it holds its limit of ${value} records`
        : `The mock's store is full: this write would take it past its limit of ${value} bytes`,
    );
  }
}

/**
 * A scope asked of a store that keeps none: a custom store given the rest of the state
 * backend by `withLocalSideData`. The mock answers that it has no sessions.
 */
export class StoreNoScopesError extends Error {
  override name = 'StoreNoScopesError';

  constructor() {
    super('This store keeps no scopes: sessions need the memory, file or Redis store');
  }
}

/**
 * A create with an id the caller chose that the collection already holds: nothing was stored.
 * Two creates racing with one key meet it, whatever the store.
 * @example if (error instanceof StoreKeyTakenError) answer409(error.collection, error.id);
 */
export class StoreKeyTakenError extends Error {
  override name = 'StoreKeyTakenError';

  constructor(
    readonly collection: string,
    readonly idProperty: string,
    readonly id: RecordId,
  ) {
    super(`${collection} already has a record ${String(id)}`);
  }
}

/**
 * The largest integer id a store hands out: past it JSON numbers (IEEE 754 doubles) no longer
 * tell ids apart, and two records would get one id.
 */
export const MAX_INTEGER_ID = Number.MAX_SAFE_INTEGER;

/**
 * A create in a collection whose integer ids are all handed out (its counter stands at
 * MAX_INTEGER_ID): nothing was stored, and no id is ever handed out twice.
 */
export class StoreIdsExhaustedError extends Error {
  override name = 'StoreIdsExhaustedError';

  constructor(readonly collection: string) {
    super(
      `The mock's store has handed out every integer id of ${collection} up to ${MAX_INTEGER_ID}, the largest a JSON number holds exactly: no id is left for a new record (a reset brings the counter back)`,
    );
  }
}

/**
 * A write that the store's disk had no room for (ENOSPC, EDQUOT). Nothing of it was stored,
 * and a later write succeeds once there is room again.
 * @example if (error instanceof StoreDiskFullError) console.error(error.message);
 */
export class StoreDiskFullError extends Error {
  override name = 'StoreDiskFullError';

  constructor(
    /** What the store writes to, e.g. its data file. */
    readonly path: string,
    options?: ErrorOptions,
  ) {
    super(
      `The mock's data file ${path} is on a full disk (${describeCause(options?.cause)}): nothing of this write was stored; free some space and send it again`,
      options,
    );
  }
}

/**
 * A write that the store cannot take now: its storage failed (EIO), is read-only (EROFS), the
 * process is out of file handles (EMFILE), the store is repairing an earlier failure, or it
 * is closed. Nothing of the write was stored; try again after `retryAfterSeconds`.
 * @example if (error instanceof StoreUnavailableError) res.setHeader('Retry-After', error.retryAfterSeconds);
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  /** What became of the operation. */
  readonly outcome: StoreUnavailableOutcome;

  constructor(
    /** What happened, one line, e.g. `its data file /srv/data.jsonl cannot be written (EIO: i/o error, fdatasync)`. */
    problem: string,
    /** Whole seconds after which a write may succeed; 1 or more. */
    readonly retryAfterSeconds: number,
    options?: ErrorOptions & { outcome?: StoreUnavailableOutcome },
  ) {
    const outcome = options?.outcome ?? 'not-stored';
    super(
      `The mock's store is unavailable: ${problem}; ${OUTCOMES[outcome](retryAfterSeconds)}`,
      options,
    );
    this.outcome = outcome;
  }
}

/**
 * The start-up data a shared store served is no longer in it: its Redis restarted empty, was
 * flushed, or failed over to an empty replica (`gone`), or the prefix now holds data seeded
 * after that (`replaced`). Nothing is read or written until the data is seeded again, by an
 * explicit act: a reset, or a mock started to re-seed.
 * @example if (error instanceof StoreLostError) console.error(error.message);
 */
export class StoreLostError extends StoreUnavailableError {
  override name = 'StoreLostError';

  constructor(
    readonly loss: 'gone' | 'replaced',
    /** The store, e.g. `its Redis at redis://cache:6379/`. */
    where: string,
    kind: 'read' | 'write',
  ) {
    super(
      loss === 'gone'
        ? `the start-up data it served is gone from ${where} (Redis restarted empty, was flushed, or failed over to an empty replica); nothing is served until it is seeded again: POST /__mock/reset, or start a mock with --redis-reseed`
        : `${where} holds start-up data seeded after the data this mock served was lost; restart this mock, or POST /__mock/reset to serve it`,
      RETRY_AFTER_LOST_SECONDS,
      { outcome: kind === 'read' ? 'read' : 'not-stored' },
    );
  }
}

/** Data that was lost comes back only when someone seeds it again: not within a second. */
const RETRY_AFTER_LOST_SECONDS = 5;

/**
 * What became of an operation the store could not complete: a write of which nothing was
 * stored (the default); a write whose fate is unknown (it reached a remote store, whose answer
 * never came back); or a read.
 */
export type StoreUnavailableOutcome = 'not-stored' | 'unknown' | 'read';

const OUTCOMES: Record<StoreUnavailableOutcome, (seconds: number) => string> = {
  'not-stored': (seconds) => `nothing of this write was stored, try again in ${seconds} s`,
  unknown: (seconds) =>
    `this write may or may not have been stored: read the data before sending it again, in ${seconds} s`,
  read: (seconds) => `try again in ${seconds} s`,
};

/** An error's first line (Node's messages start with the code). */
function describeCause(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  return message.split('\n')[0] ?? message;
}
