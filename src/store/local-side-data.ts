// The side data of a store of this process (the memory and file stores, and a custom store
// given it by withLocalSideData): documents and bounded lists held in memory, one SideData per
// state, every list of every state under one ListBudget.
import { ListBudget, type BudgetedList } from './list-budget.js';
import type { EntryBounds, EntryCodec, EntrySlots, SideData } from './store.js';

/**
 * The side data of every state of one store: the main state's (`''`) and each scope's.
 * @example const sides = new LocalSides(); await sides.of('alice').writeDocument('settings', {});
 */
export class LocalSides {
  /** One bound for every list of every state. */
  readonly budget = new ListBudget();
  readonly #states = new Map<string, LocalSideData>();

  /** The side data of the main state (`''`) or of a scope, made on first use. */
  of(scope = ''): LocalSideData {
    let side = this.#states.get(scope);
    if (!side) {
      side = new LocalSideData(this.budget);
      this.#states.set(scope, side);
    }
    return side;
  }

  /** Forgets a scope's documents and lists; its lists' entries leave the budget. */
  drop(scope: string): void {
    this.#states.get(scope)?.drop();
    this.#states.delete(scope);
  }
}

/** One state's documents and lists, in memory. */
export class LocalSideData implements SideData {
  // Each document as a promise settled with it, made when written: a document read on every
  // request (the settings) is handed out as the same promise, nothing allocated per read.
  readonly #documents = new Map<string, Promise<unknown>>();
  readonly #lists = new Map<string, LocalList<unknown>>();

  constructor(private readonly budget: ListBudget) {}

  readDocument(name: string): Promise<unknown> {
    return this.#documents.get(name) ?? NONE;
  }

  async writeDocument(name: string, value: unknown): Promise<void> {
    this.#documents.set(name, Promise.resolve(value));
  }

  async deleteDocument(name: string): Promise<void> {
    this.#documents.delete(name);
  }

  pushEntry<T>(list: string, entry: T, codec: EntryCodec<T>, bounds: EntryBounds): void {
    this.#list(list, codec, bounds.capacity).push(entry, bounds);
  }

  // The entries are held as they are: no codec is needed to read them.
  async readEntries<T>(list: string): Promise<{ entries: T[]; pushed: number }> {
    const held = this.#lists.get(list) as LocalList<T> | undefined;
    return held ? held.read() : { entries: [], pushed: 0 };
  }

  async clearEntries(list: string): Promise<void> {
    this.#lists.get(list)?.clear();
  }

  /** Empties every list (their numbers are forgotten too) and forgets the documents. */
  drop(): void {
    for (const list of this.#lists.values()) list.clear();
    this.#lists.clear();
    this.#documents.clear();
  }

  #list<T>(name: string, codec: EntryCodec<T>, capacity: number): LocalList<T> {
    let list = this.#lists.get(name) as LocalList<T> | undefined;
    if (!list) {
      list = new LocalList(codec, capacity, this.budget);
      this.#lists.set(name, list as LocalList<unknown>);
    }
    return list;
  }
}

const NONE = Promise.resolve<unknown>(undefined);

/**
 * A ring of the last `capacity` entries of a list, numbered from 1 (`lastId` the newest), a
 * clear not restarting the numbers; every entry counted in the store's budget, which drops the
 * oldest of any list past its bounds. A push costs the same at the first entry and the
 * millionth, and serializes nothing.
 */
class LocalList<T> implements BudgetedList {
  readonly #slots: EntrySlots<T>;
  /** What each entry counts for in the budget. */
  readonly #costs: Float64Array;
  #next = 0;
  #size = 0;
  #lastId = 0;
  /** The costs of the entries held, together. */
  #held = 0;

  constructor(
    private readonly codec: EntryCodec<T>,
    private readonly capacity: number,
    private readonly budget: ListBudget,
  ) {
    this.#slots = codec.slots?.(capacity) ?? plainSlots<T>(capacity);
    this.#costs = new Float64Array(capacity);
  }

  push(entry: T, bounds: EntryBounds): void {
    const next = this.#next;
    if (this.#size === this.capacity) {
      // The oldest entry's slot is taken over: it leaves the budget.
      const cost = this.#costs[next] ?? 0;
      this.budget.release(1, cost);
      this.#held -= cost;
    }
    this.#lastId++;
    const cost = this.codec.bytes(entry);
    this.#slots.put(next, this.#lastId, entry);
    this.#costs[next] = cost;
    this.#held += cost;
    this.#next = (next + 1) % this.capacity;
    this.#size = Math.min(this.#size + 1, this.capacity);
    this.budget.admit(this, this.#lastId, cost, bounds.whole);
  }

  read(): { entries: T[]; pushed: number } {
    const entries: T[] = [];
    for (let back = 0; back < this.#size; back++) {
      const entry = this.#slots.get(this.#slotOf(back));
      if (entry !== undefined) entries.push(entry);
    }
    return { entries, pushed: this.#lastId };
  }

  clear(): void {
    this.budget.release(this.#size, this.#held);
    this.#slots.clear();
    this.#costs.fill(0);
    this.#next = 0;
    this.#size = 0;
    this.#held = 0;
  }

  holds(id: number): boolean {
    return id > this.#lastId - this.#size && id <= this.#lastId;
  }

  dropOldest(id: number): number {
    if (this.#size === 0 || id !== this.#lastId - this.#size + 1) return 0;
    const slot = this.#slotOf(this.#size - 1);
    const cost = this.#costs[slot] ?? 0;
    this.#slots.empty(slot);
    this.#costs[slot] = 0;
    this.#size -= 1;
    this.#held -= cost;
    return cost;
  }

  /** The ring index of the `back`-th newest entry (0: the newest). */
  #slotOf(back: number): number {
    return (this.#next - 1 - back + this.capacity) % this.capacity;
  }
}

/** Slots that hold each entry by reference. */
function plainSlots<T>(capacity: number): EntrySlots<T> {
  const held = new Array<T | undefined>(capacity).fill(undefined);
  return {
    put: (slot, _id, entry) => void (held[slot] = entry),
    get: (slot) => held[slot],
    empty: (slot) => void (held[slot] = undefined),
    clear: () => void held.fill(undefined),
  };
}
