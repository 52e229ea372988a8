import type { Coverage } from '../openapi/coverage-table.js';
import type { CliIo } from './cli.js';
import { coverageReport, type CoverageFormat } from './coverage-report.js';

/** The flags of `petstore-kit coverage`. */
export interface CoverageFlags {
  /** The running mock: its origin, or its base URL (`http://127.0.0.1:4010/v1`). */
  url: string;
  session?: string;
  /** Every request of every state since the mock started (`GET /__mock/coverage?scope=run`). */
  run?: boolean;
  format: CoverageFormat;
  /** The floor in percent: below it, exit 1. */
  min?: number;
  /** A key the mock accepts: the admin API asks for one. */
  apiKey: string;
}

/** The exit codes of `petstore-kit coverage`. */
export const CoverageExit = { ok: 0, belowMin: 1, unusable: 2 } as const;

/**
 * Asks a running mock for the coverage of the requests it answered (`GET /__mock/coverage`),
 * prints the table, and says whether it meets `--min`.
 * @returns the exit code: 0, 1 below the floor (after the table), 2 when the mock cannot tell.
 */
export async function runCoverage(flags: CoverageFlags, io: CliIo): Promise<number> {
  if (flags.run && flags.session !== undefined) {
    io.stderr.write(
      'petstore-kit coverage: --run reads every session, --session one: give one of them\n',
    );
    return CoverageExit.unusable;
  }
  let where: URL;
  try {
    where = new URL(flags.run ? '/__mock/coverage?scope=run' : '/__mock/coverage', flags.url);
  } catch {
    io.stderr.write(
      `petstore-kit coverage: --url ${flags.url} is not a URL: give the mock's, e.g. http://127.0.0.1:4010\n`,
    );
    return CoverageExit.unusable;
  }
  const headers: Record<string, string> = { Authorization: `Bearer ${flags.apiKey}` };
  if (flags.session !== undefined) headers['Mock-Session'] = flags.session;
  let coverage: Coverage;
  try {
    const response = await fetch(where, { headers });
    const text = await response.text();
    if (!response.ok) {
      io.stderr.write(
        `petstore-kit coverage: ${where.href} answered ${response.status}: ${text.slice(0, 300)}\n`,
      );
      return CoverageExit.unusable;
    }
    coverage = JSON.parse(text) as Coverage;
  } catch (err) {
    const cause =
      err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    io.stderr.write(`petstore-kit coverage: cannot reach the mock at ${where.href}${cause}\n`);
    return CoverageExit.unusable;
  }
  io.stdout.write(coverageReport(coverage, flags.format));
  if (flags.min !== undefined && coverage.percent < flags.min) {
    io.stderr.write(`petstore-kit coverage: ${coverage.percent}% is below --min ${flags.min}%\n`);
    return CoverageExit.belowMin;
  }
  return CoverageExit.ok;
}
