// The coverage table as people and CI read it: the same text, JSON and JUnit the contract
// suite prints for what it exercised, so a team can lay one beside the other.
import type { Coverage } from '../core/admin/coverage.js';

/** The formats `petstore-kit coverage --format` writes. */
export const COVERAGE_FORMATS = ['text', 'json', 'junit'] as const;
export type CoverageFormat = (typeof COVERAGE_FORMATS)[number];

/**
 * The table in one of its formats, ending with a new line.
 * @example coverageReport(coverage, 'text') // 'coverage: 62.5% (5 of 8 documented statuses)\n  GET /v1/categories  200  3\n...'
 */
export function coverageReport(coverage: Coverage, format: CoverageFormat): string {
  if (format === 'json') return `${JSON.stringify(coverage, null, 2)}\n`;
  if (format === 'junit') return junit(coverage);
  const lines = [
    `coverage: ${coverage.percent}% (${coverage.covered} of ${coverage.total} documented statuses)`,
  ];
  for (const { method, path, statuses } of coverage.operations)
    for (const { status, hits } of statuses)
      lines.push(`  ${method} ${path}  ${status}  ${hits > 0 ? hits : 'missed'}`);
  return `${lines.join('\n')}\n`;
}

function junit(coverage: Coverage): string {
  const cases = coverage.operations.flatMap(({ method, path, statuses }) =>
    statuses.map(({ status, hits }) => {
      const open = `  <testcase classname="${xml(`${method} ${path}`)}" name="${xml(status)}"`;
      return hits > 0
        ? `${open}/>`
        : `${open}>\n    <skipped message="not exercised"/>\n  </testcase>`;
    }),
  );
  const missed = coverage.operations.flatMap(({ statuses }) =>
    statuses.filter(({ hits }) => hits === 0),
  ).length;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuite name="coverage" tests="${cases.length}" failures="0" skipped="${missed}">\n` +
    `${cases.join('\n')}${cases.length ? '\n' : ''}</testsuite>\n`
  );
}

function xml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
