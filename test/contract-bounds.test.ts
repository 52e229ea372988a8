// The contract suite always finishes: a server whose fault a generated body finds gets a
// verdict in bounded time, however large the shrink tree of the failing body. Before the
// shrinking was bounded, the long title took over 140 s of CPU with no request sent after the
// first minute; bounded, about 1 s. The limit below is generous: a minute.
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { withinTime } from '../contract-tests/time-bound.js';
import { contractRules } from '../contract-tests/rules.js';
import type { ContractTarget } from '../contract-tests/target.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { loadSpec } from '../src/openapi/load.js';
import { bookshopServer } from './fixtures/bookshop-server.js';
import { KEY } from './helpers.js';

const BOOKSHOP = fileURLToPath(new URL('./fixtures/specs/bookshop.yaml', import.meta.url));

async function generatedRun(
  crashOnTitle: (title: string) => boolean,
  options: { ruleTimeMs?: number; slowMs?: number } = {},
) {
  const plan = buildContractPlan((await loadSpec(BOOKSHOP)).resolved);
  const app = express()
    .use((_req, _res, next) => void setTimeout(next, options.slowMs ?? 0))
    .use(bookshopServer({ apiKey: KEY, crashOnTitle }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const target: ContractTarget = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    credentials: { token: KEY },
    refusedSchemes: {},
    readOnly: false,
    namePrefix: 'contract-bounds',
    timeoutMs: 5_000,
    ruleTimeMs: options.ruleTimeMs ?? 120_000,
    replay: 'petstore-kit contract --seed 1 --budget 100',
    seed: 1,
    budget: 100,
  };
  const ctx = { target, advise: () => {}, circuit: {}, memo: new Map() };
  const failures: string[] = [];
  try {
    for (const rule of contractRules(plan, target)) {
      if (!/createBook.*generated valid bodies/.test(rule.name)) continue;
      await rule.check(ctx).catch((err: Error) => failures.push(`${err.name}: ${err.message}`));
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return failures;
}

describe('generated bodies end with a verdict', () => {
  it.each([
    ['an emoji title', (title: string) => /\p{Extended_Pictographic}/u.test(title)],
    ['a title of thousands of characters', (title: string) => title.length > 1000],
  ])(
    'a server answering 500 to %s is caught',
    async (_what, crashOnTitle) => {
      const failures = await generatedRun(crashOnTitle);
      expect(failures).toEqual([expect.stringMatching(/^ContractViolation: 500 answers/)]);
    },
    60_000,
  );
});

describe('a rule that reaches its time bound', () => {
  it('is not judged, and says how far it got, when its generated cases run out of time', async () => {
    // Every answer 200 ms late: 100 bodies would take 20 s, the bound is half a second.
    const failures = await generatedRun(() => false, { ruleTimeMs: 500, slowMs: 200 });
    expect(failures).toEqual([
      expect.stringMatching(
        /^BudgetReached: generated bodies reached the rule's time bound \(0\.5 s\) after \d+ of 50, all of them kept$/,
      ),
    ]);
  });

  it('is not judged when any check outlasts its bound', async () => {
    const never = () => new Promise<void>(() => {});
    await expect(withinTime(never, 50)).rejects.toMatchObject({
      name: 'BudgetReached',
      message: 'the rule reached its time bound (0.05 s)',
    });
    await expect(withinTime(async () => {}, 50)).resolves.toBeUndefined();
  });
});
