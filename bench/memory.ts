// Run as `node --import tsx bench/memory.ts <count>` (after `npm run build`): issue 28's row.
// The mock as users run it (`--seed-count 0`), filled with <count> categories of about 120
// bytes of JSON by creates over HTTP, then listed whole: the memory it holds per record beside
// the record's JSON size (the target: about 2 times). Each measure is taken idle, after a full
// GC, and the first after as many requests that store nothing: what serving requests grows
// (V8's young generation, malloc's arenas) is the process's, not the records'.
import { checked, load } from './load.js';
import { BENCH_KEY, startMock } from './processes.js';

const count = Number(process.argv[2] ?? 100_000);
/** V8 shrinks its heap after some seconds of idleness (its memory reducer). */
const IDLE_MS = 12_000;
/** A category whose JSON, with its id, is about 120 bytes, as in the issue. */
const body = JSON.stringify({
  name: 'Bench category',
  description: 'A category of the memory bench, about one hundred and twenty bytes.',
});

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
  // As many requests that store nothing (404), on as many connections, as the fill.
  const path = '/categories/1';
  await load({ url: mock.url, method: 'GET', path, connections: 20, amount: count });
  await list();
  const before = await idleMemory();
  checked(await load({ url: mock.url, method: 'POST', connections: 20, amount: count, body }));
  const listBytes = await list();
  await list();
  const after = await idleMemory();
  // The list's brackets and commas are not the records'.
  const jsonPerRecord = (listBytes - 2 - (count - 1)) / count;
  const perRecord = (after.rss - before.rss) / count;
  const heapPerRecord =
    (after.heapUsed + after.external - before.heapUsed - before.external) / count;
  console.log(
    JSON.stringify({
      count,
      jsonPerRecord,
      perRecord,
      ratio: perRecord / jsonPerRecord,
      heapPerRecord,
      heapRatio: heapPerRecord / jsonPerRecord,
    }),
  );
  if (process.env.BENCH_MEMORY_DETAIL) console.error(JSON.stringify({ before, after }));
} finally {
  await mock.stop();
}
