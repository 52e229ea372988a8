// The contract suite: every rule derived from the spec, against the deployment at the run's
// base URL. Run it with `petstore-kit contract` (or `npm run contract`), which reads the spec
// and hands the suite its plan.
import { describe, inject, it } from 'vitest';
import { hitCounter } from './coverage-hits.js';
import { ADVISORY, SKIP_NOTE } from './reporter.js';
import { contractRules } from './rules.js';
import type { RuleContext } from './rule.js';
import { targetFromSettings } from './target.js';
import { withinTime } from './time-bound.js';
import { RuleSkipped } from './verdicts.js';

const run = inject('contractRun');
if (!run)
  throw new Error(
    'the contract suite runs through `petstore-kit contract`, which gives it the spec and the target',
  );
const target = targetFromSettings(run.settings);
const rules = contractRules(run.plan, target);
// One circuit and one memo for the whole run: a target found unavailable stops the run.
const shared: Pick<RuleContext, 'circuit' | 'memo'> = { circuit: {}, memo: new Map() };

describe(run.plan.title, () => {
  for (const rule of rules) {
    it.skipIf(target.readOnly && rule.createsData)(rule.name, async ({ annotate, skip, task }) => {
      const advice = new Set<string>();
      const hits = hitCounter();
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
      } catch (err) {
        if (!(err instanceof RuleSkipped)) throw err;
        await annotate(err.message, SKIP_NOTE);
        skip(err.message);
      } finally {
        // What the rule exercised, for the run's coverage table.
        task.meta.contractHits = hits.counts;
        task.meta.contractPlaceHits = hits.byPlaces;
        // A warning in the report, passed or failed: never a failure of its own.
        for (const text of advice) await annotate(text, ADVISORY);
      }
    });
  }
});
