// The contract suite against the mock of a description in OpenAI's style, whose creates answer
// JSON or, with `"stream": true` in the body, Server-Sent Events: every rule that asks for the
// JSON answer sends `stream: false`, the stream rules send `true`, and a correct server passes
// them all (before, the create rules sent `stream: true` at random and failed it).
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RuleContext } from '../contract-tests/rule.js';
import { contractRules } from '../contract-tests/rules.js';
import { targetFromSettings } from '../contract-tests/target.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { loadSpec } from '../src/openapi/load.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { allPassed, ruleOutcomes } from './contract-helpers.js';
import { QUICK_SHUTDOWN } from './helpers.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/streams-31.yaml', import.meta.url));

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ ...QUICK_SHUTDOWN, spec: SPEC, port: 0, apiKeys: ['k'], seed: 1 });
});
afterAll(() => mock.close());

it('passes the mock on creates that answer JSON or a stream, as the body asks', async () => {
  const target = targetFromSettings({
    baseUrl: mock.url,
    token: 'k',
    seed: 1,
    budget: 0,
    timeoutMs: 5000,
    replay: '',
  });
  const rules = contractRules(buildContractPlan((await loadSpec(SPEC)).resolved), target);
  const ctx: RuleContext = { target, advise: () => {}, circuit: {}, memo: new Map() };
  const found = await ruleOutcomes(rules, ctx, /^(createChatCompletion|createResponse): /);
  expect(Object.keys(found)).toContainEqual(
    expect.stringMatching(/^createChatCompletion: streams text\/event-stream/),
  );
  expect(Object.keys(found)).toContainEqual(
    expect.stringMatching(/^createChatCompletion: each create gets a new id/),
  );
  expect(found).toEqual(allPassed(found));
});
