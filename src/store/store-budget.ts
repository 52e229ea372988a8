// How long one request may wait for its store, all its calls together. A request makes several
// store calls one after another (its session, its settings, its records, its log entry): each
// bounded on its own, a store that stops answering would hold the request for the sum of
// their timeouts. The core opens a budget per request; a store that can hang (Redis) spends it.
import { AsyncLocalStorage } from 'node:async_hooks';

/** What is left of a request's time for its store. */
export interface StoreBudget {
  /** The whole budget, for messages. */
  readonly totalMs: number;
  /** What is left; the store's calls spend it. */
  leftMs: number;
}

// The per-request value lives in the async context, not in this constant: an
// AsyncLocalStorage is how a value follows one request through every await without being
// passed down through each store method.
const budgets = new AsyncLocalStorage<StoreBudget>();

/**
 * Runs `work` (the serving of one request) with `totalMs` of store time.
 * @example await withStoreBudget(2000, () => serve(request));
 */
export function withStoreBudget<T>(totalMs: number, work: () => Promise<T>): Promise<T> {
  return budgets.run({ totalMs, leftMs: totalMs }, work);
}

/** The budget of the request being served, if any. */
export function currentStoreBudget(): StoreBudget | undefined {
  return budgets.getStore();
}

/**
 * Runs one store call within what is left of the budget, and spends the time it took.
 * @returns the call's result (`done`), or `done: false` when the budget ran out first.
 * @example const outcome = await spendBudget(budget, () => client.get(key));
 */
export async function spendBudget<T>(
  budget: StoreBudget,
  call: () => Promise<T>,
): Promise<{ done: true; value: T } | { done: false }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const pending = call().then((value) => ({ done: true as const, value }));
  // A call that fails once the budget has run out was answered already: nothing to tell.
  pending.catch(() => undefined);
  try {
    return await Promise.race([
      pending,
      new Promise<{ done: false }>((resolve) => {
        timer = setTimeout(() => resolve({ done: false }), Math.max(0, budget.leftMs));
      }),
    ]);
  } finally {
    clearTimeout(timer);
    budget.leftMs -= performance.now() - started;
  }
}
