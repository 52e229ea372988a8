// Start-up on the largest documents of the corpus (issue 15): process start to the listening
// line, the resident memory then and at its peak, and the first answer of one operation (its
// schemas compiled and its collection seeded on that call). Each document is started first
// with nothing remembered (the OpenAPI check, the upgrade and the resolution of every $ref),
// then as a second start finds it, remembered by hash.
import { rm } from 'node:fs/promises';
import { readingCacheFolder } from '../src/openapi/cache-folder.js';
import { BENCH_KEY, ROOT, startMock } from './processes.js';
import { median, round } from './stats.js';

export interface LargeStart {
  /** Process start to the listening line, ms. */
  startMs: number;
  /** The CPU time the process had used by then (Linux; 0 elsewhere), ms: what a busy machine does not inflate. */
  cpuMs: number;
  /** Resident memory right after, and the peak so far, MB. */
  rssMb: number;
  peakRssMb: number;
  /** The first answer of the probed operation, and its status. */
  firstAnswerMs: number;
  status: number;
}

export interface LargeSpecStartup {
  name: string;
  file: string;
  bytes: number;
  operations: number;
  first: LargeStart;
  /** Remembered starts, each run, and their medians. */
  remembered: LargeStart[];
  rememberedMedian: { startMs: number; cpuMs: number; rssMb: number; peakRssMb: number };
}

export interface LargeSpec {
  name: string;
  /** Under test/fixtures/corpus/. */
  file: string;
  bytes: number;
  operations: number;
  /** An operation to call once started, under the spec's base path. */
  probe: string;
}

/** The two largest documents of the corpus (manifest.json). */
export const LARGE_SPECS: readonly LargeSpec[] = [
  {
    name: 'kubernetes',
    file: 'kubernetes/swagger-1.11.json',
    bytes: 3_666_752,
    operations: 963,
    probe: '/api/v1/namespaces',
  },
  {
    name: 'jira',
    file: 'jira/jira.json',
    bytes: 1_802_476,
    operations: 499,
    probe: '/rest/api/3/project',
  },
];

const REMEMBERED_RUNS = 3;
const MB = 1024 * 1024;

async function once(spec: LargeSpec): Promise<LargeStart> {
  const started = performance.now();
  const mock = await startMock({
    pinned: false,
    seedCount: 10,
    args: ['--spec', `${ROOT}test/fixtures/corpus/${spec.file}`],
  });
  const startMs = round(performance.now() - started, 1);
  const cpuMs = Math.round((mock.cpuSeconds() ?? 0) * 1000);
  const memory = mock.resident();
  const asked = performance.now();
  const res = await fetch(`${mock.url}${spec.probe}`, {
    headers: { authorization: `Bearer ${BENCH_KEY}` },
  });
  await res.arrayBuffer();
  const firstAnswerMs = round(performance.now() - asked, 1);
  await mock.stop();
  return {
    startMs,
    cpuMs,
    rssMb: round((memory?.rss ?? 0) / MB, 1),
    peakRssMb: round((memory?.peak ?? 0) / MB, 1),
    firstAnswerMs,
    status: res.status,
  };
}

/**
 * Starts each large document once with nothing remembered (the remembered loads are deleted
 * first, the bundled spec's included: they are a cache), then REMEMBERED_RUNS times.
 */
export async function largeSpecStartups(
  specs: readonly LargeSpec[] = LARGE_SPECS,
): Promise<LargeSpecStartup[]> {
  const results: LargeSpecStartup[] = [];
  for (const spec of specs) {
    await rm(readingCacheFolder(), { recursive: true, force: true });
    const first = await once(spec);
    const remembered: LargeStart[] = [];
    for (let run = 0; run < REMEMBERED_RUNS; run++) remembered.push(await once(spec));
    results.push({
      name: spec.name,
      file: spec.file,
      bytes: spec.bytes,
      operations: spec.operations,
      first,
      remembered,
      rememberedMedian: {
        startMs: median(remembered.map((run) => run.startMs)),
        cpuMs: median(remembered.map((run) => run.cpuMs)),
        rssMb: median(remembered.map((run) => run.rssMb)),
        peakRssMb: median(remembered.map((run) => run.peakRssMb)),
      },
    });
  }
  return results;
}
