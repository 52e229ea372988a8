// The contract suite: every rule of the categories interface, against the deployment at
// BASE_URL. Run it with `npm run contract` or `petstore-kit contract`.
import { describe, inject, it } from 'vitest';
import { ADVISORY } from './reporter.js';
import { contractRules } from './rules.js';
import { loadContractSpec } from './spec.js';
import { targetFromEnv } from './target.js';

const target = targetFromEnv(inject('contractEnv'));
const rules = contractRules(await loadContractSpec(), target);

describe('categories interface', () => {
  for (const rule of rules) {
    it.skipIf(target.readOnly && rule.createsData)(rule.name, async ({ annotate }) => {
      const advice = new Set<string>();
      try {
        await rule.check({ target, advise: (text) => advice.add(text) });
      } finally {
        // A warning in the report, passed or failed: never a failure of its own.
        for (const text of advice) await annotate(text, ADVISORY);
      }
    });
  }
});
