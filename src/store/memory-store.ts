import {
  beyondMark,
  checkRoom,
  checkScopeRoom,
  deepFreeze,
  jsonOf,
  keyOf,
  newId,
  recordOf,
  StoreStates,
  textsOf,
  withId,
  type CollectionState,
  type Totals,
} from './records.js';
import {
  StoreKeyTakenError,
  DEFAULT_STORE_LIMITS,
  type Collection,
  type CollectionDescriptor,
  type RecordId,
  type ScopeUsage,
  type SideData,
  type StateBackend,
  type Store,
  type StoreLimits,
  type StoredRecord,
} from './store.js';
import { keyIn } from '../vocabulary/record.js';
import type { Texts } from '../vocabulary/texts.js';
import { LocalSides } from './local-side-data.js';

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

/**
 * What a memory store and its scopes share: the mark, and the scopes by name. A file store
 * keeps its scopes in memory through one, whose mark is the file store's.
 */
export interface ScopeFamily {
  marked: StoreStates | undefined;
  readonly scopes: Map<string, MemoryStore>;
  /** The scopes used since they were made or dropped: those that hold a state. */
  readonly used: Set<string>;
  /** When each scope was made and last used (touchScope), in milliseconds since the epoch. */
  readonly usage: Map<string, { createdAt: number; lastUsedAt: number }>;
  /** The side data of the main state and of each scope. */
  readonly sides: LocalSides;
  /**
   * The main state's totals (a file store's, its pending writes counted): the base of the
   * store's whole, to which each scope adds what it holds beyond the mark.
   */
  readonly main: () => Totals;
}

export class MemoryStore implements StateBackend {
  readonly limits: StoreLimits;
  /** One process: its side data is kept in memory. */
  readonly shared = false;
  /** Undefined for a scope not used yet (or dropped): it is made from the mark when used. */
  #states: StoreStates | undefined;
  readonly #collections = new Map<string, MemoryCollection>();
  readonly #options: MemoryStoreOptions;
  readonly #family: ScopeFamily;
  /** The scope's name; undefined for the main state. */
  readonly #scopeName: string | undefined;

  constructor(options: MemoryStoreOptions = {}, family?: ScopeFamily, scopeName?: string) {
    this.limits = { ...DEFAULT_STORE_LIMITS, ...options.limits };
    this.#options = options;
    this.#family = family ?? {
      marked: undefined,
      scopes: new Map(),
      used: new Set(),
      usage: new Map(),
      sides: new LocalSides(),
      main: () => this.states.totals,
    };
    this.#scopeName = scopeName;
    this.#states = scopeName === undefined ? new StoreStates() : undefined;
  }

  collection(descriptor: CollectionDescriptor): Collection {
    let collection = this.#collections.get(descriptor.name);
    if (!collection) {
      collection = new MemoryCollection(descriptor, this);
      this.#collections.set(descriptor.name, collection);
      if (this.#states && !this.#states.byName.has(descriptor.name)) this.#plant(descriptor);
    }
    return collection;
  }

  async count(): Promise<number> {
    return this.states.totals.records;
  }

  async markInitial(): Promise<void> {
    this.#family.marked = this.states.copy();
  }

  async reset(): Promise<void> {
    this.#use();
    const marked = this.#family.marked;
    // Collections first asked for after the mark start empty again: `of` makes them so.
    this.#states = marked?.copy() ?? new StoreStates();
    // Without a mark, the start-up state is what was planted.
    if (!marked)
      for (const collection of this.#collections.values()) this.#plant(collection.descriptor);
  }

  async close(): Promise<void> {}

  /** A memory store of its own, made as a copy of the mark; it shares the mark and the scopes. */
  scope(name: string): Store {
    if (typeof name !== 'string' || name === '')
      throw new TypeError('A scope needs a name of one character or more');
    let scope = this.#family.scopes.get(name);
    if (!scope) {
      scope = new MemoryStore(this.#options, this.#family, name);
      this.#family.scopes.set(name, scope);
    }
    return scope;
  }

  async scopeNames(): Promise<string[]> {
    return [...this.#family.used];
  }

  async dropScope(name: string): Promise<boolean> {
    if (!this.#family.used.has(name)) return false;
    // The scope object stays (a caller may hold it): its next use starts from the mark.
    const scope = this.#family.scopes.get(name);
    if (scope) scope.#states = undefined;
    this.#family.used.delete(name);
    this.#family.usage.delete(name);
    this.#family.sides.drop(name);
    return true;
  }

  /** The documents and lists of the main state or of a scope, kept in memory. */
  sideData(scope?: string): SideData {
    return this.#family.sides.of(scope);
  }

  async touchScope(name: string): Promise<void> {
    const now = Date.now();
    const { usage, used } = this.#family;
    usage.set(name, { createdAt: usage.get(name)?.createdAt ?? now, lastUsedAt: now });
    used.add(name);
  }

  async scopeUsage(): Promise<ScopeUsage[]> {
    const { usage, used } = this.#family;
    return [...used].map((name) => ({
      name,
      createdAt: usage.get(name)?.createdAt ?? 0,
      lastUsedAt: usage.get(name)?.lastUsedAt ?? 0,
    }));
  }

  /**
   * What the store holds against its limits, all states together: the main state's records,
   * and each scope's beyond the mark (its copy of the start-up data counts once, as the
   * mark's). So `maxRecords: 20` holds 20 records for the whole mock, however many sessions.
   */
  whole(): Totals {
    const main = this.#family.main();
    // The mock without sessions: nothing to add, nothing made on the path of a create.
    if (this.#family.used.size === 0) return main;
    const mark = this.#family.marked?.totals;
    const whole = { ...main };
    for (const name of this.#family.used) {
      const scope = this.#family.scopes.get(name);
      const states = scope && scope.#states;
      if (!states) continue;
      const beyond = beyondMark(states.totals, mark);
      whole.records += beyond.records;
      whole.bytes += beyond.bytes;
    }
    return whole;
  }

  /**
   * Refuses a write that moves this state's totals by these deltas past the store's limits,
   * counted for the whole store (see `whole`).
   * @throws {StoreFullError}
   */
  checkRoom(records: number, bytes: number): void {
    if (this.#scopeName === undefined) checkRoom(this.limits, this.whole(), records, bytes);
    else
      checkScopeRoom(
        this.limits,
        this.whole(),
        this.states.totals,
        this.#family.marked?.totals,
        records,
        bytes,
      );
  }

  /** The states of the collections, for their own methods. */
  get states(): StoreStates {
    this.#use();
    if (!this.#states) {
      // A scope starts as a copy of the mark, when first used (as a Redis scope does).
      this.#states = this.#family.marked?.copy() ?? new StoreStates();
      for (const collection of this.#collections.values())
        if (!this.#states.byName.has(collection.descriptor.name))
          this.#plant(collection.descriptor);
    }
    return this.#states;
  }

  #use(): void {
    if (this.#scopeName !== undefined) this.#family.used.add(this.#scopeName);
  }

  #plant(descriptor: CollectionDescriptor): void {
    const states = this.states;
    const state = states.of(descriptor.name);
    for (const given of this.#options.initial?.[descriptor.name] ?? []) {
      const record = deepFreeze({ ...given });
      const id = keyOf(descriptor, keyIn(record, descriptor) as RecordId);
      const json = jsonOf(record);
      checkRoom(this.limits, states.totals, 1, Buffer.byteLength(json));
      states.put(descriptor.name, id, json);
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
    return Array.from(this.#state().records.values(), recordOf);
  }

  async texts(): Promise<readonly string[]> {
    return Array.from(this.#state().records.values());
  }

  storedTexts(): Texts {
    return textsOf(this.#state());
  }

  async get(id: RecordId): Promise<StoredRecord | undefined> {
    const json = this.#state().records.get(keyOf(this.descriptor, id));
    return json === undefined ? undefined : recordOf(json);
  }

  create(fields: Readonly<Record<string, unknown>>, chosen?: RecordId): Promise<StoredRecord> {
    // Settled at once, not an async function: a create costs a promise, not a suspended frame.
    try {
      return Promise.resolve(this.#create(fields, chosen));
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  #create(fields: Readonly<Record<string, unknown>>, chosen: RecordId | undefined): StoredRecord {
    const states = this.store.states;
    const state = states.of(this.descriptor.name);
    const id =
      chosen === undefined
        ? newId(this.descriptor, state.lastId, (taken) => state.records.has(taken))
        : keyOf(this.descriptor, chosen);
    if (chosen !== undefined && state.records.has(id))
      throw new StoreKeyTakenError(this.descriptor.name, this.descriptor.idProperty, id);
    const record = withId(this.descriptor, id, fields);
    const json = jsonOf(record);
    const bytes = Buffer.byteLength(json);
    this.store.checkRoom(1, bytes);
    if (typeof id === 'number') state.lastId = Math.max(state.lastId, id);
    states.put(this.descriptor.name, id, json, bytes);
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
    if (current === undefined) return undefined;
    const record = withId(this.descriptor, key, change(recordOf(current)));
    const json = jsonOf(record);
    this.store.checkRoom(0, Buffer.byteLength(json) - Buffer.byteLength(current));
    states.put(this.descriptor.name, key, json);
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
