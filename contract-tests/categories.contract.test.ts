// The contract suite: every rule of the categories interface, against the deployment at
// BASE_URL. Run it with `npm run contract` or `petstore-kit contract`.
import { describe, inject, it } from 'vitest';
import { contractRules } from './rules.js';
import { loadContractSpec } from './spec.js';
import { targetFromEnv } from './target.js';

const target = targetFromEnv(inject('contractEnv'));
const rules = contractRules(await loadContractSpec(), target);

describe('categories interface', () => {
  for (const rule of rules) {
    it.skipIf(target.readOnly && rule.createsData)(rule.name, () => rule.check(target));
  }
});
