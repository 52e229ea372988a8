// The printed tables of `npm run bench`: one function per section, fed its results.
import type { BigList } from './big-list.js';
import type { DataStore } from './data-store.js';
import type { LargeSpecStartup, LargeStart } from './large-spec.js';
import type { PairedRow } from './paired.js';
import type { RedisStoreBench } from './redis-store.js';
import type { Startup } from './startup.js';
import { megabytes, round, type Latency, type Ratio } from './stats.js';
import type { Scaling } from './throughput.js';

const pad = (value: unknown, width: number) => String(value ?? '-').padStart(width);
const range = (ratio: Ratio) => `${ratio.median} (${ratio.min}-${ratio.max})`;
const tail = (l: Latency) => `${l.p50} / ${l.p99} / ${l.max}`;
const percent = (share: number | undefined) =>
  share === undefined ? '-' : `${round(share * 100, 0)}%`;

/** A table of paired rows; `ratio` says what the ratio divides. */
export function printPaired(title: string, labels: [string, string], rows: readonly PairedRow[]) {
  const [subject, reference] = labels;
  const width = Math.max(22, ...rows.map((t) => t.scenario.length));
  console.log(`\n${title}`);
  console.log(
    `${'scenario'.padEnd(width)} conns ${pad(`${subject} rps`, 14)}  p50 ms  p99 ms  cpu µs ${pad(`${reference} rps`, 12)}  p50 ms  p99 ms  cpu µs  rps ratio         cpu ratio`,
  );
  for (const t of rows) {
    console.log(
      `${t.scenario.padEnd(width)} ${pad(t.connections, 5)} ${pad(t.subject.rps, 14)} ${pad(t.subject.p50, 7)} ${pad(t.subject.p99, 7)} ${pad(t.subject.cpuMicros, 7)} ` +
        `${pad(t.reference.rps, 12)} ${pad(t.reference.p50, 7)} ${pad(t.reference.p99, 7)} ${pad(t.reference.cpuMicros, 7)}  ` +
        `${range(t.ratio).padEnd(17)} ${t.cpuRatio ? range(t.cpuRatio) : '-'}`,
    );
  }
  console.log(
    `(cpu µs: server CPU time per request; rps ratio = ${subject} / ${reference}; cpu ratio = ${reference} cpu µs / ${subject} cpu µs, higher is better)`,
  );
}

export function printScaling(rows: readonly Scaling[]) {
  console.log(
    '\nList cost as the store grows (one connection, lists back to back, median ms; ratio = mock ms / baseline ms)',
  );
  console.log('categories       bytes   mock ms   base ms  ratio');
  for (const s of rows) {
    console.log(
      `${pad(s.categories, 10)} ${pad(s.bytes, 11)} ${pad(s.mockMs, 9)} ${pad(s.baselineMs, 9)}  ${range(s.ratio)}`,
    );
  }
}

export function printStartup(what: string, startup: Startup, note = '') {
  console.log(
    `Start-up to first list answer, ${what}: median ${startup.medianMs} ms (runs: ${startup.runs.join(', ')})${note}`,
  );
}

export function printLargeStartups(startups: readonly LargeSpecStartup[]) {
  console.log(
    '\nStart-up on the largest documents (issue 45: cold, within 3 s and under 300 MB at its peak; CPU ms is what a busy machine inflates least)',
  );
  console.log(
    '  document               size   ops  start            start ms  CPU ms  RSS MB  peak MB  first answer',
  );
  for (const spec of startups) {
    const row = (
      when: string,
      run: { startMs: number; cpuMs: number; rssMb: number; peakRssMb: number },
      first?: LargeStart,
    ) =>
      console.log(
        `  ${spec.name.padEnd(18)} ${pad(`${(spec.bytes / 1024 / 1024).toFixed(1)} MB`, 8)} ${pad(String(spec.operations), 5)}  ${when.padEnd(15)} ${pad(String(run.startMs), 9)} ${pad(String(run.cpuMs), 7)} ${pad(String(run.rssMb), 7)} ${pad(String(run.peakRssMb), 8)}  ${first?.status ? `${first.firstAnswerMs} ms, CPU ${first.firstAnswerCpuMs} ms (${first.status})` : ''}`,
      );
    row('first', spec.first, spec.first);
    const settled = spec.first.settled;
    if (settled)
      console.log(
        `  ${spec.name.padEnd(18)} ${pad('', 8)} ${pad('', 5)}  ${'settled'.padEnd(15)} ${pad(String(settled.ms), 9)} ${pad(String(settled.cpuMs), 7)} ${pad('', 7)} ${pad(String(settled.peakRssMb), 8)}  (idle after its precompiling: ms after the first answer, CPU ms since start, peak MB)`,
      );
    row(`remembered x${spec.remembered.length}`, spec.rememberedMedian, spec.remembered[0]);
  }
}

export function printBigList(big: BigList, seconds: number) {
  console.log(
    `\nLarge list (issue 8): ${big.count} categories of about ${Math.round(big.listBytes / big.count)} B, ${megabytes(big.listBytes)} MB as JSON`,
  );
  console.log(
    `  filled by ${big.count} creates over 20 connections: ${big.fill.seconds} s, ${big.fill.rps} creates/s, p99 ${big.fill.p99} ms`,
  );
  console.log(
    `  one whole list, one client: first ${big.firstListMs} ms; right after a create: p50 / p99 / max ${tail(big.listAfterWrite)} ms (${big.listAfterWrite.count} lists)`,
  );
  console.log('  mock memory (MB)                    RSS  peak RSS  heap used  external');
  for (const m of big.memory) {
    console.log(
      `  ${m.when.padEnd(30)} ${pad(megabytes(m.rss), 8)} ${pad(megabytes(m.peakRss), 9)} ${pad(megabytes(m.heapUsed), 10)} ${pad(megabytes(m.external), 9)}`,
    );
  }
  console.log(
    `  While clients fetch the whole list back to back: a create and a GET /pets/10 every 20 ms, on a fixed schedule (${seconds} s a phase; ms, p50 / p99 / max)`,
  );
  console.log(
    '  list     lists  list p50  list max   create                 GET /pets/10           create in the mock    loop delay      longest turn  CPU main /   run-queue',
  );
  console.log(
    '  clients            ms        ms      p50 / p99 / max        p50 / p99 / max        p50 / p99 / max       p99 / max       CPU ms        other threads  wait',
  );
  for (const c of big.contention) {
    const failed = c.create.failed + c.get.failed;
    const { loopDelay: d } = c;
    console.log(
      `  ${pad(c.listClients, 7)} ${pad(c.lists.count, 6)} ${pad(c.lists.medianMs, 9)} ${pad(c.lists.maxMs, 9)}   ${tail(c.create).padEnd(22)} ${tail(c.get).padEnd(22)} ${tail(c.server.create).padEnd(21)} ${`${d.p99} / ${d.max}`.padEnd(15)} ${pad(d.longestTurnCpu, 12)}  ${`${percent(d.mainThreadShare)} / ${percent(d.otherThreadsShare)}`.padEnd(14)} ${percent(d.runQueueShare)}` +
        (failed ? `   ${failed} FAILED` : ''),
    );
  }
  console.log(
    "  (create, GET: as the bench's client saw them; create in the mock: from the parsed request to the answer sent, from the mock's request log; loop delay: how late the mock ran a 1 ms timer; longest turn: the most CPU the mock's main thread used between two runs of it; CPU: shares of the phase's time used by the main thread and by the mock's other threads (GC helpers); run-queue wait: share of the phase the main thread was ready but waited for its core)",
  );
  // Issue 28's target: a create's p99 within 2x of idle while big lists stream.
  const idle = big.contention.filter((c) => c.listClients === 0).map((c) => c.create.p99);
  const idleP99 = idle.length ? Math.min(...idle) : undefined;
  for (const c of big.contention.filter((c) => c.listClients > 0 && idleP99)) {
    console.log(
      `  create p99 with ${c.listClients} list clients: ${(c.create.p99 / idleP99!).toFixed(1)}x the quietest idle phase's (target: at most 2x); in the mock ${c.server.create.p99} ms; list clients ${c.listClientsNiced ? 'at nice 19, behind the probe' : 'at normal priority'}`,
    );
  }
  console.log(
    '  (issue 8, previous code: each list after a write about 500 ms; a create waited 406 ms behind a list; 713 MB RSS, 1.4 GB peak)',
  );
}

export function printDataStore(data: DataStore) {
  printPaired(
    `Creates with --data (file on ${data.filesystem}) against the mock in memory; ratio = --data rps / memory rps`,
    ['--data', 'memory'],
    data.rows,
  );
}

/** What bench/memory.ts measures of a mock holding many records (median of its rounds). */
export interface MemoryFigures {
  count: number;
  jsonPerRecord: number;
  perRecord: number;
  ratio: number;
  heapPerRecord: number;
  heapRatio: number;
  rounds: number;
  ratios: number[];
  heapRatios: number[];
  v8FreePerRecord: number[];
  outsidePerRecord: number[];
}

export function printMemory(m: MemoryFigures) {
  const range = (values: number[]) =>
    `${round(Math.min(...values), 2)}-${round(Math.max(...values), 2)}`;
  console.log(
    `Memory per record, --seed-count 0, ${m.count} creates over HTTP and a list of them (issue 28 asks about 2x its JSON; median of ${m.rounds} mocks): ` +
      `${round(m.perRecord, 0)} B of RSS for ${round(m.jsonPerRecord, 0)} B of JSON (${round(m.ratio, 2)}x, ${range(m.ratios)}); ` +
      `V8 heap and off-heap ${round(m.heapPerRecord, 0)} B (${round(m.heapRatio, 2)}x, ${range(m.heapRatios)}); ` +
      `the rest, by mock: V8 pages held empty ${m.v8FreePerRecord.join(', ')} B, outside V8's heap ${m.outsidePerRecord.join(', ')} B`,
  );
}

export function printRedisStore(bench: RedisStoreBench) {
  if ('skipped' in bench) {
    console.log(`\nRedis store (issue 17): not measured, ${bench.skipped}`);
    return;
  }
  const median = (values: readonly number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  console.log(
    `\nRedis store (issue 17) against the memory store, at the store level: ops/s, median of ${bench.rows[0]?.redis.length ?? 0} rounds; Redis ${bench.redisVersion} on this machine (${bench.redisCore}), one connection`,
  );
  console.log(
    `${'operation'.padEnd(30)} ${pad('redis ops/s', 12)} ${pad('memory ops/s', 13)}  redis / memory`,
  );
  for (const row of bench.rows) {
    const redis = median(row.redis);
    const memory = median(row.memory);
    console.log(
      `${row.operation.padEnd(30)} ${pad(Math.round(redis), 12)} ${pad(Math.round(memory), 13)}  ${round(redis / memory, 3)}`,
    );
  }
}
