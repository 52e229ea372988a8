// Run as `node --import tsx bench/memory.ts <count>` (after `npm run build`): issue 28's row.
// The mock as users run it (`--seed-count 0`), filled with <count> categories of about 120
// bytes of JSON by creates over HTTP, then listed whole: the memory it holds per record beside
// the record's JSON size (the target: about 2 times). Each measure is taken idle, after a full
// GC, and the first after as many requests that store nothing: what serving requests grows
// (V8's young generation, malloc's arenas) is the process's, not the records'. RSS per record
// is (RSS after the creates and two lists - RSS before) / count; the ratio divides it by the
// bytes of JSON a record has in the list.
import { checked, load } from './load.js';
import type { MemoryReport } from './probe-messages.js';
import { BENCH_KEY, startMock } from './processes.js';
import { median } from './stats.js';

const count = Number(process.argv[2] ?? 100_000);
/** Mocks measured, each started afresh. */
const ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? 3);
/** V8 shrinks its heap after some seconds of idleness (its memory reducer). */
const IDLE_MS = 12_000;
/** A category whose JSON, with its id, is about 120 bytes, as in the issue. */
const body = JSON.stringify({
  name: 'Bench category',
  description: 'A category of the memory bench, about one hundred and twenty bytes.',
});

/** The same category without its name: a create the mock refuses, storing nothing. */
const refused = body.replace('"name"', '"title"');

/** One mock, filled and listed: its memory per record. */
async function measure() {
  const mock = await startMock({ seedCount: 0, probe: true });
  try {
    const idleMemory = async () => {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      return mock.ask({ type: 'memory', gc: true });
    };
    const list = async () => {
      const res = await fetch(`${mock.url}/categories`, {
        headers: { authorization: `Bearer ${BENCH_KEY}` },
      });
      // Only the size is kept: the client's copy must not count as the mock's memory.
      return (await res.arrayBuffer()).byteLength;
    };
    // As many requests that store nothing, on as many connections, as the fill: creates the
    // mock refuses (400, no name), which grow what a create grows (V8's young generation above
    // all: a burst of 404 reads left it small, and the creates' burst then counted its growth,
    // up to 34 MB, as the records').
    await load({ url: mock.url, method: 'POST', connections: 20, amount: count, body: refused });
    await list();
    const before = await idleMemory();
    checked(await load({ url: mock.url, method: 'POST', connections: 20, amount: count, body }));
    const listBytes = await list();
    await list();
    const after = await idleMemory();
    if (process.env.BENCH_MEMORY_DETAIL) console.error(JSON.stringify({ before, after }));
    // The list's brackets and commas are not the records'.
    const jsonPerRecord = (listBytes - 2 - (count - 1)) / count;
    const perRecord = (after.rss - before.rss) / count;
    const heapPerRecord =
      (after.heapUsed + after.external - before.heapUsed - before.external) / count;
    // Where RSS beyond the heap's objects went: pages V8 holds empty (its young generation
    // grown by the burst, free room in its old space), and what grew outside V8's heap
    // (malloc's arenas keep what they freed).
    const free = (m: MemoryReport) => m.heapTotal - m.heapUsed;
    const outside = (m: MemoryReport) => m.rss - m.heapTotal - m.external;
    const v8FreePerRecord = (free(after) - free(before)) / count;
    const outsidePerRecord = (outside(after) - outside(before)) / count;
    return { jsonPerRecord, perRecord, heapPerRecord, v8FreePerRecord, outsidePerRecord };
  } finally {
    await mock.stop();
  }
}

// RSS moves with what V8 and malloc keep of freed pages, from one run to the next by tens of
// bytes a record: the row is the median of several mocks, with the range.
const runs = [];
for (let round = 0; round < ROUNDS; round++) runs.push(await measure());
const jsonPerRecord = runs[0]!.jsonPerRecord;
const ratios = runs.map((run) => run.perRecord / jsonPerRecord);
const heapRatios = runs.map((run) => run.heapPerRecord / jsonPerRecord);
console.log(
  JSON.stringify({
    count,
    rounds: ROUNDS,
    jsonPerRecord,
    perRecord: median(runs.map((run) => run.perRecord)),
    ratio: median(ratios),
    ratios,
    heapPerRecord: median(runs.map((run) => run.heapPerRecord)),
    heapRatio: median(heapRatios),
    heapRatios,
    v8FreePerRecord: runs.map((run) => Math.round(run.v8FreePerRecord)),
    outsidePerRecord: runs.map((run) => Math.round(run.outsidePerRecord)),
  }),
);
