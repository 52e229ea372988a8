// Issue 8's rows: a store of 100,000 categories of about 1 KB, filled through the HTTP API as
// clients would fill it; how long one whole list takes, the memory the mock holds, and above
// all how long small requests wait while clients keep fetching that list.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setPriority } from 'node:os';
import { keepAlive, send } from './http-client.js';
import { openLoop, type Target, type TargetLatency } from './latency.js';
import { checked, load } from './load.js';
import type { DelayReport } from './probe-messages.js';
import { BENCH_KEY, ROOT, startMock, type ServerProcess } from './processes.js';
import { latencyOf, median, round, type Latency } from './stats.js';

export interface BigListOptions {
  /** Categories in the store. */
  count: number;
  /** The size of each category as JSON, in bytes. */
  recordBytes: number;
  /** How long each contention phase probes. */
  seconds: number;
  /** Clients fetching the list in each contention phase, in order. */
  clients: readonly number[];
}

/** The mock's memory at one moment, in bytes. */
export interface MemoryPoint {
  when: string;
  rss: number;
  /** The highest RSS so far (VmHWM). */
  peakRss: number;
  heapUsed: number;
  /** Off-heap memory V8 knows of: strings' and buffers' backing stores. */
  external: number;
}

export interface Contention {
  /** Clients fetching the whole list back to back during the phase. */
  listClients: number;
  /** Whether the list clients ran at the lowest CPU priority, behind the latency probe. */
  listClientsNiced: boolean;
  /** Lists those clients received, and how long each took. */
  lists: { count: number; medianMs: number | undefined; maxMs: number | undefined };
  create: TargetLatency;
  get: TargetLatency;
  /**
   * The same requests as the mock timed them (its request log: from the parsed request to the
   * answer sent): what the client saw beyond it was spent before the mock read the request,
   * or in the client's own process.
   */
  server: { create: Latency; get: Latency };
  /** How late the mock's event loop ran a 1 ms timer during the phase. */
  loopDelay: DelayReport;
}

export interface BigList {
  count: number;
  listBytes: number;
  fill: { seconds: number; rps: number; p99: number };
  /** The first list after filling, and lists each right after a create. */
  firstListMs: number;
  listAfterWrite: Latency;
  memory: MemoryPoint[];
  contention: Contention[];
}

/** A category whose JSON, id included, is about `bytes` long. */
function categoryOf(bytes: number): string {
  const filler = 'A category of the benchmark, long enough to make its record about a kilobyte. ';
  const description = filler.repeat(Math.ceil(bytes / filler.length)).slice(0, bytes - 50);
  return JSON.stringify({ name: 'Bench', description });
}

async function memoryAt(mock: ServerProcess, when: string, gc = false): Promise<MemoryPoint> {
  const { rss, heapUsed, external } = await mock.ask({ type: 'memory', gc });
  return { when, rss, peakRss: mock.resident()?.peak ?? NaN, heapUsed, external };
}

/** The mock's own timings of the requests it answered since `since` (epoch ms), from its request log. */
async function serverTimings(mock: ServerProcess, since: number): Promise<Contention['server']> {
  const { origin, pathname } = new URL(mock.url);
  const res = await fetch(`${origin}/__mock/requests?limit=1000&view=summary`, {
    headers: { authorization: `Bearer ${BENCH_KEY}` },
  });
  if (res.status !== 200) throw new Error(`the request log answered ${res.status}`);
  const { requests: entries } = (await res.json()) as {
    requests: { method: string; path: string; durationMs: number; time: string }[];
  };
  const of = (method: string, path: string) =>
    latencyOf(
      entries
        .filter((e) => e.method === method && e.path === `${pathname}${path}`)
        .filter((e) => Date.parse(e.time) >= since)
        .map((e) => e.durationMs),
    );
  return { create: of('POST', '/categories'), get: of('GET', '/pets/10') };
}

/** Gives a process the lowest CPU priority (nice 19); false where the system refuses. */
function lowestPriority(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    setPriority(pid, 19);
    return true;
  } catch {
    return false;
  }
}

/** Starts `clients` list fetchers in a process of their own; `stop` ends them and reports. */
async function listClients(url: string, clients: number) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/list-clients.ts', `${url}/categories`, String(clients)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // The list clients stand for other users on other machines: on this one they share the load
  // generator's core with the latency probe, whose timers and reads they delayed by tens of ms
  // (the mock itself answered those creates within about 1 ms). At the lowest priority they
  // still take what the probe leaves of the core, so the mock streams as much as before.
  const niced = lowestPriority(child.pid);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('started\n')) resolve();
    });
    // Once started, an exit settles nothing: `stop` waits for it.
    child.once('exit', (code) => reject(new Error(`the list clients exited with ${code}`)));
  });
  return {
    niced,
    async stop(): Promise<{ times: number[]; failed: number }> {
      const stopped = once(child, 'exit');
      child.kill('SIGTERM');
      await stopped;
      return JSON.parse(output.slice(output.indexOf('\n') + 1)) as {
        times: number[];
        failed: number;
      };
    },
  };
}

export async function bigList(options: BigListOptions): Promise<BigList> {
  const { count, recordBytes, seconds } = options;
  const body = categoryOf(recordBytes);
  // BENCH_MOCK_NODE_ARGS: flags of node for the mock, e.g. `--trace-gc` or `--cpu-prof`.
  const nodeArgs = process.env.BENCH_MOCK_NODE_ARGS?.split(' ').filter(Boolean);
  const mock = await startMock({ seedCount: 0, probe: true, nodeArgs });
  try {
    // Over 20 connections, as a busy client would: filling is creates as the store grows.
    const fill = checked(
      await load({ url: mock.url, method: 'POST', connections: 20, amount: count, body }),
    );
    console.error(`  filled ${count} categories in ${round(fill.seconds, 1)} s`);
    const memory = [await memoryAt(mock, 'after filling')];

    const agent = keepAlive(1);
    const listUrl = `${mock.url}/categories`;
    const timedList = async () => {
      const started = performance.now();
      const { status, bytes } = await send(agent, listUrl);
      if (status !== 200) throw new Error(`the list answered ${status}`);
      return { ms: performance.now() - started, bytes };
    };
    const first = await timedList();
    const afterWrite: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { status } = await send(agent, listUrl, { method: 'POST', body });
      if (status !== 201) throw new Error(`a create answered ${status}`);
      afterWrite.push((await timedList()).ms);
    }
    agent.destroy();
    memory.push(await memoryAt(mock, 'after 6 lists'));
    console.error(
      `  list of ${count}: first ${round(first.ms, 0)} ms, after a write ${round(median(afterWrite), 0)} ms`,
    );

    const targets: Target[] = [
      { name: 'create', method: 'POST', path: '/categories', body, status: 201 },
      { name: 'get', method: 'GET', path: '/pets/10', status: 200 },
    ];
    const contention: Contention[] = [];
    for (const clients of options.clients) {
      const fetchers = clients > 0 ? await listClients(mock.url, clients) : undefined;
      const since = Date.now();
      await mock.ask({ type: 'delay-start' });
      const latency = await openLoop(mock.url, targets, seconds);
      const loopDelay = await mock.ask({ type: 'delay-stop' });
      const lists = (await fetchers?.stop()) ?? { times: [], failed: 0 };
      if (lists.failed > 0) throw new Error(`${lists.failed} lists failed`);
      const row: Contention = {
        listClients: clients,
        listClientsNiced: fetchers?.niced ?? false,
        lists: {
          count: lists.times.length,
          medianMs: lists.times.length ? round(median(lists.times), 0) : undefined,
          maxMs: lists.times.length ? round(Math.max(...lists.times), 0) : undefined,
        },
        create: latency.create!,
        get: latency.get!,
        server: await serverTimings(mock, since),
        loopDelay,
      };
      contention.push(row);
      console.error(
        `  ${clients} list clients: create p99 ${row.create.p99} ms, max ${row.create.max} ms; loop delay max ${loopDelay.max} ms`,
      );
    }
    // Whole and valid: a list sent in slices must still parse, with every record. Checked last:
    // parsing 100 MB here would make this process pause for GC during the phases above.
    const parsed = (await (
      await fetch(listUrl, { headers: { authorization: `Bearer ${BENCH_KEY}` } })
    ).json()) as unknown[];
    if (parsed.length < count)
      throw new Error(`the list has ${parsed.length} records, not ${count}`);

    memory.push(await memoryAt(mock, 'after the lists under load'));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    memory.push(await memoryAt(mock, 'idle 2 s, then full GC', true));

    return {
      count,
      listBytes: first.bytes,
      fill: { seconds: round(fill.seconds, 1), rps: Math.round(fill.rps), p99: fill.p99 },
      firstListMs: round(first.ms, 0),
      listAfterWrite: latencyOf(afterWrite),
      memory,
      contention,
    };
  } finally {
    await mock.stop();
  }
}
