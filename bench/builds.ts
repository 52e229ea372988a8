// `npx tsx bench/builds.ts <before>/cli/bin.js <after>/cli/bin.js`: two builds of the mock, as
// `npm start` runs them (request log on, unless BENCH_QUIET=1), paired in alternating rounds
// (list and create, 10 connections), by requests/s and server CPU per request. A copy of an
// older build's dist/ kept inside this checkout finds the same node_modules.
// Two processes of one build differ by up to a tenth for their whole lives (decision 067): the
// rounds are spread over BENCH_PAIRS pairs of fresh processes (default 3), not one pair.
import { measure, rounds, rowOf, SECONDS, type Measured, type PairedRow } from './paired.js';
import { pinLoadGenerator, startMock } from './processes.js';
import { printPaired } from './report.js';

const [before, after] = process.argv.slice(2);
if (!before || !after) throw new Error('usage: bench/builds.ts <before bin.js> <after bin.js>');
const quiet = process.env.BENCH_QUIET === '1';
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
console.error(pinLoadGenerator());
const rows: PairedRow[] = [];
for (const method of ['GET', 'POST'] as const) {
  const scenario = `${method === 'GET' ? 'list (10 categories)' : 'create'}, ${quiet ? '--quiet' : 'default logging'}`;
  const results: Measured[][] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    const servers = await Promise.all([
      startMock({ seedCount: 10, quiet, entry: after, name: 'after' }),
      startMock({ seedCount: 10, quiet, entry: before, name: 'before' }),
    ]);
    const run = (server: (typeof servers)[number], seconds: number) =>
      measure(server, { method, connections: 10, seconds });
    for (const server of servers) await run(server, 1);
    results.push(...(await rounds(servers, (server) => run(server, SECONDS))));
    await Promise.all(servers.map((server) => server.stop()));
  }
  const row = rowOf(scenario, 10, results);
  console.error(`  ${scenario}: ratio ${row.ratio.median} (${row.ratio.min}-${row.ratio.max})`);
  rows.push(row);
}
printPaired(`${after} against ${before}`, ['after', 'before'], rows);
