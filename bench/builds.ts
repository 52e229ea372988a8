// `npx tsx bench/builds.ts <before>/cli/bin.js <after>/cli/bin.js`: two builds of the mock, as
// `npm start` runs them (request log on, unless BENCH_QUIET=1), paired in alternating rounds
// (list and create, 10 connections) over BENCH_PAIRS pairs of fresh processes (see pairedOver),
// by requests/s and server CPU per request. A copy of an older build's dist/ kept inside this
// checkout finds the same node_modules.
import { measure, pairedOver, type PairedRow } from './paired.js';
import { pinLoadGenerator, startMock } from './processes.js';
import { printPaired } from './report.js';

const [before, after] = process.argv.slice(2);
if (!before || !after) throw new Error('usage: bench/builds.ts <before bin.js> <after bin.js>');
const quiet = process.env.BENCH_QUIET === '1';
console.error(pinLoadGenerator());
const rows: PairedRow[] = [];
for (const method of ['GET', 'POST'] as const) {
  const scenario = `${method === 'GET' ? 'list (10 categories)' : 'create'}, ${quiet ? '--quiet' : 'default logging'}`;
  rows.push(
    await pairedOver(
      scenario,
      10,
      () =>
        Promise.all([
          startMock({ seedCount: 10, quiet, entry: after, name: 'after' }),
          startMock({ seedCount: 10, quiet, entry: before, name: 'before' }),
        ] as const),
      (server, seconds) => measure(server, { method, connections: 10, seconds }),
    ),
  );
}
printPaired(`${after} against ${before}`, ['after', 'before'], rows);
