// The contract suite's own runner: the rules in a plain loop, in order, each within its time
// bound, with what each heard and advised; and the JUnit report the CLI writes of a run.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Rule } from '../contract-tests/rule.js';
import { READ_ONLY_NOTE } from '../contract-tests/http.js';
import { runRules } from '../contract-tests/runner.js';
import type { RunResult, runSuite } from '../contract-tests/suite.js';
import { targetFromSettings, type ContractRun } from '../contract-tests/target.js';
import { ContractViolation, RuleSkipped } from '../contract-tests/verdicts.js';
import { CONTRACT_OPTIONS } from '../src/cli/contract-options.js';
import { junitReport, type JunitCase } from '../src/cli/contract-junit.js';
import type { SuiteResult, SuiteRun } from '../src/cli/contract-suite.js';
import type { Coverage } from '../src/openapi/coverage-table.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The TypeScript files the package ships, its own tests left out. */
function shippedSources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => join(dir, file));
}

/** A target nothing listens on: these rules send no request. */
function target(settings: { readOnly?: boolean; ruleTimeMs?: number; timeoutMs?: number } = {}) {
  return targetFromSettings({
    baseUrl: 'http://127.0.0.1:9/v1',
    seed: 1,
    budget: 0,
    timeoutMs: settings.timeoutMs ?? 1000,
    ruleTimeMs: settings.ruleTimeMs ?? 1000,
    readOnly: settings.readOnly ?? false,
    replay: '',
  });
}

const rule = (name: string, check: Rule['check'], createsData = false): Rule => ({
  name,
  createsData,
  check,
});

describe('the contract runner', () => {
  it('is written alike on both sides of the boundary with the CLI', () => {
    expectTypeOf<SuiteResult>().toEqualTypeOf<RunResult>();
    expectTypeOf<SuiteRun>().toExtend<ContractRun>();
    expectTypeOf<(run: SuiteRun) => Promise<SuiteResult>>().toExtend<typeof runSuite>();
  });

  it('runs the rules one after another in the order of the table, a later one reading what an earlier one made', async () => {
    const ran: string[] = [];
    const { rules, broken } = await runRules(
      [
        rule('createPet: a valid body gets 201', async (ctx) => {
          ran.push('create');
          // Settles after a turn of the event loop: the next rule must still wait for it.
          await new Promise((resolve) => setTimeout(resolve, 10));
          ctx.memo.set('pet', Promise.resolve({ id: 7 }));
        }),
        rule('getPet: the created record is read back', async (ctx) => {
          ran.push('read');
          const pet = (await ctx.memo.get('pet')) as { id: number } | undefined;
          if (pet?.id !== 7) throw new ContractViolation('no record made earlier in the run');
        }),
      ],
      target(),
    );
    expect(ran).toEqual(['create', 'read']);
    expect(rules.map(({ name, state }) => [name, state])).toEqual([
      ['createPet: a valid body gets 201', 'passed'],
      ['getPet: the created record is read back', 'passed'],
    ]);
    expect(broken).toBeUndefined();
    expect(rules[1]!.startTime).toBeGreaterThanOrEqual(rules[0]!.startTime + rules[0]!.durationMs);
  });

  it('tells passed, violated, skipped with its reason and failed by something else apart, and runs on after each', async () => {
    const { rules } = await runRules(
      [
        rule('a', async () => {
          throw new ContractViolation('400 answers where the spec wants 401\nthe exchange');
        }),
        rule('b', async () => {
          throw new RuleSkipped('no basic credential given');
        }),
        rule('c', () => Promise.reject('a plain string')),
        rule('d', async () => undefined),
      ],
      target(),
    );
    expect(rules.map(({ name, state, error, note }) => ({ name, state, error, note }))).toEqual([
      {
        name: 'a',
        state: 'failed',
        error: {
          name: 'ContractViolation',
          message: '400 answers where the spec wants 401\nthe exchange',
        },
        note: undefined,
      },
      { name: 'b', state: 'skipped', error: undefined, note: 'no basic credential given' },
      {
        name: 'c',
        state: 'failed',
        error: { name: 'Error', message: 'a plain string' },
        note: undefined,
      },
      { name: 'd', state: 'passed', error: undefined, note: undefined },
    ]);
  });

  it('skips what writes in a read-only run without running it', async () => {
    let wrote = false;
    const { rules } = await runRules(
      [
        rule(
          'createPet: a valid body gets 201',
          async () => {
            wrote = true;
          },
          true,
        ),
        rule('listPets: answers 200', async () => undefined),
      ],
      target({ readOnly: true }),
    );
    expect(wrote).toBe(false);
    expect(rules.map(({ state, note }) => ({ state, note }))).toEqual([
      { state: 'skipped', note: READ_ONLY_NOTE },
      { state: 'passed', note: undefined },
    ]);
  });

  it('ends a rule that reaches its time bound as not judged, and runs the next', async () => {
    const { rules } = await runRules(
      [rule('slow', () => new Promise<void>(() => undefined)), rule('next', async () => undefined)],
      target({ ruleTimeMs: 50, timeoutMs: 50 }),
    );
    expect(rules[0]).toMatchObject({
      state: 'failed',
      error: { name: 'BudgetReached', message: 'the rule reached its time bound (0.1 s)' },
    });
    expect(rules[1]?.state).toBe('passed');
  });

  it('reports an error no rule caught as an error outside the rules, and runs on', async () => {
    // In a process of its own: vitest counts such an error in its own process as a failure.
    const script = `
      import { runRules } from './contract-tests/runner.ts';
      import { targetFromSettings } from './contract-tests/target.ts';
      const target = targetFromSettings({ baseUrl: 'http://127.0.0.1:9/v1', seed: 1, budget: 0, timeoutMs: 1000, replay: '' });
      const result = await runRules([
        { name: 'a', createsData: false, async check() {
          Promise.reject(new Error('nobody waits on this'));
          setTimeout(() => { throw new Error('thrown in a timer'); });
        } },
        { name: 'b', createsData: false, check: () => new Promise((done) => setTimeout(done, 20)) },
      ], target);
      console.log(JSON.stringify({ broken: result.broken, states: result.rules.map((r) => r.state) }));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: ROOT },
    );
    expect(JSON.parse(stdout)).toEqual({
      broken: 'nobody waits on this',
      states: ['passed', 'passed'],
    });
  });

  it("keeps each rule's advisories once and the answers it heard, by operation, status and credential places", async () => {
    const { rules } = await runRules(
      [
        rule('a', async (ctx) => {
          ctx.advise?.('401 answers carry no WWW-Authenticate header');
          ctx.advise?.('401 answers carry no WWW-Authenticate header');
          ctx.seen?.('listPets', 401, { headers: [], query: [], cookies: [] });
          ctx.seen?.('listPets', 200, {
            authorization: 'bearer',
            headers: [],
            query: [],
            cookies: [],
          });
          throw new ContractViolation('still advised');
        }),
        rule('b', async (ctx) => {
          ctx.seen?.('listPets', 200);
        }),
      ],
      target(),
    );
    expect(rules[0]).toMatchObject({
      advisories: ['401 answers carry no WWW-Authenticate header'],
      hits: { listPets: { '401': 1, '200': 1 } },
      placeHits: {
        listPets: {
          '{"headers":[],"query":[],"cookies":[]}': { '401': 1 },
          '{"authorization":"bearer","headers":[],"query":[],"cookies":[]}': { '200': 1 },
        },
      },
    });
    expect(rules[1]).toMatchObject({ advisories: [], hits: { listPets: { '200': 1 } } });
  });
});

describe('the package and vitest', () => {
  it('neither depends on it at run time nor imports it in what it ships: a project on another Vitest installs one', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies)).not.toContain('vitest');
    expect(Object.keys(manifest.devDependencies)).toContain('vitest');
    const importing = [...shippedSources('src'), ...shippedSources('contract-tests')].filter(
      (file) =>
        /from '(vitest|@vitest\/[^']+)(\/[^']*)?'|import\('vitest|declare module '@?vitest/.test(
          readFileSync(join(ROOT, file), 'utf8'),
        ),
    );
    expect(importing).toEqual([]);
  });
});

describe("the contract command's tunable bounds", () => {
  it('are documented with the flag, variable and default the CLI declares', () => {
    const page = readFileSync(join(ROOT, 'docs/contract-suite.md'), 'utf8').split('\n');
    const { budget, timeout, ruleTimeout } = CONTRACT_OPTIONS;
    for (const row of [budget, timeout, ruleTimeout]) {
      const line = page.find((text) => text.startsWith(`| \`${row.flag}\``));
      expect(line, row.flag).toContain(`\`${row.env}\``);
      expect(line, row.flag).toContain(`(default ${row.default}`);
    }
  });
});

describe('the JUnit report of a contract run', () => {
  const coverage: Coverage = {
    percent: 50,
    covered: 1,
    total: 2,
    schemesCovered: 0,
    schemesTotal: 0,
    operations: [
      {
        operationId: 'listPets',
        method: 'GET',
        path: '/v1/pets',
        statuses: [
          { status: '200', documented: true, hits: 3 },
          { status: '401', documented: true, hits: 0 },
        ],
        schemes: [],
      },
    ],
  };
  const cases: JunitCase[] = [
    { name: 'listPets: answers 200', state: 'passed', durationMs: 12, advisories: ['a "hint"'] },
    {
      name: 'createPet rule 3: a missing credential gets 401',
      state: 'failed',
      message: '400 answers where the spec wants 401\nexpected status 401, got <400>',
      errorType: 'ContractViolation',
      durationMs: 5,
    },
    {
      name: 'createPet: generated bodies',
      state: 'unjudged',
      message: 'the rule reached its time bound (60 s)',
      errorType: 'BudgetReached',
      durationMs: 60_000,
    },
    { name: 'deletePet', state: 'skipped', note: 'no basic credential given', durationMs: 0 },
  ];

  it('holds each rule as a case, failures typed, skips with their reason, advisories as warnings, then the coverage table', () => {
    const xml = junitReport(cases, {
      suite: 'Pets',
      properties: { seed: '7', replay: "petstore-kit contract --base-url 'http://h/v1'" },
      coverage,
      minCoverage: 60,
    });
    expect(xml).toContain(
      '<testsuites name="petstore-kit contract" tests="4" failures="2" errors="0" time="60.017">',
    );
    expect(xml).toMatch(
      /<testsuite name="Pets" timestamp="[^"]+" hostname="[^"]+" tests="4" failures="2" errors="0" skipped="1" time="60.017">/,
    );
    expect(xml).toContain(
      '<properties><property name="seed" value="7"/><property name="replay" value="petstore-kit contract --base-url &apos;http://h/v1&apos;"/></properties>',
    );
    expect(xml).toContain('<property name="warning" value="a &quot;hint&quot;"/>');
    expect(xml).toContain(
      '<failure message="400 answers where the spec wants 401" type="ContractViolation">\n            400 answers where the spec wants 401\nexpected status 401, got &lt;400&gt;\n',
    );
    expect(xml).toContain(
      '<failure message="the rule reached its time bound (60 s)" type="BudgetReached">',
    );
    expect(xml).toContain('<skipped message="no basic credential given"/>');
    expect(xml).toMatch(/<testsuite name="coverage" tests="2" failures="1" skipped="1">/);
    expect(xml).toContain('<testcase classname="coverage" name="--min-coverage 60%">');
    expect(xml.trim().endsWith('</testsuite>\n</testsuites>'.trim())).toBe(true);
  });
});
