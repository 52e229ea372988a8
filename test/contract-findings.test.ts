// A verdict is a finding, not a count: failures grouped by cause with the clause of the
// description they break and their evidence; a rule whose setup step met a violation is not
// judged, never failed, and is listed under the finding that caused it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { clauseOf } from '../contract-tests/clauses.js';
import type { Exchange } from '../contract-tests/http.js';
import { runRules } from '../contract-tests/runner.js';
import { runSuite } from '../contract-tests/suite.js';
import { targetFromSettings } from '../contract-tests/target.js';
import { asSetup, ContractViolation } from '../contract-tests/verdicts.js';
import { outcomeOf } from '../src/cli/contract-command.js';
import { junitReport } from '../src/cli/contract-junit.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { contractReport, findings, type RuleOutcome } from '../src/cli/contract-report.js';
import { loadSpec } from '../src/openapi/load.js';
import { serveOnFreePort, type Served } from './contract-helpers.js';

const SPEC = new URL('./fixtures/specs/account.yaml', import.meta.url).pathname;
const CAUSE = '500 answers where the spec wants 201';
const CLAUSE = '#/paths/~1notes/post/responses';
const broken = () =>
  new ContractViolation(
    `${CAUSE}\nexpected status 201, got 500\n\nRequest:  POST http://h/api/notes`,
    CLAUSE,
  );

const facts = {
  baseUrl: 'http://h/api',
  replay: 'petstore-kit contract',
  credentialsFrom: 'API_KEY',
  timing: '',
};

describe('findings', () => {
  it('makes a rule whose setup step broke the contract not judged, naming the step and the cause', async () => {
    const target = targetFromSettings({
      baseUrl: 'http://127.0.0.1:9/api',
      seed: 1,
      budget: 0,
      timeoutMs: 1000,
      replay: '',
    });
    const { rules } = await runRules(
      [
        {
          name: 'createNote: a valid body gets 201',
          createsData: true,
          check: () => Promise.reject(broken()),
        },
        {
          name: 'deleteNote: a deleted record is gone',
          createsData: true,
          check: () => asSetup('createNote', () => Promise.reject(broken())),
        },
      ],
      target,
    );
    expect(rules.map(({ state, error }) => ({ state, error }))).toEqual([
      {
        state: 'failed',
        error: { name: 'ContractViolation', message: broken().message, clause: CLAUSE },
      },
      {
        state: 'failed',
        error: {
          name: 'SetupFailed',
          message: `not judged: its setup step (createNote) broke the contract: ${CAUSE}`,
          clause: CLAUSE,
          finding: CAUSE,
        },
      },
    ]);
    expect(rules.map((rule) => outcomeOf(rule, false).state)).toEqual(['failed', 'unjudged']);
  });

  const outcomes: RuleOutcome[] = [
    {
      name: 'createNote: a valid body gets 201',
      state: 'failed',
      message: broken().message,
      clause: CLAUSE,
    },
    {
      name: 'createNote: two creates, two ids',
      state: 'failed',
      message: broken().message,
      clause: CLAUSE,
    },
    ...['deleteNote: a deleted record is gone', 'getNote: a record it holds reads back'].map(
      (name): RuleOutcome => ({
        name,
        state: 'unjudged',
        message: `not judged: its setup step (createNote) broke the contract: ${CAUSE}`,
        clause: CLAUSE,
        finding: CAUSE,
      }),
    ),
    { name: 'listNotes: answers 200', state: 'passed' },
  ];

  it('reports one finding per cause: its rules, the clause it breaks, its evidence, and the rules not judged because of it', () => {
    expect(findings(outcomes)).toEqual([
      {
        cause: CAUSE,
        clause: CLAUSE,
        rules: ['createNote: a valid body gets 201', 'createNote: two creates, two ids'],
        evidence: 'expected status 201, got 500\n\nRequest:  POST http://h/api/notes',
        notJudged: [
          'deleteNote: a deleted record is gone',
          'getNote: a record it holds reads back',
        ],
      },
    ]);
    const report = contractReport(outcomes, facts);
    expect(report.exitCode).toBe(1);
    expect(report.verdict).toBe(
      `petstore-kit contract: does NOT conform: 2 of 5 rules fail; all of them: ${CAUSE}`,
    );
    const text = report.lines.join('\n');
    expect(text).toContain(
      [
        `FAIL  2 rules: ${CAUSE}`,
        `      breaks: ${CLAUSE}`,
        '      createNote: a valid body gets 201',
        '      createNote: two creates, two ids',
        '      and 2 rules not judged because of it (a setup step they need met it):',
        '      deleteNote: a deleted record is gone',
      ].join('\n'),
    );
    // Listed under their cause, not again as a reason of their own.
    expect(text).not.toContain('NOT JUDGED');
  });

  it('is not judged (exit 2) when no rule of the run reports the cause', () => {
    const report = contractReport(
      outcomes.filter((outcome) => outcome.state !== 'failed'),
      facts,
    );
    expect(report.exitCode).toBe(2);
    expect(report.lines.join('\n')).toContain(
      `NOT JUDGED  2 rules: not judged: its setup step (createNote) broke the contract: ${CAUSE}`,
    );
  });

  it('gives JUnit a failing case per finding, and JSON the findings', () => {
    const xml = junitReport(
      outcomes.map((outcome) => ({ ...outcome, durationMs: 1 })),
      {
        suite: 'notes',
        properties: {},
        coverage: {
          percent: 100,
          covered: 0,
          total: 0,
          operations: [],
          schemesCovered: 0,
          schemesTotal: 0,
        } as never,
        findings: findings(outcomes),
      },
    );
    expect(xml).toContain('<testsuite name="findings" tests="1" failures="1"');
    expect(xml).toContain(`<testcase classname="findings" name="${CAUSE}">`);
    expect(xml).toContain(`<failure message="breaks ${CLAUSE}" type="Finding">`);
  });

  it('names the clause: a scheme for a credential let through, a named schema for an answer that does not fit it', async () => {
    const plan = buildContractPlan((await loadSpec(SPEC)).resolved);
    const exchange = (method: string, path: string) =>
      ({ request: { method, path } }) as unknown as Exchange;
    expect(clauseOf(plan, 'wrong credentials let through', exchange('put', '/account'))).toBe(
      '#/components/securitySchemes/bearer',
    );
    expect(
      clauseOf(plan, '401 answers that do not fit the Error schema', exchange('get', '/notes/7')),
    ).toBe('#/components/schemas/Error');
    expect(clauseOf(plan, CAUSE, exchange('post', '/notes'))).toBe(CLAUSE);
    expect(
      clauseOf(
        plan,
        '201 answers without the required location header',
        exchange('post', '/notes'),
      ),
    ).toBe('#/paths/~1notes/post/responses/201/headers/location');
  });
});

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('a run against a deployment whose create is broken', { timeout: 60_000 }, () => {
  it('fails the create’s own rules once, and leaves the rules that need a record not judged: no cascade', async () => {
    served = await serveOnFreePort(
      (req: IncomingMessage, res: ServerResponse) => {
        req.resume();
        req.on('end', () => {
          const path = (req.url ?? '').split('?')[0];
          const ok = req.headers.authorization === 'Bearer k';
          const [status, body] = !ok
            ? [401, { message: 'no valid credential' }]
            : req.method === 'GET' && path === '/api/notes'
              ? [200, []]
              : req.method === 'GET' && path === '/api/account'
                ? [200, { email: 'ada@example.com', bio: 'b' }]
                : req.method === 'POST' && path === '/api/notes'
                  ? [500, { message: 'the database is read-only' }]
                  : [404, { message: 'no such thing' }];
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        });
      },
      { path: '/api' },
    );
    const plan = buildContractPlan((await loadSpec(SPEC)).resolved);
    const { rules } = await runSuite({
      plan,
      settings: {
        baseUrl: served.url,
        token: 'k',
        seed: 1,
        budget: 0,
        timeoutMs: 5000,
        replay: '',
      },
    });
    const outcomes = rules.map((rule) => outcomeOf(rule, false));
    const found = findings(outcomes).find((finding) => finding.cause === CAUSE);
    expect(found?.clause).toBe(CLAUSE);
    // The rules that need a note to read, delete or list wait on the create: not judged.
    expect(found?.notJudged).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^deleteNote: a deleted record is gone/),
        expect.stringMatching(/^getNote: a record it holds reads back/),
        expect.stringMatching(/^listNotes: the list holds every record/),
      ]),
    );
    // What failed for that cause are the create's own rules.
    expect(found?.rules.every((name) => name.startsWith('createNote'))).toBe(true);
  });
});
