import {
  checkRoom,
  deepFreeze,
  keyOf,
  newId,
  sizeOf,
  StoreStates,
  withId,
  type CollectionState,
} from './records.js';
import {
  DEFAULT_STORE_LIMITS,
  type Collection,
  type CollectionDescriptor,
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
  #states = new StoreStates();
  readonly #collections = new Map<string, MemoryCollection>();
  readonly #initial: MemoryStoreOptions['initial'];
  #marked: StoreStates | undefined;

  constructor(options: MemoryStoreOptions = {}) {
    this.limits = { ...DEFAULT_STORE_LIMITS, ...options.limits };
    this.#initial = options.initial;
  }

  collection(descriptor: CollectionDescriptor): Collection {
    let collection = this.#collections.get(descriptor.name);
    if (!collection) {
      collection = new MemoryCollection(descriptor, this);
      this.#collections.set(descriptor.name, collection);
      if (!this.#states.byName.has(descriptor.name)) this.#plant(descriptor);
    }
    return collection;
  }

  async count(): Promise<number> {
    return this.#states.totals.records;
  }

  async markInitial(): Promise<void> {
    this.#marked = this.#states.copy();
  }

  async reset(): Promise<void> {
    // Collections first asked for after the mark start empty again: `of` makes them so.
    this.#states = this.#marked?.copy() ?? new StoreStates();
    // Without a mark, the start-up state is what was planted.
    if (!this.#marked)
      for (const collection of this.#collections.values()) this.#plant(collection.descriptor);
  }

  async close(): Promise<void> {}

  /** The states of the collections, for their own methods. */
  get states(): StoreStates {
    return this.#states;
  }

  #plant(descriptor: CollectionDescriptor): void {
    const state = this.#states.of(descriptor.name);
    for (const given of this.#initial?.[descriptor.name] ?? []) {
      const record = deepFreeze({ ...given });
      const id = keyOf(descriptor, record[descriptor.idProperty] as RecordId);
      const size = sizeOf(record);
      checkRoom(this.limits, this.#states.totals, 1, size);
      this.#states.put(descriptor.name, id, record, size);
      if (typeof id === 'number') state.lastId = Math.max(state.lastId, id);
    }
  }
}

class MemoryCollection implements Collection {
  constructor(
    readonly descriptor: CollectionDescriptor,
    private readonly store: MemoryStore,
  ) {}

  async list(): Promise<readonly StoredRecord[]> {
    return Array.from(this.#state().records.values());
  }

  async get(id: RecordId): Promise<StoredRecord | undefined> {
    return this.#state().records.get(keyOf(this.descriptor, id));
  }

  async create(
    fields: Readonly<Record<string, unknown>>,
    chosen?: RecordId,
  ): Promise<StoredRecord> {
    const states = this.store.states;
    const state = states.of(this.descriptor.name);
    const id =
      chosen === undefined
        ? newId(this.descriptor, state.lastId, (taken) => state.records.has(taken))
        : keyOf(this.descriptor, chosen);
    if (chosen !== undefined && state.records.has(id))
      throw new Error(`${this.descriptor.name} already has a record ${String(id)}`);
    const record = withId(this.descriptor, id, fields);
    const size = sizeOf(record);
    checkRoom(this.store.limits, states.totals, 1, size);
    if (typeof id === 'number') state.lastId = Math.max(state.lastId, id);
    states.put(this.descriptor.name, id, record, size);
    return record;
  }

  async update(
    id: RecordId,
    change: (current: StoredRecord) => Readonly<Record<string, unknown>>,
  ): Promise<StoredRecord | undefined> {
    const states = this.store.states;
    const state = states.of(this.descriptor.name);
    const key = keyOf(this.descriptor, id);
    const current = state.records.get(key);
    if (!current) return undefined;
    const record = withId(this.descriptor, key, change(current));
    const size = sizeOf(record);
    checkRoom(this.store.limits, states.totals, 0, size - (state.sizes.get(key) ?? 0));
    states.put(this.descriptor.name, key, record, size);
    return record;
  }

  async remove(id: RecordId): Promise<boolean> {
    const key = keyOf(this.descriptor, id);
    if (!this.#state().records.has(key)) return false;
    this.store.states.delete(this.descriptor.name, key);
    return true;
  }

  #state(): CollectionState {
    return this.store.states.of(this.descriptor.name);
  }
}
