// `npx tsx bench/floor.ts <before>/cli/bin.js <after>/cli/bin.js`: two builds of the mock and raw
// node:http, as `npm start` runs the mock (request log on, unless BENCH_QUIET=1), loaded in
// alternating rounds (list and create, 10 connections), by server CPU per request: the median,
// and the floor (the least of any round). On a machine other processes load, a round is
// slowed by what shares its core and never sped up, so the floor is the figure nearest a quiet
// machine's, and the ratios of floors the nearest its ratios.
import { measure, rounds, type Measured } from './paired.js';
import { pinLoadGenerator, startMock, startRaw } from './processes.js';
import { median } from './stats.js';

const [before, after] = process.argv.slice(2);
if (!before || !after) throw new Error('usage: bench/floor.ts <before bin.js> <after bin.js>');
const quiet = process.env.BENCH_QUIET === '1';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 1);
console.error(pinLoadGenerator());
const logging = quiet ? '--quiet' : 'default logging';
console.log(`CPU µs per request, median / floor, ${logging}, 10 connections`);
console.log('| scenario | raw | before | after | raw/before (floor) | raw/after (floor) |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const method of ['GET', 'POST'] as const) {
  const servers = await Promise.all([
    startRaw(10),
    startMock({ seedCount: 10, quiet, entry: before, name: 'before' }),
    startMock({ seedCount: 10, quiet, entry: after, name: 'after' }),
  ]);
  const run = (seconds: number) => (server: (typeof servers)[number]) =>
    measure(server, { method, connections: 10, seconds });
  for (const server of servers) await run(1)(server); // warm-up: JIT, caches
  const results = await rounds(servers, run(SECONDS));
  await Promise.all(servers.map((server) => server.stop()));
  const cpu = (i: number) => results.map((round) => (round[i] as Measured).cpuMicros ?? NaN);
  const [raw, old, now] = [0, 1, 2].map((i) => ({
    median: Math.round(median(cpu(i))),
    floor: Math.round(Math.min(...cpu(i))),
  })) as [
    { median: number; floor: number },
    { median: number; floor: number },
    { median: number; floor: number },
  ];
  const shown = (s: { median: number; floor: number }) => `${s.median} / ${s.floor}`;
  console.log(
    `| ${method === 'GET' ? 'list (10 categories)' : 'create'} | ${shown(raw)} | ${shown(old)} | ${shown(now)} | ${(raw.floor / old.floor).toFixed(2)} | ${(raw.floor / now.floor).toFixed(2)} |`,
  );
}
