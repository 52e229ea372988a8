// The largest public descriptions (test/fixtures/corpus-large/, issue 28): per document, a cold
// start (nothing remembered) and a warm one, then the first call of every operation, its
// latency's median and worst and how many took over 200 ms: called as soon as the mock
// listens (`mock`), and once more after it went idle, its precompiling done (`mock, settled`).
// The same probe as `npm run test:corpus`; against Prism too when BENCH_PRISM names its CLI
// (installed apart, e.g. `npm i @stoplight/prism-cli` in /tmp: it is no dependency of the
// project). Stripe and OpenAI by default (the two slowest first calls, about 4 minutes);
// BENCH_CORPUS=all for the six (about 25 minutes on two cores).
//
//   BENCH_ONLY=corpus npm run bench
//   BENCH_ONLY=corpus BENCH_CORPUS=box,twilio-api-v2010 npm run bench   (slugs of test/fixtures/corpus-large/manifest.json)
//   BENCH_ONLY=corpus BENCH_CORPUS=all BENCH_CORPUS_SETTLE_MS=0 npm run bench   # all, no settled rows
//   BENCH_ONLY=corpus BENCH_PRISM=/tmp/prism/node_modules/.bin/prism npm run bench
import { corpusReadingCache } from '../test/corpus-large/documents.js';
import { readLargeManifest } from '../test/corpus-large/documents.js';
import { probeDocument, type DocumentRun } from '../test/corpus-large/probe.js';
import { summarize, type RunSummary } from '../test/corpus-large/table.js';
import { ROOT } from './processes.js';
import { freePort } from '../test/free-port.js';

export interface CorpusLargeRow extends RunSummary {
  server: 'mock' | 'mock, settled' | 'prism';
  /** CPU seconds of the warm start. */
  warmCpuS?: number;
  /** Why the server did not start, when it did not. */
  notStarted?: string;
}

/** Anything that is not an answer within the harness's bound counts in the row, not here. */
const ALLOWED = /cannot generate data valid against/i;
const CALL_TIMEOUT_MS = 10_000;
/** Per document and server: Prism takes minutes to start on some. */
const BUDGET_MS = Number(process.env.BENCH_CORPUS_BUDGET_MS ?? 200_000);
/** The documents run when BENCH_CORPUS names none: the two slowest first calls. */
const DEFAULT_DOCUMENTS = ['stripe', 'openai'];
/** How long the settled row waits for the mock to go idle at most; 0: no settled row. */
const SETTLE_MS = Number(process.env.BENCH_CORPUS_SETTLE_MS ?? 150_000);

function rowOf(server: CorpusLargeRow['server'], run: DocumentRun): CorpusLargeRow {
  return {
    server,
    ...summarize(run, ALLOWED),
    ...(run.warm ? { warmCpuS: run.warm.cpuSeconds } : {}),
    ...(run.notStarted === undefined ? {} : { notStarted: run.notStarted }),
  };
}

export async function corpusLarge(): Promise<CorpusLargeRow[]> {
  const named = process.env.BENCH_CORPUS?.split(',').filter(Boolean) ?? DEFAULT_DOCUMENTS;
  const only = named.includes('all') ? undefined : named;
  const prism = process.env.BENCH_PRISM;
  const rows: CorpusLargeRow[] = [];
  const cacheDir = corpusReadingCache();
  for (const document of await readLargeManifest()) {
    if (only && !only.includes(document.slug)) continue;
    const common = {
      bin: `${ROOT}dist/cli/bin.js`,
      cwd: ROOT,
      callTimeoutMs: CALL_TIMEOUT_MS,
      budgetMs: BUDGET_MS,
      log: (line: string) => console.error(`  ${line}`),
    };
    rows.push(rowOf('mock', await probeDocument(document, { ...common, cacheDir })));
    if (SETTLE_MS > 0)
      rows.push(
        rowOf(
          'mock, settled',
          await probeDocument(document, {
            ...common,
            cacheDir,
            settleMs: SETTLE_MS,
          }),
        ),
      );
    if (prism)
      rows.push(
        rowOf(
          'prism',
          await probeDocument(document, {
            ...common,
            command: async (spec) => ({
              executable: prism,
              args: ['mock', '--host', '127.0.0.1', '--port', String(await freePort()), spec],
            }),
          }),
        ),
      );
  }
  return rows;
}

export function printCorpusLarge(rows: readonly CorpusLargeRow[]): void {
  console.log(
    '\nThe largest public descriptions (test/fixtures/corpus-large/): start-up cold and warm, and the first call of every operation (issue 28)',
  );
  console.log(
    '  document          server         cold ms  CPU s  warm ms  CPU s  RSS MB  peak MB  called     idle after ms  first call median / worst ms  over 200 ms  5xx  hung  closed  crashed',
  );
  for (const row of rows) {
    if (row.notStarted !== undefined) {
      console.log(
        `  ${row.document.padEnd(17)} ${row.server.padEnd(13)}  not started: ${row.notStarted.slice(0, 120)}`,
      );
      continue;
    }
    console.log(
      [
        `  ${row.document.padEnd(17)}`,
        row.server.padEnd(13),
        String(row.coldMs ?? '-').padStart(7),
        (row.coldCpuS?.toFixed(1) ?? '-').padStart(5),
        String(row.warmMs ?? '-').padStart(8),
        (row.warmCpuS?.toFixed(1) ?? '-').padStart(5),
        String(row.rssMb ?? '-').padStart(6),
        String(row.peakRssMb).padStart(7),
        `${row.called}/${row.operations}`.padStart(9),
        String(row.settledMs ?? '-').padStart(14),
        `${row.firstCallMedianMs ?? '-'} / ${row.firstCallWorstMs ?? '-'}`.padStart(29),
        String(row.firstCallsOverTarget).padStart(12),
        String(row.status5xx).padStart(4),
        String(row.hung).padStart(5),
        String(row.closed).padStart(7),
        String(row.crashed).padStart(8),
      ].join(' '),
    );
  }
}
