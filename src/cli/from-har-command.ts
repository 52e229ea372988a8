import type { FlagsOf } from './command-options.js';
import type { FROM_HAR_OPTIONS } from './command-tables.js';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, relative, resolve } from 'node:path';
import { HarError, readHar } from '../core/traffic/har.js';
import { flowFromHar } from '../core/traffic/flow-from-har.js';
import { BUNDLED_SPEC_PATH } from '../openapi/bundled.js';
import { loadSpec } from '../openapi/load.js';
import { StartupError } from '../vocabulary/errors.js';
import { judgeReadingOf } from '../wiring/judge-reading.js';
import type { CliIo } from './cli.js';

/** The options of `petstore-kit workflow from-har`, as its flags give them (FROM_HAR_OPTIONS). */
export type FromHarOptions = FlagsOf<typeof FROM_HAR_OPTIONS>;

/**
 * Writes the calls a HAR recorded to the described API as an Arazzo workflow; returns the exit
 * code: 0 written, 2 nothing to write (with one line why).
 */
export async function runFromHar(
  file: string,
  options: FromHarOptions,
  io: Pick<CliIo, 'stdout' | 'stderr'>,
): Promise<number> {
  const unusable = (why: string) => {
    io.stderr.write(`petstore-kit workflow from-har: ${why}\n`);
    return 2;
  };
  if (options.baseUrl !== undefined && !URL.canParse(options.baseUrl))
    return unusable(`--base-url ${options.baseUrl} is not a URL`);
  const specPath = resolve(options.spec ?? BUNDLED_SPEC_PATH);
  let entries;
  let spec;
  try {
    const where = dirname(resolve(file));
    entries = readHar(await readFile(file, 'utf8'), {
      file,
      attached: (name) => readFileSync(resolve(where, name)),
    });
    spec = await loadSpec(specPath);
  } catch (err) {
    if (err instanceof HarError || err instanceof StartupError) return unusable(err.message);
    if ((err as NodeJS.ErrnoException).code !== undefined)
      return unusable(`${file}: ${(err as Error).message}`);
    throw err;
  }
  const reading = await judgeReadingOf(spec);
  const output = options.output === undefined ? undefined : resolve(options.output);
  const flow = flowFromHar(reading, entries, {
    sourceName: 'api',
    // As the written document's readers find it: relative to where it is written.
    sourceUrl: output ? relative(dirname(output), specPath) || basename(specPath) : specPath,
    workflowId: options.workflowId ?? 'recorded',
    basePath: reading.basePath,
    ...(options.baseUrl ? { baseUrl: new URL(options.baseUrl) } : {}),
  });
  const steps = flow.workflows[0]?.steps.length ?? 0;
  if (steps === 0)
    return unusable(
      `no call of ${file} went to an operation of the description; give --base-url with the API's URL as recorded`,
    );
  const { stringify } = await import('yaml');
  const text = stringify(flow, { lineWidth: 0 });
  if (output) {
    await writeFile(output, text);
    io.stderr.write(
      `petstore-kit workflow from-har: ${steps} steps written to ${options.output}\n`,
    );
  } else io.stdout.write(text);
  return 0;
}
