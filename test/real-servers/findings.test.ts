import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkTable,
  compare,
  countsOf,
  findingsOf,
  precision,
  type JsonReport,
} from './findings.js';

const failure = (first: string, request: string) =>
  `${first}\nexpected status 200, got 400\n\nRequest:  ${request}\n  Accept: application/json\nResponse: 400\n`;

const REPORT: JsonReport = {
  exitCode: 1,
  coverage: {
    operations: [
      { method: 'POST', path: '/api/v2/silences' },
      { method: 'GET', path: '/api/v2/silence/{silenceID}' },
    ],
  },
  rules: [
    {
      name: 'getSilence: answers 200 for `silenceID` naming a record',
      state: 'failed',
      message: failure(
        '400 answers where the spec wants 200',
        'POST http://127.0.0.1:9093/api/v2/silences',
      ),
    },
    {
      name: 'postSilences: a valid body gets 200',
      state: 'failed',
      message: failure(
        '400 answers where the spec wants 200',
        'POST http://127.0.0.1:9093/api/v2/silences',
      ),
    },
    {
      name: 'getSilence: a made-up id gets 404',
      state: 'failed',
      message: failure(
        '500 answers where the spec wants 404',
        'GET http://127.0.0.1:9093/api/v2/silence/abc-1',
      ),
    },
    { name: 'getSilence: a rule without a request', state: 'failed', message: 'it broke' },
    { name: 'getStatus: answers 200', state: 'passed' },
    { name: 'postAlerts: not judged', state: 'unjudged', message: 'refused every body' },
  ],
};

describe('the findings of a real-server run', () => {
  it('are root causes: the failing request by its path template, and what was wrong', () => {
    expect(findingsOf(REPORT)).toEqual([
      {
        finding: 'POST /api/v2/silences: 400 answers where the spec wants 200',
        rules: [
          'getSilence: answers 200 for `silenceID` naming a record',
          'postSilences: a valid body gets 200',
        ],
      },
      {
        finding: 'GET /api/v2/silence/{silenceID}: 500 answers where the spec wants 404',
        rules: ['getSilence: a made-up id gets 404'],
      },
      { finding: 'getSilence: it broke', rules: ['getSilence: a rule without a request'] },
    ]);
  });

  it('fail on a finding the table lacks, count by verdict, and tell rows not found', () => {
    const comparison = compare(findingsOf(REPORT), [
      {
        finding: 'POST /api/v2/silences: 400 answers where the spec wants 200',
        verdict: 'false alarm',
        reason: 'start and end equal',
      },
      {
        finding: 'GET /api/v2/silence/{silenceID}: 500 answers where the spec wants 404',
        verdict: 'true defect',
        reason: 'a 500 for an id that is no UUID',
      },
      { finding: 'gone: fixed', verdict: 'description defect', reason: 'undocumented 422' },
    ]);
    expect(comparison.unknown.map((finding) => finding.finding)).toEqual(['getSilence: it broke']);
    expect(comparison.unseen.map((row) => row.finding)).toEqual(['gone: fixed']);
    const counts = countsOf(comparison.known);
    expect(counts['false alarm']).toEqual({ findings: 1, rules: 2 });
    expect(counts['true defect']).toEqual({ findings: 1, rules: 1 });
    expect(precision(counts, 'findings')).toBe(50);
    expect(precision(counts, 'rules')).toBeCloseTo(100 / 3);
  });

  it('refuse a table row without a known verdict or a reason', () => {
    expect(() => checkTable({ s: [{ finding: 'f', verdict: 'maybe', reason: 'r' }] })).toThrow(
      /"f" has verdict "maybe"/,
    );
    expect(() =>
      checkTable({ s: [{ finding: 'f', verdict: 'true defect', reason: ' ' }] }),
    ).toThrow(/gives no reason/);
  });

  it('hold a committed table that checks', () => {
    const table = JSON.parse(
      readFileSync(new URL('./findings.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(() => checkTable(table)).not.toThrow();
  });
});
