// Paired rounds: each round loads the servers back to back, in alternating order, and yields
// one ratio: drift in a shared machine then hits both sides of a ratio alike.
import { checked, load, type LoadOptions, type LoadResult } from './load.js';
import type { ServerProcess } from './processes.js';
import { median, ratioOf, type Ratio } from './stats.js';

export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);

/** Loads each server once per round, in alternating order; results in the servers' order. */
export async function rounds<T>(
  servers: readonly ServerProcess[],
  measure: (server: ServerProcess) => Promise<T>,
): Promise<T[][]> {
  const results: T[][] = [];
  for (let r = 0; r < ROUNDS; r++) {
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

/** The row of paired rounds: each round's [subject, reference] measures. */
export function rowOf(scenario: string, connections: number, results: Measured[][]): PairedRow {
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
