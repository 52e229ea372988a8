import { hitCounter, type HitCounts, type PlaceHitCounts } from './coverage-hits.js';
import type { Rule, RuleContext } from './rule.js';
import type { ContractTarget } from './target.js';
import { withinTime } from './time-bound.js';
import { RuleSkipped } from './verdicts.js';

/** How one rule of a run ended, with what it heard: plain data for the report. */
export interface RuleResult {
  /** The rule's name, as the table of rules gives it. */
  name: string;
  /** `failed` holds violations and rules not judged alike: `error.name` tells them apart. */
  state: 'passed' | 'failed' | 'skipped';
  /** What a failed rule threw: its name (`ContractViolation`, `TargetUnavailable`, `BudgetReached`) and message. */
  error?: { name: string; message: string };
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
}

/**
 * Runs the rules one after another, in the table's order (some create data that later ones
 * read), each within its time bound, in this process: a plain loop, no test framework.
 * `--read-only` skips the rules that write. One circuit and one memo serve the whole run:
 * a target found unavailable stops the rest of it.
 * @example const { rules } = await runRules(contractRules(plan, target), target);
 */
export async function runRules(rules: readonly Rule[], target: ContractTarget): Promise<RunResult> {
  const shared: Pick<RuleContext, 'circuit' | 'memo'> = { circuit: {}, memo: new Map() };
  const results: RuleResult[] = [];
  let broken: string | undefined;
  // A rule's stray error (a promise nobody awaits, a throw in a timer) must not kill the run:
  // it is reported as an error outside the rules, as a test runner reports it.
  const onStray = (err: unknown) => {
    broken ??= firstLine(err);
  };
  process.on('unhandledRejection', onStray);
  process.on('uncaughtException', onStray);
  try {
    for (const rule of rules) results.push(await runRule(rule, target, shared));
  } finally {
    process.off('unhandledRejection', onStray);
    process.off('uncaughtException', onStray);
  }
  return broken === undefined ? { rules: results } : { rules: results, broken };
}

async function runRule(
  rule: Rule,
  target: ContractTarget,
  shared: Pick<RuleContext, 'circuit' | 'memo'>,
): Promise<RuleResult> {
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
  if (target.readOnly && rule.createsData) return ended({ state: 'skipped' });
  try {
    // A little past the generated rules' own bound, which ends them with their findings.
    await withinTime(
      () =>
        rule.check({
          target,
          advise: (text) => advice.add(text),
          heard: hits.heard,
          ...shared,
        }),
      target.ruleTimeMs + target.timeoutMs,
    );
    return ended({ state: 'passed' });
  } catch (err) {
    if (err instanceof RuleSkipped) return ended({ state: 'skipped', note: err.message });
    return ended({
      state: 'failed',
      error:
        err instanceof Error
          ? { name: err.name, message: err.message }
          : { name: 'Error', message: String(err) },
    });
  }
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}
