// One bound for the request logs of a whole mock: the default state's and every session's
// together, in entries and in bytes. Without it each log had its own bound, and a hundred
// sessions held a hundred times it (issue 30).

/** The most the request logs of one mock hold, all states together. */
export interface LogBounds {
  /**
   * Entries, all logs together.
   * @default DEFAULT_LOG_BOUNDS.entries
   */
  entries: number;
  /**
   * Bytes, all logs together, counted as what each entry keeps: its path, its headers, the
   * body sent and the answer's body (each at most 16 KiB) and about 200 bytes besides.
   * @default DEFAULT_LOG_BOUNDS.bytes
   */
  bytes: number;
}

/**
 * Five thousand requests or 32 MiB: five full logs of a thousand, or a hundred sessions' last
 * fifty each; a laptop bears it however many sessions fill up.
 */
export const DEFAULT_LOG_BOUNDS: LogBounds = { entries: 5000, bytes: 32 * 1024 * 1024 };

/** A log as the budget sees it: entries numbered in the order added, the oldest dropped first. */
export interface BudgetedLog {
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
 * @example const budget = new LogBudget({ entries: 5000, bytes: 32 << 20 }); createRequestLog(1000, budget);
 */
export class LogBudget {
  #entries = 0;
  #bytes = 0;
  // The queue, oldest first, as two arrays in step (the log of each entry, its number there):
  // an object per entry would be one more for the collector on the path of every request.
  #logs: BudgetedLog[] = [];
  #ids: number[] = [];
  #head = 0;

  constructor(readonly bounds: LogBounds = DEFAULT_LOG_BOUNDS) {}

  /** How many entries the queue tracks, held or gone: about twice the bound at most. */
  get queued(): number {
    return this.#ids.length - this.#head;
  }

  /** What every log holds together now. */
  get held(): { entries: number; bytes: number } {
    return { entries: this.#entries, bytes: this.#bytes };
  }

  /** Counts an entry a log has added, then drops the oldest of any log until the bounds hold. */
  admit(log: BudgetedLog, id: number, cost: number): void {
    this.#entries += 1;
    this.#bytes += cost;
    this.#logs.push(log);
    this.#ids.push(id);
    while (
      (this.#entries > this.bounds.entries || this.#bytes > this.bounds.bytes) &&
      this.#head < this.#ids.length
    ) {
      const oldest = this.#head++;
      const freed = (this.#logs[oldest] as BudgetedLog).dropOldest(this.#ids[oldest] as number);
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
      const logs: BudgetedLog[] = [];
      const ids: number[] = [];
      for (let i = this.#head; i < this.#ids.length; i++) {
        const log = this.#logs[i] as BudgetedLog;
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
