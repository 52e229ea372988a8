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
 * Every slice runs in the check phase of a turn, after the turn's I/O, from one dispatch that
 * gives the turn its whole budget: the slices of a turn then add up to `budgetMs` (and the
 * step that crossed it), whatever woke them. Before, a slice woken by I/O (a client draining
 * its socket) ran at once, in the poll phase, on what the last check phase left, and the check
 * phase then got a fresh budget: a turn held up to several budgets of slices, ahead of the
 * requests read in the same poll phase (decisions/033).
 * @example
 * const budget = createTurnBudget(4);
 * const done = await budget.slice(); const started = performance.now();
 * while (more && !budget.spent(started)) work();
 * done();
 */
export function createTurnBudget(budgetMs: number): TurnBudget {
  let used = 0;
  /** The slices of this turn not handed out yet: one at a time, each when the one before ends. */
  let current: (() => void)[] = [];
  /** The slices asked for since this turn's dispatch, in order. */
  let asked: (() => void)[] = [];
  let queued = false;
  const queue = (): void => {
    if (!queued) {
      queued = true;
      setImmediate(dispatch);
    }
  };
  // The next slice starts only once the one before has ended and counted what it used.
  const handOut = (): void => {
    if (current.length === 0) return;
    if (used >= budgetMs) {
      asked = [...current, ...asked];
      current = [];
      queue();
      return;
    }
    (current.shift() as () => void)();
  };
  function dispatch(): void {
    queued = false;
    used = 0;
    // A slice that never ended leaves the others to this dispatch: none waits for it for ever.
    current = [...current, ...asked];
    asked = [];
    if (current.length > 1) queue();
    handOut();
  }
  return {
    slice() {
      return new Promise((resolve) => {
        asked.push(() => {
          const started = performance.now();
          let ended = false;
          resolve(() => {
            if (ended) return;
            ended = true;
            used += performance.now() - started;
            handOut();
          });
        });
        queue();
      });
    },
    spent: (started) => used + (performance.now() - started) >= budgetMs,
  };
}
