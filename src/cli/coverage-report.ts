// The coverage table as people and CI read it: the same text, JSON and JUnit the contract
// suite prints for what it exercised, so a team can lay one beside the other.
import type { Coverage, CoverageScheme } from '../openapi/coverage-table.js';

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
  if (coverage.schemesTotal > 0)
    lines.push(
      `security: ${coverage.schemesCovered} of ${coverage.schemesTotal} (operation, scheme) pairs exercised; \`expected 401\` where the operation does not take the scheme`,
    );
  for (const { method, path, statuses, schemes } of coverage.operations) {
    for (const { status, hits } of statuses)
      lines.push(`  ${method} ${path}  ${status}  ${hits > 0 ? hits : 'missed'}`);
    for (const row of schemes ?? [])
      lines.push(
        `  ${method} ${path}  scheme ${row.scheme}  expected ${row.expected}  ${got(row)}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

/** `got 200 ×3, 401 ×1`, `missed`, and a mark where a request the spec refuses got a 2xx. */
function got(row: CoverageScheme): string {
  if (row.hits === 0) return 'missed';
  const text = `got ${row.got.map(({ status, hits }) => `${status} ×${hits}`).join(', ')}`;
  return acceptedAgainstSpec(row) ? `${text}  (a 2xx the spec refuses)` : text;
}

/** A request whose credential the operation does not take, answered with a 2xx. */
function acceptedAgainstSpec(row: CoverageScheme): boolean {
  return row.expected === '401' && row.got.some(({ status }) => /^2\d\d$/.test(status));
}

function junit(coverage: Coverage): string {
  const missedCase = '>\n    <skipped message="not exercised"/>\n  </testcase>';
  const cases = coverage.operations.flatMap(({ method, path, statuses, schemes }) => {
    const classname = `classname="${xml(`${method} ${path}`)}"`;
    return [
      ...statuses.map(({ status, hits }) => {
        const open = `  <testcase ${classname} name="${xml(status)}"`;
        return hits > 0 ? `${open}/>` : `${open}${missedCase}`;
      }),
      ...(schemes ?? []).map((row) => {
        const open = `  <testcase ${classname} name="${xml(`scheme ${row.scheme}: expected ${row.expected}`)}"`;
        if (row.hits === 0) return `${open}${missedCase}`;
        return `${open}>\n    <system-out>${xml(got(row))}</system-out>\n  </testcase>`;
      }),
    ];
  });
  const missed = coverage.operations.flatMap(({ statuses, schemes }) => [
    ...statuses.filter(({ hits }) => hits === 0),
    ...(schemes ?? []).filter(({ hits }) => hits === 0),
  ]).length;
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
