// The Pet Store rows: the mock against the bare express baseline, list and create, and the
// cost of one list as the store grows.
import { keepAlive, send } from './http-client.js';
import { measure, paired, pairedOver, rounds, SECONDS, type PairedRow } from './paired.js';
import { BENCH_KEY, startBaseline, startMock, startRaw, type ServerProcess } from './processes.js';
import { median, ratioOf, round, type Ratio } from './stats.js';

/** List and create at 10 and 50 connections, both servers fresh for each scenario. */
export async function throughput(): Promise<PairedRow[]> {
  const rows: PairedRow[] = [];
  for (const method of ['GET', 'POST'] as const) {
    for (const connections of [10, 50]) {
      const [mock, baseline] = await Promise.all([startMock({ seedCount: 10 }), startBaseline(10)]);
      const scenario = method === 'GET' ? 'list (10 categories)' : 'create';
      rows.push(
        await paired(scenario, connections, [mock, baseline], (server, seconds) =>
          measure(server, { method, connections, seconds }),
        ),
      );
      await Promise.all([mock.stop(), baseline.stop()]);
    }
  }
  return rows;
}

/**
 * The same rows against a raw node:http server serving the same bytes with the same key check:
 * the limit of one Node process on this machine (issue 45 asks GET at 0.6 of it, POST at 0.5,
 * by CPU per request, as `npm start` runs: validation and the request log on), for the
 * default configuration and for `--quiet`, each paired with raw in the same run, over several
 * pairs of processes (see pairedOver).
 */
export async function throughputRaw(): Promise<PairedRow[]> {
  const rows: PairedRow[] = [];
  const CONNECTIONS = (process.env.BENCH_RAW_CONNECTIONS ?? '10,50').split(',').map(Number);
  for (const quiet of [false, true])
    for (const method of ['GET', 'POST'] as const) {
      for (const connections of CONNECTIONS) {
        const scenario = `${method === 'GET' ? 'list (10 categories)' : 'create'}, ${quiet ? '--quiet' : 'default logging'}`;
        rows.push(
          await pairedOver(
            scenario,
            connections,
            () => Promise.all([startMock({ seedCount: 10, quiet }), startRaw(10)] as const),
            (server, seconds) => measure(server, { method, connections, seconds }),
          ),
        );
      }
    }
  return rows;
}

export interface Scaling {
  categories: number;
  bytes: number;
  mockMs: number;
  baselineMs: number;
  ratio: Ratio;
}

/**
 * The median time of lists fetched back to back on one connection for SECONDS, at least three:
 * timed one by one, as autocannon's one-second samples cannot time requests that take 100 ms.
 */
async function backToBack(url: string): Promise<number> {
  const agent = keepAlive(1);
  const times: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  try {
    while (times.length < 3 || performance.now() < until) {
      const started = performance.now();
      const { status } = await send(agent, url);
      if (status !== 200) throw new Error(`a list answered ${status}`);
      times.push(performance.now() - started);
    }
  } finally {
    agent.destroy();
  }
  return median(times);
}

/** The cost of one list request as the store grows: one connection, requests back to back. */
export async function scaling(sizes: readonly number[]): Promise<Scaling[]> {
  const rows: Scaling[] = [];
  for (const count of sizes) {
    const servers = await Promise.all([startMock({ seedCount: count }), startBaseline(count)]);
    const res = await fetch(`${servers[0].url}/categories`, {
      headers: { authorization: `Bearer ${BENCH_KEY}` },
    });
    const bytes = (await res.arrayBuffer()).byteLength;
    const msPerRequest = (server: ServerProcess) => backToBack(`${server.url}/categories`);
    for (const server of servers) await msPerRequest(server);
    const results = await rounds(servers, msPerRequest);
    await Promise.all(servers.map((server) => server.stop()));
    const row = {
      categories: count,
      bytes,
      mockMs: round(median(results.map((r) => r[0]!)), 3),
      baselineMs: round(median(results.map((r) => r[1]!)), 3),
      ratio: ratioOf(results.map(([mock, baseline]) => mock! / baseline!)),
    };
    rows.push(row);
    console.error(`  list of ${count}: mock ${row.mockMs} ms, baseline ${row.baselineMs} ms`);
  }
  return rows;
}
