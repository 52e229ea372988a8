// Netlify's API description (Swagger 2.0, a real public one), served by the mock and judged by
// the contract suite: a ticket create documents `422` (and no `400`) for a body it refuses, and
// the mock answered 400; an account's env vars are created from an array, and the suite sent
// `{}` to it.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Rule, RuleContext } from '../contract-tests/rule.js';
import { contractRules } from '../contract-tests/rules.js';
import { targetFromSettings } from '../contract-tests/target.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { loadSpec } from '../src/openapi/load.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { allPassed, ruleOutcomes } from './contract-helpers.js';
import { KEY } from './helpers.js';

const NETLIFY = fileURLToPath(new URL('./fixtures/corpus/netlify/swagger.json', import.meta.url));

let mock: RunningMock;
let rules: Rule[];
let ctx: RuleContext;

beforeAll(async () => {
  mock = await startMock({ spec: NETLIFY, port: 0, apiKeys: [KEY], seed: 1 });
  const target = targetFromSettings({
    baseUrl: mock.url,
    token: KEY,
    seed: 7,
    budget: 0,
    timeoutMs: 10_000,
    replay: '',
  });
  rules = contractRules(buildContractPlan((await loadSpec(NETLIFY)).resolved), target);
  ctx = { target, advise: () => {}, circuit: {}, memo: new Map() };
}, 60_000);
afterAll(() => mock.close());

const outcomes = (name: RegExp) => ruleOutcomes(rules, ctx, name);

describe('the mock and the suite on Netlify’s description', () => {
  it('refuses a body with the 422 the operation documents, not a 400 it does not', async () => {
    const response = await fetch(`${mock.url}/oauth/tickets?client_id=abc`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 42 }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ message: expect.stringContaining('message') });
    const found = await outcomes(/^createTicket: `message` given a number/);
    expect(found).toEqual(allPassed(found));
  });

  it('leaves a body field that repeats the create’s path or query parameter as the address says', () => {
    // `POST /sites/{site_id}/snippets` keeps a snippet under the path's site, whatever the body
    // says: a realistic text sent in the body's `site_id` was answered altered.
    const varied = rules.filter((rule) =>
      /^(createSiteSnippet|createHookBySiteId): a `site_id`/.test(rule.name),
    );
    expect(varied.map((rule) => rule.name)).toEqual([]);
    expect(rules.some((rule) => /^createSiteSnippet: a `title`/.test(rule.name))).toBe(true);
  });

  it('creates env vars from an array, as the operation’s body says', async () => {
    const found = await outcomes(/^createEnvVars: answers 201 for `account_id`/);
    expect(found).toEqual(allPassed(found));
  });
});
