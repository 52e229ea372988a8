// The contract suite: every rule derived from the spec, against the deployment at the run's
// base URL. Run it with `petstore-kit contract` (or `npm run contract`), which reads the spec,
// hands the suite its plan and reports what the rules found.
import { contractSuite } from './rules.js';
import { runRules, type RunResult } from './runner.js';
import { targetFromSettings, type ContractRun } from './target.js';

export type { RuleResult, RunResult } from './runner.js';

/**
 * Runs the rules of the run's plan against its target, one after another in this process.
 * @throws {TargetError} when the settings name no usable target (see targetFromSettings).
 * @example const { rules } = await runSuite({ plan, settings: { baseUrl, token, seed: 1, budget: 100, timeoutMs: 10_000, replay: '' } });
 */
export async function runSuite(run: ContractRun): Promise<RunResult> {
  const target = targetFromSettings(run.settings);
  const { rules, cleanUp } = contractSuite(run.plan, target);
  return runRules(rules, target, target.readOnly ? undefined : cleanUp);
}
