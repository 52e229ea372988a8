import type { FlagsOf } from './command-options.js';
import type { TRAFFIC_OPTIONS } from './command-tables.js';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { HarError, readHar } from '../core/traffic/har.js';
import {
  judgeTraffic,
  type TrafficFinding,
  type TrafficReport,
} from '../core/traffic/judge-traffic.js';
import { BUNDLED_SPEC_PATH } from '../openapi/bundled.js';
import { loadSpec } from '../openapi/load.js';
import { StartupError } from '../vocabulary/errors.js';
import { judgeReadingOf } from '../wiring/judge-reading.js';
import type { CliIo } from './cli.js';
import { floorShortfall } from './contract-report.js';
import { coverageReport } from './coverage-report.js';

/** The options of `petstore-kit traffic`, as its flags give them (TRAFFIC_OPTIONS). */
export type TrafficCommandOptions = FlagsOf<typeof TRAFFIC_OPTIONS>;

/** Exit codes: 0 the server kept to the description, 1 it did not, 2 nothing could be judged. */
const TrafficExit = { conforms: 0, violation: 1, unusable: 2 } as const;

/**
 * Judges a HAR recording against a description and writes the report; returns the exit code.
 * The server fails the recording when one of its answers breaks the description, or when it
 * accepted (2xx) a request the description forbids; a forbidden request it refused is the
 * client's, listed, not failed.
 */
export async function runTraffic(
  file: string,
  options: TrafficCommandOptions,
  io: Pick<CliIo, 'stdout' | 'stderr'>,
): Promise<number> {
  const unusable = (why: string) => {
    io.stderr.write(`petstore-kit traffic: cannot judge: ${why}\n`);
    return TrafficExit.unusable;
  };
  let baseUrl: URL | undefined;
  if (options.baseUrl !== undefined) {
    if (!URL.canParse(options.baseUrl))
      return unusable(`--base-url ${options.baseUrl} is not a URL`);
    baseUrl = new URL(options.baseUrl);
  }
  let entries;
  try {
    const where = dirname(resolve(file));
    entries = readHar(await readFile(file, 'utf8'), {
      file,
      attached: (name) => readFileSync(resolve(where, name)),
    });
  } catch (err) {
    if (err instanceof HarError) return unusable(err.message);
    if ((err as NodeJS.ErrnoException).code !== undefined)
      return unusable(`${file}: ${(err as Error).message}`);
    throw err;
  }
  let spec;
  try {
    spec = await loadSpec(options.spec ?? BUNDLED_SPEC_PATH);
  } catch (err) {
    if (err instanceof StartupError) return unusable(err.message);
    throw err;
  }
  const reading = await judgeReadingOf(spec);
  const report = await judgeTraffic(spec.resolved, reading, entries, baseUrl ? { baseUrl } : {});
  if (report.judged === 0)
    return unusable(
      `no exchange of ${file} went to the API ${baseUrl ? `at ${baseUrl.href}` : `under ${reading.basePath || '/'}`} (${asideText(report)}); give --base-url`,
    );
  const failed = report.findings.filter((finding) => finding.side !== 'client');
  const shortfall =
    options.minCoverage === undefined
      ? undefined
      : floorShortfall(report.coverage, options.minCoverage);
  const exit = failed.length > 0 || shortfall ? TrafficExit.violation : TrafficExit.conforms;
  if (options.format === 'json') {
    io.stdout.write(
      `${JSON.stringify({ ...report, ...(shortfall ? { shortfall } : {}) }, null, 2)}\n`,
    );
    io.stderr.write(`${summary(report, failed.length, shortfall)}\n`);
  } else {
    io.stdout.write(textReport(report, failed.length, shortfall));
  }
  return exit;
}

function textReport(report: TrafficReport, failed: number, shortfall: string | undefined): string {
  const lines: string[] = [];
  const heading: Record<TrafficFinding['side'], string> = {
    answer: 'answers that break the description (the server)',
    accepted: 'requests the description forbids, accepted with a 2xx (the server)',
    client: 'requests the description forbids, refused (the client; not failed)',
  };
  for (const side of ['answer', 'accepted', 'client'] as const) {
    const found = report.findings.filter((finding) => finding.side === side);
    if (found.length === 0) continue;
    lines.push(`${heading[side]}:`);
    for (const finding of found) lines.push(...findingLines(finding));
  }
  if (report.advisories.length > 0) {
    lines.push('held what the description does not describe (not failed):');
    for (const finding of report.advisories) lines.push(...findingLines(finding));
  }
  lines.push(coverageReport(report.coverage, 'text').trimEnd());
  lines.push(summary(report, failed, shortfall));
  return `${lines.join('\n')}\n`;
}

function findingLines(finding: TrafficFinding): string[] {
  const what = finding.operation ? ` (${finding.operation})` : '';
  return [
    `  #${finding.index} ${finding.method} ${finding.url} → ${finding.status}${what}`,
    ...finding.breaches.map(({ rule, message }) => `      ${rule}: ${message}`),
  ];
}

function summary(report: TrafficReport, failed: number, shortfall: string | undefined): string {
  const judged = `${report.judged} exchange${report.judged === 1 ? '' : 's'} judged`;
  const aside = Object.keys(report.aside).length > 0 ? `, ${asideText(report)}` : '';
  const verdict =
    failed > 0
      ? `does NOT conform: ${failed} finding${failed === 1 ? '' : 's'} against the server`
      : shortfall
        ? `does NOT conform: ${shortfall}`
        : 'conforms';
  return `traffic: ${verdict} (${judged}${aside}; coverage ${report.coverage.percent}%)`;
}

function asideText(report: TrafficReport): string {
  const parts = Object.entries(report.aside).map(([why, n]) => `${n} ${why}`);
  return parts.length > 0 ? `left aside: ${parts.join(', ')}` : 'none left aside';
}
