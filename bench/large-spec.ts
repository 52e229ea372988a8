// Start-up on the largest documents of the corpus (issue 15): process start to the listening
// line, the resident memory then and at its peak, and the first answer of one operation (its
// schemas compiled and its collection seeded on that call). Each document is started first
// with nothing remembered (the OpenAPI check, the upgrade and the resolution of every $ref),
// and left until it is idle, its precompiling done (the peak then), then as a second start
// finds it, remembered by hash.
import { existsSync } from 'node:fs';
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
  /** The CPU time the process had used when it had answered it, ms (issue 45: within 3 s). */
  firstAnswerCpuMs: number;
  status: number;
  /**
   * Once the mock went idle after that answer (its precompiling done, or the bound): CPU time
   * and peak resident memory so far (issue 45: under 300 MB), and how long it took. Cold start only.
   */
  settled?: { ms: number; cpuMs: number; peakRssMb: number };
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
  /** From the checkout's root. */
  file: string;
  bytes: number;
  operations: number;
  /** An operation to call once started, under the spec's base path; none: the first answer is not timed. */
  probe?: string;
}

const CORPUS = 'test/fixtures/corpus/';
const CORPUS_LARGE = 'test/fixtures/corpus-large/';
const BIGSPECS = '../shared/corpus/bigspecs/';

/**
 * The two largest documents of the corpus (manifest.json), those of `npm run test:corpus`
 * (test/fixtures/corpus-large/manifest.json) and the bigspecs beside the checkout when there
 * (issue 45: each cold within 3 s and 300 MB).
 */
export const LARGE_SPECS: readonly LargeSpec[] = [
  {
    name: 'kubernetes',
    file: `${CORPUS}kubernetes/swagger-1.11.json`,
    bytes: 3_666_752,
    operations: 963,
    probe: '/api/v1/namespaces',
  },
  {
    name: 'jira',
    file: `${CORPUS}jira/jira.json`,
    bytes: 1_802_476,
    operations: 499,
    probe: '/rest/api/3/project',
  },
  {
    name: 'openai',
    file: `${CORPUS_LARGE}openai/openapi.yaml`,
    bytes: 2_970_649,
    operations: 288,
    probe: '/assistants',
  },
  {
    name: 'stripe',
    file: `${CORPUS_LARGE}stripe/spec3.json`,
    bytes: 4_172_204,
    operations: 417,
    probe: '/v1/account',
  },
  {
    name: 'github',
    file: `${CORPUS_LARGE}github/api.github.com.json`,
    bytes: 5_727_915,
    operations: 845,
    probe: '/',
  },
  {
    name: 'cloudflare',
    file: `${CORPUS_LARGE}cloudflare/openapi.json`,
    bytes: 4_186_772,
    operations: 1533,
    probe: '/accounts',
  },
  {
    name: 'twilio-api-v2010',
    file: `${CORPUS_LARGE}twilio-api-v2010/twilio_api_v2010.json`,
    bytes: 1_869_177,
    operations: 197,
    probe: '/2010-04-01/Accounts.json',
  },
  {
    name: 'box',
    file: `${CORPUS_LARGE}box/openapi.json`,
    bytes: 1_761_086,
    operations: 296,
    probe: '/authorize',
  },
  {
    name: 'discord',
    file: `${CORPUS_LARGE}discord/openapi.json`,
    bytes: 1_183_025,
    operations: 242,
    probe: '/applications/@me',
  },
  // The bigspecs that are not already above (stripe, twilio, box and cloudflare are the same bytes).
  {
    name: 'github (bigspecs)',
    file: `${BIGSPECS}github--rest-api-description--api.github.com.json`,
    bytes: 3_666_661,
    operations: 771,
    probe: '/',
  },
];

/** BENCH_LARGE: names of LARGE_SPECS to run, comma-separated (default all). */
const CHOSEN = process.env.BENCH_LARGE?.split(',');
/** BENCH_LARGE_REMEMBERED: starts after the cold one, the reading remembered (default 3). */
const REMEMBERED_RUNS = Number(process.env.BENCH_LARGE_REMEMBERED ?? 3);
/** BENCH_LARGE_SETTLE_MS: how long the cold start may take to go idle after its first answer (0: not waited for). */
const SETTLE_MS = Number(process.env.BENCH_LARGE_SETTLE_MS ?? 150_000);
/** CPU under this in a second is idle: the mock's timers, not its precompiling. */
const IDLE_CPU_SECONDS = 0.05;
const MB = 1024 * 1024;

/** Waits until a second passes with the process nearly idle, or the bound. */
async function settle(cpuSeconds: () => number | undefined, boundMs: number): Promise<number> {
  const began = performance.now();
  let before = cpuSeconds() ?? 0;
  while (performance.now() - began < boundMs) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = cpuSeconds() ?? 0;
    if (now - before < IDLE_CPU_SECONDS) break;
    before = now;
  }
  return Math.round(performance.now() - began);
}

async function once(spec: LargeSpec, settleMs = 0): Promise<LargeStart> {
  const started = performance.now();
  const mock = await startMock({
    pinned: false,
    seedCount: 10,
    args: ['--spec', `${ROOT}${spec.file}`],
  });
  const startMs = round(performance.now() - started, 1);
  const cpuMs = Math.round((mock.cpuSeconds() ?? 0) * 1000);
  const memory = mock.resident();
  const asked = performance.now();
  const res =
    spec.probe === undefined
      ? undefined
      : await fetch(`${mock.url}${spec.probe}`, {
          headers: { authorization: `Bearer ${BENCH_KEY}` },
        });
  await res?.arrayBuffer();
  const firstAnswerMs = round(performance.now() - asked, 1);
  const firstAnswerCpuMs = Math.round((mock.cpuSeconds() ?? 0) * 1000);
  const settledMs = settleMs > 0 ? await settle(() => mock.cpuSeconds(), settleMs) : undefined;
  const settled =
    settledMs === undefined
      ? undefined
      : {
          ms: settledMs,
          cpuMs: Math.round((mock.cpuSeconds() ?? 0) * 1000),
          peakRssMb: round((mock.resident()?.peak ?? 0) / MB, 1),
        };
  await mock.stop();
  return {
    startMs,
    cpuMs,
    rssMb: round((memory?.rss ?? 0) / MB, 1),
    peakRssMb: round((memory?.peak ?? 0) / MB, 1),
    firstAnswerMs,
    firstAnswerCpuMs,
    status: res?.status ?? 0,
    ...(settled ? { settled } : {}),
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
    if (CHOSEN && !CHOSEN.includes(spec.name)) continue;
    if (!existsSync(`${ROOT}${spec.file}`)) continue; // the bigspecs: beside the checkout only
    await rm(readingCacheFolder(), { recursive: true, force: true });
    const first = await once(spec, SETTLE_MS);
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
