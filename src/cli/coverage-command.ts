import type { FlagsOf } from './command-options.js';
import type { COVERAGE_OPTIONS } from './command-tables.js';
import { readFile } from 'node:fs/promises';
import type { Coverage } from '../openapi/coverage-table.js';
import type { CliIo } from './cli.js';
import { coverageReport } from './coverage-report.js';

/** The options of `petstore-kit coverage`, as its flags give them (COVERAGE_OPTIONS). */
export type CoverageFlags = FlagsOf<typeof COVERAGE_OPTIONS>;

/** The exit codes of `petstore-kit coverage`. */
const CoverageExit = { ok: 0, belowMin: 1, unusable: 2 } as const;

/**
 * Asks a running mock for the coverage of the requests it answered (`GET /__mock/coverage`),
 * prints the table, and says whether it meets `--min`.
 * @returns the exit code: 0, 1 below the floor (after the table), 2 when the mock cannot tell.
 */
export async function runCoverage(flags: CoverageFlags, io: CliIo): Promise<number> {
  if ((flags.run || flags.coverageFile !== undefined) && flags.session !== undefined) {
    io.stderr.write(
      `petstore-kit coverage: ${flags.run ? '--run' : '--coverage-file'} reads every session, --session one: give one of them\n`,
    );
    return CoverageExit.unusable;
  }
  if ((flags.url === undefined) === (flags.coverageFile === undefined)) {
    io.stderr.write(
      'petstore-kit coverage: give the running mock (--url) or the file a mock kept (--coverage-file), one of them\n',
    );
    return CoverageExit.unusable;
  }
  const coverage =
    flags.coverageFile === undefined
      ? await askMock(flags, flags.url ?? '', io)
      : await readCoverageFile(flags.coverageFile, io);
  if (!coverage) return CoverageExit.unusable;
  io.stdout.write(coverageReport(coverage, flags.format));
  if (flags.min !== undefined && coverage.percent < flags.min) {
    io.stderr.write(`petstore-kit coverage: ${coverage.percent}% is below --min ${flags.min}%\n`);
    return CoverageExit.belowMin;
  }
  return CoverageExit.ok;
}

/** The table a mock's `--coverage-file` holds; undefined (said on stderr) when there is none. */
async function readCoverageFile(path: string, io: CliIo): Promise<Coverage | undefined> {
  try {
    const coverage = JSON.parse(await readFile(path, 'utf8')) as Coverage;
    if (typeof coverage.percent === 'number' && Array.isArray(coverage.operations)) return coverage;
    io.stderr.write(`petstore-kit coverage: ${path} holds no coverage table of a mock\n`);
  } catch (err) {
    const why = err instanceof SyntaxError ? 'it is not JSON' : (err as Error).message;
    io.stderr.write(`petstore-kit coverage: cannot read ${path}: ${why}\n`);
  }
  return undefined;
}

/** The table a running mock answers; undefined (said on stderr) when it cannot tell. */
async function askMock(
  flags: CoverageFlags,
  url: string,
  io: CliIo,
): Promise<Coverage | undefined> {
  let where: URL;
  try {
    where = new URL(flags.run ? '/__mock/coverage?scope=run' : '/__mock/coverage', url);
  } catch {
    io.stderr.write(
      `petstore-kit coverage: --url ${url} is not a URL: give the mock's, e.g. http://127.0.0.1:4010\n`,
    );
    return undefined;
  }
  const headers: Record<string, string> = { Authorization: `Bearer ${flags.apiKey}` };
  if (flags.session !== undefined) headers['Mock-Session'] = flags.session;
  try {
    const response = await fetch(where, { headers });
    const text = await response.text();
    if (!response.ok) {
      io.stderr.write(
        `petstore-kit coverage: ${where.href} answered ${response.status}: ${text.slice(0, 300)}\n`,
      );
      return undefined;
    }
    return JSON.parse(text) as Coverage;
  } catch (err) {
    const cause =
      err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    io.stderr.write(`petstore-kit coverage: cannot reach the mock at ${where.href}${cause}\n`);
    return undefined;
  }
}
