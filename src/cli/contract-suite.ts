import { existsSync } from 'node:fs';
import type { ContractPlan } from './contract-plan.js';
import type { HitCounts, PlaceHitCounts } from './contract-coverage.js';

/**
 * The contract suite as the CLI sees it: `runSuite` of contract-tests/suite.ts, its input and
 * its results written again on this side (src/ is compiled apart from the suite, which imports
 * only leaf modules of src/); test/contract-runner.test.ts holds the two equal.
 */
export type RunSuite = (run: SuiteRun) => Promise<SuiteResult>;

/**
 * What the CLI hands the suite: the plan and the run's checked settings.
 * @internal for its tests: no part of the package's surface
 */
export interface SuiteRun {
  plan: ContractPlan;
  settings: {
    baseUrl: string;
    token?: string | undefined;
    basic?: string | undefined;
    credentials?: { scheme: string; scopes?: string[] | undefined; value: string }[] | undefined;
    refusedSchemes?: Record<string, string>;
    readOnly?: boolean;
    seed: number;
    budget: number;
    timeoutMs: number;
    ruleTimeMs?: number | undefined;
    replay: string;
    receiver?: string;
  };
}

/** Each rule's result in the table's order, and an error outside the rules if one came. */
export interface SuiteResult {
  rules: SuiteRuleResult[];
  broken?: string;
  /** Every request of an unsafe method the rules sent (see contract-tests/ledger.ts). */
  writes?: SuiteWrite[];
  /** What the run deleted of what it created, at its end, and what it left. */
  cleanup?: { deletes: SuiteWrite[]; left: { collection: string; count: number; why: string }[] };
}

/** A request that may have changed the target: its method, path under the base URL, status. */
interface SuiteWrite {
  method: string;
  path: string;
  status: number;
}

/** How one rule ended (see contract-tests/runner.ts). */
export interface SuiteRuleResult {
  name: string;
  state: 'passed' | 'failed' | 'skipped';
  error?: { name: string; message: string; clause?: string; finding?: string };
  note?: string;
  advisories: string[];
  hits: HitCounts;
  placeHits: PlaceHitCounts;
  startTime: number;
  durationMs: number;
}

/**
 * Loads the suite: compiled beside this module when the CLI runs from dist/cli/ (`npm run
 * build` compiles contract-tests/ to dist/contract-tests/), else its TypeScript sources, for
 * the CLI run from src/ under tsx.
 * @example const runSuite = await loadSuite(); const { rules } = await runSuite(run);
 */
export async function loadSuite(): Promise<RunSuite> {
  const compiled = new URL('../contract-tests/suite.js', import.meta.url);
  const url = existsSync(compiled)
    ? compiled
    : new URL('../../contract-tests/suite.ts', import.meta.url);
  return ((await import(url.href)) as { runSuite: RunSuite }).runSuite;
}
