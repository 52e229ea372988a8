// `npm run bench`: the mock against a bare express baseline, side by side on this machine.
// Each round loads both servers back to back, in alternating order, and yields one ratio:
// drift in a shared machine then hits both sides of a ratio alike.
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { load, type LoadResult } from './load.js';
import {
  BENCH_KEY,
  pinLoadGenerator,
  startBaseline,
  startMock,
  type ServerProcess,
} from './processes.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SIZES = (process.env.BENCH_SIZES ?? '100,1000,10000,100000').split(',').map(Number);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

/** The ratios of rounds: their median, and their spread. */
interface Ratio {
  median: number;
  min: number;
  max: number;
}
const ratioOf = (values: number[]): Ratio => ({
  median: round(median(values)),
  min: round(Math.min(...values)),
  max: round(Math.max(...values)),
});

/** Loads both servers once per round, in alternating order. */
async function rounds<T>(servers: ServerProcess[], measure: (server: ServerProcess) => Promise<T>) {
  const results: { mock: T; baseline: T }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? servers : [...servers].reverse();
    const round: Partial<Record<ServerProcess['name'], T>> = {};
    for (const server of order) round[server.name] = await measure(server);
    results.push(round as { mock: T; baseline: T });
  }
  return results;
}

function checked(result: LoadResult): LoadResult {
  if (result.non2xx + result.errors > 0)
    throw new Error(`${result.non2xx + result.errors} requests failed during the run`);
  return result;
}

/** A load run, with the CPU the server spent per request (µs) when the OS tells it. */
type Measured = LoadResult & { cpuMicros: number | undefined };

const summary = (results: Measured[]) => ({
  rps: Math.round(median(results.map((r) => r.rps))),
  p50: median(results.map((r) => r.p50)),
  p99: median(results.map((r) => r.p99)),
  cpuMicros: results.every((r) => r.cpuMicros !== undefined)
    ? Math.round(median(results.map((r) => r.cpuMicros!)))
    : undefined,
});

interface Throughput {
  scenario: string;
  connections: number;
  mock: ReturnType<typeof summary>;
  baseline: ReturnType<typeof summary>;
  ratio: Ratio;
  /** Baseline CPU per request / mock CPU per request: the same scale as `ratio`, free of the load generator. */
  cpuRatio: Ratio | undefined;
}

/** List and create at 10 and 50 connections, both servers fresh for each scenario. */
async function throughput(): Promise<Throughput[]> {
  const rows: Throughput[] = [];
  for (const method of ['GET', 'POST'] as const) {
    for (const connections of [10, 50]) {
      const servers = await Promise.all([startBaseline(10), startMock(10)]);
      const run = async (server: ServerProcess, seconds: number): Promise<Measured> => {
        const before = server.cpuSeconds();
        const result = checked(await load({ url: server.url, method, connections, seconds }));
        const after = server.cpuSeconds();
        const cpu = before === undefined || after === undefined ? undefined : after - before;
        return { ...result, cpuMicros: cpu === undefined ? undefined : (cpu * 1e6) / result.total };
      };
      for (const server of servers) await run(server, 1); // warm-up: JIT, caches, validators
      const results = await rounds(servers, (server) => run(server, SECONDS));
      await Promise.all(servers.map((server) => server.stop()));
      const scenario = method === 'GET' ? 'list (10 categories)' : 'create';
      const row = {
        scenario,
        connections,
        mock: summary(results.map((r) => r.mock)),
        baseline: summary(results.map((r) => r.baseline)),
        ratio: ratioOf(results.map((r) => r.mock.rps / r.baseline.rps)),
        cpuRatio: results.every((r) => r.mock.cpuMicros && r.baseline.cpuMicros)
          ? ratioOf(results.map((r) => r.baseline.cpuMicros! / r.mock.cpuMicros!))
          : undefined,
      };
      rows.push(row);
      console.error(
        `  ${scenario} @${connections}: ratio ${row.ratio.median} (${row.ratio.min}-${row.ratio.max})`,
      );
    }
  }
  return rows;
}

interface Scaling {
  categories: number;
  bytes: number;
  mockMs: number;
  baselineMs: number;
  ratio: Ratio;
}

/** The cost of one list request as the store grows: one connection, requests back to back. */
async function scaling(): Promise<Scaling[]> {
  const rows: Scaling[] = [];
  for (const count of SIZES) {
    const servers = await Promise.all([startBaseline(count), startMock(count)]);
    const res = await fetch(`${servers[1].url}/categories`, {
      headers: { authorization: `Bearer ${BENCH_KEY}` },
    });
    const bytes = (await res.arrayBuffer()).byteLength;
    // At one connection, the time of a request is the inverse of the rate.
    const msPerRequest = async (server: ServerProcess) =>
      1000 /
      checked(await load({ url: server.url, method: 'GET', connections: 1, seconds: SECONDS })).rps;
    for (const server of servers) await msPerRequest(server);
    const results = await rounds(servers, msPerRequest);
    await Promise.all(servers.map((server) => server.stop()));
    const row = {
      categories: count,
      bytes,
      mockMs: round(median(results.map((r) => r.mock)), 3),
      baselineMs: round(median(results.map((r) => r.baseline)), 3),
      ratio: ratioOf(results.map((r) => r.mock / r.baseline)),
    };
    rows.push(row);
    console.error(`  list of ${count}: mock ${row.mockMs} ms, baseline ${row.baselineMs} ms`);
  }
  return rows;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Process start to the first successful list answer, as `npm start` starts (build excluded). */
async function startup(): Promise<{ runs: number[]; medianMs: number }> {
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const port = await freePort();
    const started = performance.now();
    // Unpinned: users start the mock with every core, and start-up uses several threads.
    const mock = startMock(10, port, false);
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/v1/categories`, {
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

interface Memory {
  count: number;
  perCategory: number;
  jsonPerCategory: number;
  beyondJson: number;
}

function memory(count: number): Promise<Memory> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'bench/memory.ts', String(count)],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(output) as Memory)
        : reject(new Error(`memory probe exited with ${code}`)),
    );
  });
}

// Start-up first: children inherit affinity, and users start the mock with every core.
const startupResult = await startup();
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
  throughput: await throughput(),
  scaling: await scaling(),
  startup: startupResult,
  memory: await memory(100_000),
};

const pad = (value: unknown, width: number) => String(value).padStart(width);
const range = (ratio: Ratio) => `${ratio.median} (${ratio.min}-${ratio.max})`;
console.log(
  `\nThroughput, validation on (${ROUNDS} paired rounds of ${SECONDS}s; ratio = mock rps / baseline rps, median and range)`,
);
console.log(
  'scenario              conns   mock rps  p50 ms  p99 ms  cpu µs   base rps  p50 ms  p99 ms  cpu µs  rps ratio         cpu ratio',
);
for (const t of results.throughput) {
  console.log(
    `${t.scenario.padEnd(20)} ${pad(t.connections, 6)} ${pad(t.mock.rps, 10)} ${pad(t.mock.p50, 7)} ${pad(t.mock.p99, 7)} ${pad(t.mock.cpuMicros ?? '-', 7)} ` +
      `${pad(t.baseline.rps, 10)} ${pad(t.baseline.p50, 7)} ${pad(t.baseline.p99, 7)} ${pad(t.baseline.cpuMicros ?? '-', 7)}  ` +
      `${range(t.ratio).padEnd(17)} ${t.cpuRatio ? range(t.cpuRatio) : '-'}`,
  );
}
console.log(
  '(cpu µs: server CPU time per request; cpu ratio = baseline cpu µs / mock cpu µs, higher is better)',
);
console.log('\nList cost as the store grows (one connection; ratio = mock ms / baseline ms)');
console.log('categories       bytes   mock ms   base ms  ratio');
for (const s of results.scaling) {
  console.log(
    `${pad(s.categories, 10)} ${pad(s.bytes, 11)} ${pad(s.mockMs, 9)} ${pad(s.baselineMs, 9)}  ${range(s.ratio)}`,
  );
}
console.log(
  `\nStart-up to first list answer: median ${results.startup.medianMs} ms (runs: ${results.startup.runs.join(', ')})`,
);
const m = results.memory;
console.log(
  `Memory per stored category (${m.count} stored): ${round(m.perCategory, 0)} B, of which ${round(m.jsonPerCategory, 0)} B ` +
    `is its JSON: ${round(m.beyondJson, 0)} B beyond its JSON size`,
);

const dir = `${ROOT}bench/results`;
await mkdir(dir, { recursive: true });
await writeFile(`${dir}/latest.json`, `${JSON.stringify(results, null, 2)}\n`);
console.log('\nJSON: bench/results/latest.json');
