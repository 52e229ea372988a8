// One bound for the lists a store of this process keeps (the request logs of a whole mock: the
// default state's and every session's together), in entries and in bytes. Without it each log
// would have its own bound, and a hundred sessions a hundred times it. A shared store
// keeps the same bound in its own storage (redis-log-scripts.ts).
import type { ListBounds } from './store.js';

/** A list as the budget sees it: entries numbered in the order added, the oldest dropped first. */
export interface BudgetedList {
  /** Whether the log still holds entry `id` (not dropped, not cleared). */
  holds(id: number): boolean;
  /** Drops entry `id` when it is the oldest the log holds; returns its cost, or 0 when it was not. */
  dropOldest(id: number): number;
}

/**
 * The shared count of every log of a mock, and the order their entries came in: past a
 * bound, the oldest entry of the whole mock goes, whichever log holds it. The oldest queued
 * entry that a log still holds is that log's oldest (the log's older ones went before it), so
 * dropping it is cheap. Entries a log drops itself (its own capacity, a clear) are released
 * at once and skipped when they come up in the queue.
 * @example const budget = new ListBudget(); budget.admit(list, 1, 300, { entries: 5000, bytes: 32 << 20 });
 */
export class ListBudget {
  #entries = 0;
  #bytes = 0;
  // The queue, oldest first, as two arrays in step (the log of each entry, its number there):
  // an object per entry would be one more for the collector on the path of every request.
  #logs: BudgetedList[] = [];
  #ids: number[] = [];
  #head = 0;

  /** How many entries the queue tracks, held or gone: about twice the bound at most. */
  get queued(): number {
    return this.#ids.length - this.#head;
  }

  /** What every log holds together now. */
  get held(): { entries: number; bytes: number } {
    return { entries: this.#entries, bytes: this.#bytes };
  }

  /** Counts an entry a list has added, then drops the oldest of any list until `bounds` hold. */
  admit(log: BudgetedList, id: number, cost: number, bounds: ListBounds): void {
    this.#entries += 1;
    this.#bytes += cost;
    this.#logs.push(log);
    this.#ids.push(id);
    while (
      (this.#entries > bounds.entries || this.#bytes > bounds.bytes) &&
      this.#head < this.#ids.length
    ) {
      const oldest = this.#head++;
      const freed = (this.#logs[oldest] as BudgetedList).dropOldest(this.#ids[oldest] as number);
      if (freed > 0) this.release(1, freed);
    }
    this.#compact();
  }

  /** Uncounts entries a log dropped on its own (its capacity, a clear). */
  release(entries: number, bytes: number): void {
    this.#entries -= entries;
    this.#bytes -= bytes;
  }

  /**
   * Lets go of the entries dropped from the front of the queue, and forgets those no log holds
   * any more once they outnumber the held ones: the queue stays within about twice the bound.
   */
  #compact(): void {
    const queued = this.#ids.length - this.#head;
    if (queued > 2 * this.#entries + 64) {
      const logs: BudgetedList[] = [];
      const ids: number[] = [];
      for (let i = this.#head; i < this.#ids.length; i++) {
        const log = this.#logs[i] as BudgetedList;
        const id = this.#ids[i] as number;
        if (!log.holds(id)) continue;
        logs.push(log);
        ids.push(id);
      }
      this.#logs = logs;
      this.#ids = ids;
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#ids.length) {
      this.#logs = this.#logs.slice(this.#head);
      this.#ids = this.#ids.slice(this.#head);
      this.#head = 0;
    }
  }
}
