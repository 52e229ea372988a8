import { hitCounter, type HitCounts, type PlaceHitCounts } from './coverage-hits.js';
import type { Rule, RuleContext } from './rule.js';
import type { ContractTarget } from './target.js';
import { READ_ONLY_NOTE } from './http.js';
import { newLedger, type Cleanup, type Ledger, type Write } from './ledger.js';
import { withinTime } from './time-bound.js';
import { ContractViolation, RuleSkipped, SetupFailed } from './verdicts.js';

/** How one rule of a run ended, with what it heard: plain data for the report. */
export interface RuleResult {
  /** The rule's name, as the table of rules gives it. */
  name: string;
  /** `failed` holds violations and rules not judged alike: `error.name` tells them apart. */
  state: 'passed' | 'failed' | 'skipped';
  /**
   * What a failed rule threw: its name (`ContractViolation`, `TargetUnavailable`,
   * `BudgetReached`, `SetupFailed`) and message; the clause of the description a violation
   * breaks; and for a rule whose setup step broke the contract, the finding it depends on.
   */
  error?: { name: string; message: string; clause?: string; finding?: string };
  /** Why a skipped rule did not run; none for a rule --read-only skipped. */
  note?: string;
  /** What HTTP recommends and the target does not do: warnings, never failures. */
  advisories: string[];
  /** Answers heard per operation and status, for the run's coverage table. */
  hits: HitCounts;
  /** The same answers by where their requests put credentials. */
  placeHits: PlaceHitCounts;
  /** When the rule started, in milliseconds since the epoch (`performance.timeOrigin` based). */
  startTime: number;
  durationMs: number;
}

/** What a run of the rules gives: each rule's result in order, and an error outside them if one came. */
export interface RunResult {
  rules: RuleResult[];
  /** The first line of an error no rule caught (a promise rejected with nobody waiting on it). */
  broken?: string;
  /** Every request of an unsafe method the rules sent, in order, with its status. */
  writes?: Write[];
  /** What the run deleted of what it created, at its end, and what it left. */
  cleanup?: Cleanup;
}

/** What a run does after its rules: deletes what they created, where the description allows. */
export type CleanUp = (ctx: RuleContext) => Promise<Cleanup>;

/**
 * Runs the rules one after another, in the table's order (some create data that later ones
 * read), each within its time bound, in this process: a plain loop, no test framework.
 * `--read-only` skips the rules that write. One circuit and one memo serve the whole run:
 * a target found unavailable stops the rest of it.
 * @example const { rules } = await runRules(contractRules(plan, target), target);
 */
export async function runRules(
  rules: readonly Rule[],
  target: ContractTarget,
  cleanUp?: CleanUp,
): Promise<RunResult> {
  const shared: Shared = { circuit: {}, memo: new Map(), ledger: newLedger() };
  const results: RuleResult[] = [];
  let broken: string | undefined;
  // A rule's stray error (a promise nobody awaits, a throw in a timer) must not kill the run:
  // it is reported as an error outside the rules, as a test runner reports it.
  const onStray = (err: unknown) => {
    broken ??= firstLine(err);
  };
  process.on('unhandledRejection', onStray);
  process.on('uncaughtException', onStray);
  let cleanup: Cleanup | undefined;
  try {
    for (const rule of rules) results.push(await runRule(rule, target, shared));
    const writes = shared.ledger.writes.length;
    cleanup = await cleanUp?.({ target, advise: () => undefined, ...shared });
    // The clean-up's own deletes are listed as such, not among the rules' writes.
    shared.ledger.writes.splice(writes);
  } finally {
    process.off('unhandledRejection', onStray);
    process.off('uncaughtException', onStray);
  }
  return {
    rules: results,
    ...(broken === undefined ? {} : { broken }),
    writes: shared.ledger.writes,
    ...(cleanup === undefined ? {} : { cleanup }),
  };
}

/** What every rule of a run shares. */
type Shared = Pick<RuleContext, 'circuit' | 'memo'> & { ledger: Ledger };

async function runRule(rule: Rule, target: ContractTarget, shared: Shared): Promise<RuleResult> {
  const startTime = performance.timeOrigin + performance.now();
  const advice = new Set<string>();
  const hits = hitCounter();
  const ended = (outcome: Pick<RuleResult, 'state' | 'error' | 'note'>): RuleResult => ({
    name: rule.name,
    ...outcome,
    advisories: [...advice],
    hits: hits.counts,
    placeHits: hits.byPlaces,
    startTime,
    durationMs: performance.timeOrigin + performance.now() - startTime,
  });
  if (target.readOnly && rule.createsData) return ended({ state: 'skipped', note: READ_ONLY_NOTE });
  try {
    // A little past the generated rules' own bound, which ends them with their findings.
    await withinTime(
      () =>
        rule.check({
          target,
          advise: (text) => advice.add(text),
          seen: hits.seen,
          ...shared,
        }),
      target.ruleTimeMs + target.timeoutMs,
    );
    return ended({ state: 'passed' });
  } catch (err) {
    if (err instanceof RuleSkipped) return ended({ state: 'skipped', note: err.message });
    return ended({ state: 'failed', error: errorOf(err) });
  }
}

function errorOf(err: unknown): NonNullable<RuleResult['error']> {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const clause =
    err instanceof ContractViolation || err instanceof SetupFailed ? err.clause : undefined;
  return {
    name: err.name,
    message: err.message,
    ...(clause === undefined ? {} : { clause }),
    ...(err instanceof SetupFailed ? { finding: err.finding } : {}),
  };
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}
