/**
 * Work that can be cut into slices (serializing a large list, writing it) shares one budget
 * of CPU time per turn of the event loop: however many lists are being sent, a request that
 * arrives waits behind at most about `budgetMs` of them, not `budgetMs` for each.
 */
export interface TurnBudget {
  /** Resolves once the current turn has time left; call the returned function when the slice ends. */
  slice(): Promise<() => void>;
  /** Whether the slice begun at `started` should end now. */
  spent(started: number): boolean;
}

/**
 * @example
 * const budget = createTurnBudget(4);
 * const done = await budget.slice(); const started = performance.now();
 * while (more && !budget.spent(started)) work();
 * done();
 */
export function createTurnBudget(budgetMs: number): TurnBudget {
  let used = 0;
  let resetQueued = false;
  // Queued when a turn first uses time, it runs at the next turn's check phase, ahead of the
  // slices that yielded during this one: each turn starts with a whole budget.
  const reset = (): void => {
    used = 0;
    resetQueued = false;
  };
  return {
    async slice() {
      while (used >= budgetMs) await new Promise((resolve) => setImmediate(resolve));
      const started = performance.now();
      return () => {
        used += performance.now() - started;
        if (!resetQueued) {
          resetQueued = true;
          setImmediate(reset);
        }
      };
    },
    spent: (started) => used + (performance.now() - started) >= budgetMs,
  };
}
