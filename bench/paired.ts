// Paired rounds: each round loads the servers back to back, in alternating order, and yields
// one ratio: drift in a shared machine then hits both sides of a ratio alike.
import { checked, load, type LoadOptions, type LoadResult } from './load.js';
import type { ServerProcess } from './processes.js';
import { median, ratioOf, type Ratio } from './stats.js';

export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
/**
 * The pairs of fresh processes `pairedOver` spreads its rounds over: two processes of one build
 * differ by up to a tenth for their whole lives (decision 067).
 */
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
/** The rounds of each pair: BENCH_ROUNDS spread over them, at least two a pair. */
const ROUNDS_A_PAIR = Math.max(2, Math.ceil(ROUNDS / PAIRS));
/** How `pairedOver` spreads its rounds, for a report's header. */
export const SPREAD = `${PAIRS} pairs of fresh processes, ${ROUNDS_A_PAIR} paired rounds of ${SECONDS}s each`;

/** Loads each server once per round, in alternating order; results in the servers' order. */
export async function rounds<T>(
  servers: readonly ServerProcess[],
  measure: (server: ServerProcess) => Promise<T>,
  count = ROUNDS,
): Promise<T[][]> {
  const results: T[][] = [];
  for (let r = 0; r < count; r++) {
    const order = r % 2 === 0 ? [...servers] : [...servers].reverse();
    const round = new Map<ServerProcess, T>();
    for (const server of order) round.set(server, await measure(server));
    results.push(servers.map((server) => round.get(server)!));
  }
  return results;
}

/** A load run, with the CPU the server spent per request (µs) when the OS tells it. */
export type Measured = LoadResult & { cpuMicros: number | undefined };

/** One load run against `server`, all requests answered 2xx. */
export async function measure(
  server: ServerProcess,
  options: Omit<LoadOptions, 'url'>,
): Promise<Measured> {
  const before = server.cpuSeconds();
  const result = checked(await load({ ...options, url: server.url }));
  const after = server.cpuSeconds();
  const cpu = before === undefined || after === undefined ? undefined : after - before;
  return { ...result, cpuMicros: cpu === undefined ? undefined : (cpu * 1e6) / result.total };
}

export interface Summary {
  rps: number;
  p50: number;
  p99: number;
  cpuMicros: number | undefined;
}

const summary = (results: Measured[]): Summary => ({
  rps: Math.round(median(results.map((r) => r.rps))),
  p50: median(results.map((r) => r.p50)),
  p99: median(results.map((r) => r.p99)),
  cpuMicros: results.every((r) => r.cpuMicros !== undefined)
    ? Math.round(median(results.map((r) => r.cpuMicros!)))
    : undefined,
});

/** A server under test against a reference, over paired rounds. */
export interface PairedRow {
  scenario: string;
  connections: number;
  subject: Summary;
  reference: Summary;
  /** subject rps / reference rps, per round. */
  ratio: Ratio;
  /** reference CPU per request / subject CPU per request: the scale of `ratio`, free of the load generator. */
  cpuRatio: Ratio | undefined;
}

/**
 * Warms both servers up (JIT, caches, validators) with one run each, then runs paired rounds.
 * `run` must leave a server able to run again (a DELETE run creates what it deletes).
 */
export async function paired(
  scenario: string,
  connections: number,
  [subject, reference]: readonly [ServerProcess, ServerProcess],
  run: (server: ServerProcess, seconds: number) => Promise<Measured>,
): Promise<PairedRow> {
  for (const server of [subject, reference]) await run(server, 1);
  const results = await rounds([subject, reference], (server) => run(server, SECONDS));
  const row = rowOf(scenario, connections, results);
  console.error(
    `  ${scenario} @${connections}: ratio ${row.ratio.median} (${row.ratio.min}-${row.ratio.max})`,
  );
  return row;
}

/**
 * `paired`, its rounds (BENCH_ROUNDS, at least two a pair) spread over BENCH_PAIRS pairs of
 * processes, each pair started fresh (by `start`), warmed up, and stopped after its rounds.
 */
export async function pairedOver(
  scenario: string,
  connections: number,
  start: () => Promise<readonly [ServerProcess, ServerProcess]>,
  run: (server: ServerProcess, seconds: number) => Promise<Measured>,
): Promise<PairedRow> {
  const results: Measured[][] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    const servers = await start();
    try {
      for (const server of servers) await run(server, 1);
      results.push(...(await rounds(servers, (server) => run(server, SECONDS), ROUNDS_A_PAIR)));
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }
  const row = rowOf(scenario, connections, results);
  console.error(
    `  ${scenario} @${connections}: ratio ${row.ratio.median} (${row.ratio.min}-${row.ratio.max}), ${PAIRS} pairs of processes`,
  );
  return row;
}

/** The row of paired rounds: each round's [subject, reference] measures. */
function rowOf(scenario: string, connections: number, results: Measured[][]): PairedRow {
  return {
    scenario,
    connections,
    subject: summary(results.map((r) => r[0]!)),
    reference: summary(results.map((r) => r[1]!)),
    ratio: ratioOf(results.map(([s, r]) => s!.rps / r!.rps)),
    cpuRatio: results.every(([s, r]) => s!.cpuMicros && r!.cpuMicros)
      ? ratioOf(results.map(([s, r]) => r!.cpuMicros! / s!.cpuMicros!))
      : undefined,
  };
}
