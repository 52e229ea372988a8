// The contract suite against the mock of an OpenAPI 3.2 document: a QUERY operation's bodies,
// and a required `in: querystring` parameter the suite writes as a form, all pass.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Rule, RuleContext } from '../contract-tests/rule.js';
import { contractRules } from '../contract-tests/rules.js';
import { targetFromSettings } from '../contract-tests/target.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { loadSpec } from '../src/openapi/load.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { allPassed, ruleOutcomes } from './contract-helpers.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/openapi-32-methods.yaml', import.meta.url));

let mock: RunningMock;
let rules: Rule[];
let ctx: RuleContext;
beforeAll(async () => {
  mock = await startMock({ spec: SPEC, port: 0, apiKeys: ['k'], seed: 1 });
  const target = targetFromSettings({
    baseUrl: mock.url,
    token: 'k',
    seed: 7,
    budget: 0,
    timeoutMs: 5000,
    replay: '',
  });
  rules = contractRules(buildContractPlan((await loadSpec(SPEC)).resolved), target);
  ctx = { target, advise: () => {}, circuit: {}, memo: new Map() };
});
afterAll(() => mock.close());

it('passes the mock on a QUERY operation and a required querystring', async () => {
  const found = await ruleOutcomes(rules, ctx, /^(searchPets|lookupPets): /);
  expect(Object.keys(found)).toContainEqual(expect.stringMatching(/^lookupPets: answers 200/));
  expect(Object.keys(found)).toContainEqual(
    expect.stringMatching(/^searchPets: a body without `name` gets 4xx/),
  );
  expect(found).toEqual(allPassed(found));
});
