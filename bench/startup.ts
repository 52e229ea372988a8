// Process start to the first successful list answer, as `npm start` starts (build excluded),
// for the bundled spec and for a generated spec of 50 operations.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_KEY, startMock } from './processes.js';
import { FIRST_LIST, spec50 } from './spec-50.js';
import { median, round } from './stats.js';
import { freePort } from '../test/free-port.js';

export interface Startup {
  /** Each run, in order, in ms. */
  runs: number[];
  medianMs: number;
}

const RUNS = 5;

/** `args` are more flags of `mock`; `list` is the path polled, under the spec's base path. */
async function startups(args: readonly string[], list: string): Promise<Startup> {
  const runs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const port = await freePort();
    const started = performance.now();
    // Unpinned: users start the mock with every core, and start-up uses several threads.
    const mock = startMock({ seedCount: 10, port, pinned: false, args });
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/v1${list}`, {
        headers: { authorization: `Bearer ${BENCH_KEY}` },
      })
        .then((res) => res.status === 200)
        .catch(() => false);
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    runs.push(round(performance.now() - started, 1));
    await (await mock).stop();
  }
  return { runs, medianMs: median(runs) };
}

/** The bundled Pet Store spec (6 operations). */
export const startup = (): Promise<Startup> => startups([], '/categories');

/**
 * The generated 50-operation spec, 10 records seeded per resource. Its text is new at every
 * bench, so the first run also checks it against the OpenAPI meta-schema, as a user's first
 * start of a new spec does; the later ones find it in the check cache.
 */
export async function startup50(): Promise<Startup> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-bench-'));
  try {
    const path = join(dir, 'spec-50.json');
    await writeFile(path, spec50(new Date().toISOString()));
    return await startups(['--spec', path], FIRST_LIST);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
