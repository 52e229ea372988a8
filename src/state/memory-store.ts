import { randomUUID } from 'node:crypto';
import {
  DEFAULT_STORE_LIMITS,
  StoreFullError,
  type Collection,
  type CollectionSpec,
  type RecordId,
  type Store,
  type StoreLimits,
  type StoredRecord,
} from './store.js';

export interface MemoryStoreOptions {
  /** @default DEFAULT_STORE_LIMITS */
  limits?: Partial<StoreLimits>;
  /**
   * Records to start with, by collection name, kept as given, ids included (tests plant
   * records this way). Integer ids then count on from the largest.
   */
  initial?: Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>>;
}

/** The state of one collection: what a snapshot copies and a reset restores. */
interface CollectionState {
  records: Map<RecordId, StoredRecord>;
  /** UTF-8 JSON size of each record, for the byte limit. */
  sizes: Map<RecordId, number>;
  /** The last integer id handed out (or planted): never handed out again. */
  lastId: number;
}

/**
 * A store held in memory, lost when the process ends. Every write is applied synchronously
 * before its promise settles, so concurrent creates can never share an id.
 * @example
 * const store = createMemoryStore();
 * await store.collection({ name: 'categories', idProperty: 'id', idKind: 'integer' }).create({ name: 'Dog' });
 * // { id: 1, name: 'Dog' }
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  return new MemoryStore(options);
}

export class MemoryStore implements Store {
  readonly limits: StoreLimits;
  readonly #states = new Map<string, CollectionState>();
  readonly #collections = new Map<string, MemoryCollection>();
  readonly #initial: MemoryStoreOptions['initial'];
  #marked: Map<string, CollectionState> | undefined;
  #records = 0;
  #bytes = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.limits = { ...DEFAULT_STORE_LIMITS, ...options.limits };
    this.#initial = options.initial;
  }

  collection(spec: CollectionSpec): Collection {
    let collection = this.#collections.get(spec.name);
    if (!collection) {
      collection = new MemoryCollection(spec, this);
      this.#collections.set(spec.name, collection);
      if (!this.#states.has(spec.name)) this.#states.set(spec.name, this.#plant(spec));
    }
    return collection;
  }

  async count(): Promise<number> {
    return this.#records;
  }

  async markInitial(): Promise<void> {
    this.#marked = copyStates(this.#states);
  }

  async reset(): Promise<void> {
    this.#states.clear();
    for (const [name, state] of copyStates(this.#marked ?? new Map()))
      this.#states.set(name, state);
    // Collections first asked for after the mark start empty again.
    for (const collection of this.#collections.values()) {
      if (!this.#states.has(collection.spec.name))
        this.#states.set(collection.spec.name, emptyState());
    }
    this.#recount();
  }

  async close(): Promise<void> {}

  /** The state of a collection, for its own methods. */
  stateOf(name: string): CollectionState {
    const state = this.#states.get(name);
    if (!state) throw new Error(`no collection "${name}"`);
    return state;
  }

  /** Accounts for a write that changes the store by these deltas, or refuses it. */
  reserve(records: number, bytes: number): void {
    if (records > 0 && this.#records + records > this.limits.maxRecords)
      throw new StoreFullError('maxRecords', this.limits.maxRecords);
    if (bytes > 0 && this.#bytes + bytes > this.limits.maxBytes)
      throw new StoreFullError('maxBytes', this.limits.maxBytes);
    this.#records += records;
    this.#bytes += bytes;
  }

  #plant(spec: CollectionSpec): CollectionState {
    const state = emptyState();
    for (const given of this.#initial?.[spec.name] ?? []) {
      const record = deepFreeze({ ...given });
      const id = keyOf(spec, record[spec.idProperty] as RecordId);
      const size = sizeOf(record);
      this.reserve(1, size);
      state.records.set(id, record);
      state.sizes.set(id, size);
      if (typeof id === 'number') state.lastId = Math.max(state.lastId, id);
    }
    return state;
  }

  #recount(): void {
    this.#records = 0;
    this.#bytes = 0;
    for (const state of this.#states.values()) {
      this.#records += state.records.size;
      for (const size of state.sizes.values()) this.#bytes += size;
    }
  }
}

class MemoryCollection implements Collection {
  constructor(
    readonly spec: CollectionSpec,
    private readonly store: MemoryStore,
  ) {}

  async list(): Promise<readonly StoredRecord[]> {
    return Array.from(this.store.stateOf(this.spec.name).records.values());
  }

  async get(id: RecordId): Promise<StoredRecord | undefined> {
    return this.store.stateOf(this.spec.name).records.get(keyOf(this.spec, id));
  }

  async create(fields: Readonly<Record<string, unknown>>): Promise<StoredRecord> {
    const state = this.store.stateOf(this.spec.name);
    const id = this.#newId(state);
    const record = withId(this.spec, id, fields);
    const size = sizeOf(record);
    this.store.reserve(1, size);
    if (typeof id === 'number') state.lastId = id;
    state.records.set(id, record);
    state.sizes.set(id, size);
    return record;
  }

  async update(
    id: RecordId,
    change: (current: StoredRecord) => Readonly<Record<string, unknown>>,
  ): Promise<StoredRecord | undefined> {
    const state = this.store.stateOf(this.spec.name);
    const key = keyOf(this.spec, id);
    const current = state.records.get(key);
    if (!current) return undefined;
    const record = withId(this.spec, key, change(current));
    const size = sizeOf(record);
    this.store.reserve(0, size - (state.sizes.get(key) ?? 0));
    state.records.set(key, record);
    state.sizes.set(key, size);
    return record;
  }

  async remove(id: RecordId): Promise<boolean> {
    const state = this.store.stateOf(this.spec.name);
    const key = keyOf(this.spec, id);
    if (!state.records.has(key)) return false;
    this.store.reserve(-1, -(state.sizes.get(key) ?? 0));
    state.records.delete(key);
    state.sizes.delete(key);
    return true;
  }

  #newId(state: CollectionState): RecordId {
    if (this.spec.idKind === 'integer') return state.lastId + 1;
    let id: string;
    do id = randomUUID();
    while (state.records.has(id));
    return id;
  }
}

function emptyState(): CollectionState {
  return { records: new Map(), sizes: new Map(), lastId: 0 };
}

function copyStates(states: ReadonlyMap<string, CollectionState>): Map<string, CollectionState> {
  // Records are frozen: copying the maps is a full copy.
  return new Map(
    [...states].map(([name, state]) => [
      name,
      { records: new Map(state.records), sizes: new Map(state.sizes), lastId: state.lastId },
    ]),
  );
}

/** Integer ids are numbers, others strings, whatever form a caller gives them in. */
function keyOf(spec: CollectionSpec, id: RecordId): RecordId {
  return spec.idKind === 'integer' ? Number(id) : String(id);
}

/** The record as stored: the id first, then the fields (a stale id among them dropped). */
function withId(
  spec: CollectionSpec,
  id: RecordId,
  fields: Readonly<Record<string, unknown>>,
): StoredRecord {
  const record: Record<string, unknown> = { [spec.idProperty]: id };
  for (const [name, value] of Object.entries(fields)) {
    if (name !== spec.idProperty) record[name] = value;
  }
  return deepFreeze(record);
}

function sizeOf(record: StoredRecord): number {
  return Buffer.byteLength(JSON.stringify(record));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
