// `npm run bench`: the mock against bare express baselines, side by side on this machine, in
// paired alternating rounds (bench/paired.ts), plus the rows of issues 8 and 10: a list of
// 100,000 records of 1 KB and what waits behind it, item reads and writes, creates with
// --data, the Redis store against the memory store (issue 17), start-up with a spec of 50
// operations, start-up on the largest documents of the corpus (issue 15), and start-up and
// every operation's first call on the largest public descriptions (issue 28).
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { bigList } from './big-list.js';
import { contractStartup, printContractStartup } from './contract-startup.js';
import { corpusLarge, printCorpusLarge } from './corpus-large.js';
import { dataStore } from './data-store.js';
import { items } from './items.js';
import { largeSpecStartups } from './large-spec.js';
import { ROUNDS, SECONDS, SPREAD } from './paired.js';
import { pinLoadGenerator, ROOT } from './processes.js';
import { redisStore } from './redis-store.js';
import { replicas } from './replicas.js';
import * as report from './report.js';
import { startup, startup50 } from './startup.js';
import { idle } from './idle.js';
import { scaling, throughput, throughputRaw } from './throughput.js';

const numbers = (value: string) => value.split(',').map(Number);
const SIZES = numbers(process.env.BENCH_SIZES ?? '100,1000,10000,100000');
const BIG = {
  count: Number(process.env.BENCH_BIG_COUNT ?? 100_000),
  recordBytes: Number(process.env.BENCH_BIG_RECORD_BYTES ?? 1024),
  seconds: Number(process.env.BENCH_BIG_SECONDS ?? 4),
  // Last, no clients again: a create after lists must be as fast as before them.
  clients: numbers(process.env.BENCH_BIG_CLIENTS ?? '0,1,2,4,0'),
};
const SECTIONS = [
  'throughput',
  'raw',
  'idle',
  'scaling',
  'startup',
  'large',
  'corpus',
  'memory',
  'lists',
  'items',
  'data',
  'redis',
  'replicas',
  'biglist',
  'contract',
] as const;
type Section = (typeof SECTIONS)[number];
const only = process.env.BENCH_ONLY?.split(',');
const unknown = only?.filter((name) => !(SECTIONS as readonly string[]).includes(name));
if (unknown?.length)
  throw new Error(
    `BENCH_ONLY: unknown section ${unknown.join(', ')} (known: ${SECTIONS.join(', ')})`,
  );
const took: Partial<Record<Section, number>> = {};

/** Runs a section unless BENCH_ONLY leaves it out, and notes how long it took. */
async function section<T>(name: Section, run: () => Promise<T>): Promise<T | undefined> {
  if (only && !only.includes(name)) return undefined;
  console.error(`${name}:`);
  const started = performance.now();
  const result = await run();
  took[name] = Math.round((performance.now() - started) / 1000);
  return result;
}

/** bench/list-shapes.ts's answer: how long each shape of list of `count` records takes. */
interface ListShapes {
  count: number;
  rows: Record<string, { medianMs: number; minMs: number; bytes: number }>;
}

/** Runs bench/list-shapes.ts in a process of its own: its store of 100,000 records stays there. */
function listShapes(count: number): Promise<ListShapes> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/list-shapes.ts', String(count)],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(output) as ListShapes)
        : reject(new Error(`list shapes exited with ${code}`)),
    );
  });
}

function memory(count: number): Promise<report.MemoryFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/memory.ts', String(count)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(output) as report.MemoryFigures)
        : reject(new Error(`memory probe exited with ${code}`)),
    );
  });
}

const started = performance.now();
// Start-ups first: children inherit affinity, and users start the mock with every core.
const startups = await section('startup', async () => ({
  petstore: await startup(),
  spec50: await startup50(),
}));
const large = await section('large', () => largeSpecStartups());
const corpus = await section('corpus', corpusLarge);
const pinning = pinLoadGenerator();
console.error(
  `petstore-kit bench: ${ROUNDS} paired rounds of ${SECONDS}s per scenario; ${pinning}`,
);
const results = {
  date: new Date().toISOString(),
  node: process.version,
  rounds: ROUNDS,
  seconds: SECONDS,
  pinning,
  throughput: await section('throughput', throughput),
  throughputRaw: await section('raw', throughputRaw),
  idle: await section('idle', () =>
    idle(
      Number(process.env.BENCH_IDLE_SECONDS ?? 50),
      process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean),
    ),
  ),
  scaling: await section('scaling', () => scaling(SIZES)),
  startup: startups,
  large,
  corpus,
  memory: await section('memory', () => memory(100_000)),
  lists: await section('lists', () => listShapes(100_000)),
  items: await section('items', items),
  dataStore: await section('data', dataStore),
  redisStore: await section('redis', redisStore),
  replicas: await section('replicas', replicas),
  bigList: await section('biglist', () => bigList(BIG)),
  contract: await section('contract', contractStartup),
  /** Seconds each section took. */
  took,
  minutes: Math.round((performance.now() - started) / 600) / 100,
};

const header = `${ROUNDS} paired rounds of ${SECONDS}s; ratio median and range`;
if (results.throughput)
  report.printPaired(
    `Throughput, Pet Store spec, validation on (${header})`,
    ['mock', 'baseline'],
    results.throughput,
  );
if (results.throughputRaw)
  report.printPaired(
    `Throughput against raw node:http, the limit of one process (${SPREAD}; ratio median and range); issue 45 asks, by CPU per request with default logging, GET >= 0.6, POST >= 0.5`,
    ['mock', 'raw'],
    results.throughputRaw,
  );
if (results.idle)
  console.log(
    `\nGET after ${results.idle.gapSeconds} s idle: ${results.idle.afterRps.join(', ')} GET/s against ${results.idle.beforeRps} before; ratio ${results.idle.ratio} (issue 18 asks >= 0.85)`,
  );
if (results.items)
  report.printPaired(
    `Item operations, library spec, 100 authors (${header})`,
    ['mock', 'baseline'],
    results.items,
  );
if (results.dataStore) report.printDataStore(results.dataStore);
if (results.redisStore) report.printRedisStore(results.redisStore);
if (results.replicas) {
  console.log(
    '\nThe mock over HTTP with --redis, one and two replicas (requests/s, median of the rounds)',
  );
  if ('skipped' in results.replicas) console.log(`  skipped: ${results.replicas.skipped}`);
  else
    for (const row of results.replicas.rows)
      console.log(
        `  ${row.scenario.padEnd(30)} memory ${String(row.memory).padStart(6)}  redis x1 ${String(row.redisOne).padStart(6)}  redis x2 ${String(row.redisTwo).padStart(6)}  (x1/memory ${(row.redisOne / row.memory).toFixed(2)})`,
      );
}
if (results.scaling) report.printScaling(results.scaling);
if (results.bigList) report.printBigList(results.bigList, BIG.seconds);
console.log('');
if (results.startup) {
  report.printStartup('Pet Store spec (6 operations)', results.startup.petstore);
  report.printStartup(
    'generated spec of 50 operations',
    results.startup.spec50,
    ' (the first run also checks the new spec text)',
  );
}
if (results.large) report.printLargeStartups(results.large);
if (results.corpus) printCorpusLarge(results.corpus);
if (results.memory) report.printMemory(results.memory);
if (results.contract) printContractStartup(results.contract);
if (results.lists) {
  console.log(
    `\nA list of ${results.lists.count} categories in each shape, in process (ms, median and fastest of 7)`,
  );
  for (const [shape, row] of Object.entries(results.lists.rows))
    console.log(
      `  ${shape.padEnd(10)} ${String(row.medianMs).padStart(8)} ${String(row.minMs).padStart(8)}  ${row.bytes} B`,
    );
}

const dir = `${ROOT}bench/results`;
await mkdir(dir, { recursive: true });
await writeFile(`${dir}/latest.json`, `${JSON.stringify(results, null, 2)}\n`);
console.log(
  `\nThe bench took ${results.minutes} min (seconds by section: ${JSON.stringify(took)}); JSON: bench/results/latest.json`,
);
