import type { FlagsOf } from './command-options.js';
import type { DIFF_OPTIONS } from './command-tables.js';
import { readFile } from 'node:fs/promises';
import { loadSpec } from '../openapi/load.js';
import { StartupError } from '../vocabulary/errors.js';
import { diffDocuments } from '../diff/document-diff.js';
import { levelsFrom, type LevelsReading } from '../diff/levels.js';
import { diffReport } from '../diff/report.js';
import type { Level } from '../diff/rules.js';
import type { CliIo } from './cli.js';

/** The options of `petstore-kit diff`, as its flags give them (DIFF_OPTIONS). */
export type DiffCommandOptions = FlagsOf<typeof DIFF_OPTIONS>;

/** Exit codes: 0 no change at --fail-on or above, 1 some, 2 the inputs could not be judged. */
const DiffExit = { clean: 0, failed: 1, unusable: 2 } as const;

/**
 * Compares two descriptions and writes the report; returns the exit code. A file that cannot
 * be read, is not OpenAPI, or a configuration that cannot be used, ends with one line on
 * stderr and 2.
 */
export async function runDiff(
  oldPath: string,
  newPath: string,
  options: DiffCommandOptions,
  io: Pick<CliIo, 'stdout' | 'stderr'>,
): Promise<number> {
  const unusable = (why: string) => {
    io.stderr.write(`petstore-kit diff: cannot compare: ${why}\n`);
    return DiffExit.unusable;
  };
  let levels = new Map<string, Level>();
  if (options.config !== undefined) {
    const reading = await readConfig(options.config);
    if (!reading.ok) return unusable(`the configuration ${options.config}: ${reading.problem}`);
    levels = new Map(reading.levels);
  }
  let specs;
  try {
    specs = await Promise.all([loadSpec(oldPath), loadSpec(newPath)]);
  } catch (err) {
    if (err instanceof StartupError) return unusable(err.message);
    throw err;
  }
  const [old, now] = specs;
  const changes = diffDocuments(old.resolved, now.resolved, levels);
  const report = diffReport(
    changes,
    { old: oldPath, now: newPath, failOn: options.failOn },
    options.format,
  );
  io.stdout.write(report.body);
  if (options.format === 'json' || options.format === 'junit')
    io.stderr.write(`${report.summary}\n`);
  return report.exitCode;
}

async function readConfig(path: string): Promise<LevelsReading> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    return {
      ok: false,
      problem: `it cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  }
  const { parse } = await import('yaml');
  let config: unknown;
  try {
    // YAML reads JSON as well.
    config = parse(text);
  } catch (err) {
    return {
      ok: false,
      problem: `it is not JSON or YAML: ${String((err as Error).message).split('\n')[0]}`,
    };
  }
  return levelsFrom(config);
}
