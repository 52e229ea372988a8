import { BudgetReached } from './verdicts.js';

/**
 * The check of a rule, given at most `ms` milliseconds: every rule ends with a verdict, and a
 * run with its report, whatever the target does. A rule that reaches the bound is not judged
 * (`BudgetReached`), never failed for it: slowness is not a breach of the interface.
 * @throws {BudgetReached} when the time is up first.
 * @example await withinTime(() => rule.check(ctx), 60_000);
 */
export async function withinTime(check: () => Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BudgetReached(`the rule reached its time bound (${ms / 1000} s)`)),
      ms,
    );
  });
  try {
    await Promise.race([check(), timeUp]);
  } finally {
    clearTimeout(timer);
  }
}
