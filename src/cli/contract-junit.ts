import { hostname } from 'node:os';
import type { Coverage } from '../openapi/coverage-table.js';
import {
  floorShortfall,
  type Finding,
  type ReportFacts,
  type RuleOutcome,
  type WriteLine,
} from './contract-report.js';
import { coverageReport } from './coverage-report.js';

/** A rule as JUnit shows it: its outcome, how long it took, and what its failure was called. */
export interface JunitCase extends RuleOutcome {
  durationMs: number;
  /** The name of what a failed or unjudged rule threw, e.g. `ContractViolation`. */
  errorType?: string | undefined;
}

/** What the JUnit report says besides the rules. */
export interface JunitFacts {
  /** The name of the rules' test suite: the spec's title. */
  suite: string;
  /**
   * Shown as the rules' suite's properties, which JUnit readers (Jenkins, GitLab) display: the
   * seed, the base URL and the replay command, so that the report alone tells how to run it again.
   */
  properties: Record<string, string>;
  coverage: Coverage;
  minCoverage?: number | undefined;
  /** The run's failures by cause: a test suite of their own, one failing case per finding. */
  findings?: readonly Finding[];
  /** Every request of an unsafe method the run sent, and what its clean-up deleted and left. */
  writes?: readonly WriteLine[];
  cleanup?: ReportFacts['cleanup'];
}

/**
 * The JUnit XML of a contract run: the rules as one test suite (a rule not judged is a failure
 * typed `TargetUnavailable` or `BudgetReached`, its advisories `warning` properties), then the
 * coverage table as a suite of its own, a missed status a skipped case; below `--min-coverage`
 * it holds a failing case that says by how much.
 * @example await writeFile('contract.xml', junitReport(cases, facts))
 */
export function junitReport(cases: readonly JunitCase[], facts: JunitFacts): string {
  const failures = cases.filter((c) => c.state === 'failed' || c.state === 'unjudged').length;
  const skipped = cases.filter((c) => c.state === 'skipped').length;
  const time = seconds(cases.reduce((sum, c) => sum + c.durationMs, 0));
  const properties = Object.entries(facts.properties)
    .map(([name, value]) => `<property name="${xml(name)}" value="${xml(value)}"/>`)
    .join('');
  const lines = [
    '<?xml version="1.0" encoding="UTF-8" ?>',
    `<testsuites name="petstore-kit contract" tests="${cases.length}" failures="${failures}" errors="0" time="${time}">`,
    `    <testsuite name="${xml(facts.suite)}" timestamp="${new Date().toISOString()}" hostname="${xml(hostname())}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}">`,
    `<properties>${properties}</properties>`,
    ...cases.flatMap((c) => testcase(c, facts.suite)),
    ...writesOutput(facts),
    '    </testsuite>',
    ...findingsSuite(facts.findings ?? []),
  ];
  return `${lines.join('\n')}\n${coverageSuite(facts.coverage, facts.minCoverage)}</testsuites>\n`;
}

/**
 * The findings as a suite of their own: one failing case per cause, named after it, its
 * message the clause it breaks, its body the rules it failed, the rules not judged because of
 * it, and the evidence.
 */
function findingsSuite(found: readonly Finding[]): string[] {
  if (found.length === 0) return [];
  return [
    `    <testsuite name="findings" tests="${found.length}" failures="${found.length}" errors="0" skipped="0">`,
    ...found.flatMap((finding) => [
      `        <testcase classname="findings" name="${xml(finding.cause)}">`,
      `            <failure message="${xml(finding.clause ? `breaks ${finding.clause}` : finding.cause)}" type="Finding">`,
      xml(
        [
          `${finding.rules.length} rule(s) fail:`,
          ...finding.rules.map((name) => `  ${name}`),
          ...(finding.notJudged.length > 0
            ? [
                `${finding.notJudged.length} rule(s) not judged because of it:`,
                ...finding.notJudged.map((name) => `  ${name}`),
              ]
            : []),
          '',
          finding.evidence,
        ].join('\n'),
      ),
      '            </failure>',
      '        </testcase>',
    ]),
    '    </testsuite>',
  ];
}

/** The run's writes and clean-up as the rules' suite's output, for a CI log to keep. */
function writesOutput(facts: JunitFacts): string[] {
  const writes = facts.writes ?? [];
  if (writes.length === 0) return [];
  const line = ({ method, path, status }: WriteLine) => `${method} ${path} ${status}`;
  const text = [
    `writes (${writes.length}):`,
    ...writes.map(line),
    ...(facts.cleanup
      ? [
          `cleaned up (${facts.cleanup.deletes.length}):`,
          ...facts.cleanup.deletes.map(line),
          ...facts.cleanup.left.map(
            ({ collection, count, why }) => `left ${count} of ${collection}: ${why}`,
          ),
        ]
      : []),
  ];
  return [`<system-out>${xml(text.join('\n'))}</system-out>`];
}

function testcase(c: JunitCase, classname: string): string[] {
  const inner: string[] = [];
  if (c.state === 'skipped') inner.push(`<skipped message="${xml(c.note ?? 'skipped')}"/>`);
  if (c.advisories && c.advisories.length > 0)
    inner.push(
      '<properties>',
      ...c.advisories.map((text) => `    <property name="warning" value="${xml(text)}"/>`),
      '</properties>',
    );
  if (c.state === 'failed' || c.state === 'unjudged') {
    const message = c.message ?? 'failed';
    inner.push(
      `<failure message="${xml(message.split('\n')[0] ?? '')}" type="${xml(c.errorType ?? 'Error')}">`,
      xml(message),
      '</failure>',
    );
  }
  return [
    `        <testcase classname="${xml(classname)}" name="${xml(c.name)}" time="${seconds(c.durationMs)}">`,
    ...inner.map((line) => `            ${line}`),
    '        </testcase>',
  ];
}

/** The coverage table's own suite, with a failing case when the run is below its floor. */
function coverageSuite(coverage: Coverage, minCoverage: number | undefined): string {
  let suite = coverageReport(coverage, 'junit').replace(/^<\?xml[^>]*>\n/, '');
  const message = minCoverage === undefined ? undefined : floorShortfall(coverage, minCoverage);
  if (message === undefined) return suite;
  suite = suite
    .replace(/ failures="0"/, ' failures="1"')
    .replace(
      '</testsuite>',
      `  <testcase classname="coverage" name="--min-coverage ${minCoverage}%">\n    <failure message="${xml(message)}"/>\n  </testcase>\n</testsuite>`,
    );
  return suite;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Text as an XML attribute or element body: escaped, and without the characters XML 1.0 forbids. */
function xml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- XML 1.0 allows no control character but tab and new lines.
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
  );
}
