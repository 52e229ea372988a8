import type { Operation } from '../../openapi/operations.js';
import type { FaultKind } from '../../vocabulary/answer.js';

/** One status of an operation, and how many requests were answered with it. */
export interface CoverageStatus {
  /** As the spec writes it (`200`, `4XX`, `default`), a status it does not document, or a forced scenario (`fault:reset`, `delay`). */
  status: string;
  documented: boolean;
  hits: number;
}

/** An operation's row: its documented statuses first, in the spec's order, then the others seen. */
export interface CoverageOperation {
  /** In upper case. */
  method: string;
  /** The spec's path template under the base path: `/v1/categories/{categoryId}`. */
  path: string;
  operationId: string;
  statuses: CoverageStatus[];
}

/**
 * The coverage table (spec/admin.yaml's Coverage), the same shape the contract suite reports:
 * `covered` and `total` count documented (operation, status) pairs.
 */
export interface Coverage {
  covered: number;
  total: number;
  /** 100 × covered / total, to one decimal; 100 when the spec documents no status. */
  percent: number;
  operations: CoverageOperation[];
}

/** What a request came to, for the tally: a status sent, a fault played, a delay. */
export interface Outcome {
  status?: number;
  fault?: FaultKind;
  delayed: boolean;
}

/**
 * How many requests each operation answered with each outcome, since the state's last reset:
 * a counter per (operation, outcome), so a suite of any length is counted whole (the request
 * log keeps only the newest requests).
 */
export interface CoverageTally {
  hit(operation: Operation, outcome: Outcome): void;
  /** The hits of one operation, by outcome (`"200"`, `"fault:reset"`, `"delay"`). */
  hitsOf(operation: Operation): ReadonlyMap<string, number>;
  clear(): void;
}

const NONE: ReadonlyMap<string, number> = new Map();

/** @example const tally = createCoverageTally(); tally.hit(operation, { status: 200, delayed: false }); */
export function createCoverageTally(): CoverageTally {
  const byOperation = new Map<Operation, Map<string, number>>();
  const add = (operation: Operation, key: string) => {
    let hits = byOperation.get(operation);
    if (!hits) byOperation.set(operation, (hits = new Map()));
    hits.set(key, (hits.get(key) ?? 0) + 1);
  };
  return {
    hit(operation, { status, fault, delayed }) {
      // A malformed answer carries its status, but what the client saw is the fault.
      if (fault) add(operation, `fault:${fault}`);
      else if (status !== undefined) add(operation, String(status));
      if (delayed) add(operation, 'delay');
    },
    hitsOf: (operation) => byOperation.get(operation) ?? NONE,
    clear: () => byOperation.clear(),
  };
}

/**
 * The documented status a sent one counts for: itself, else its class (`4XX`), else `default`;
 * undefined when the spec documents none of them.
 * @example documentedAs('404', ['200', '4XX']) // '4XX'
 */
export function documentedAs(status: string, documented: readonly string[]): string | undefined {
  if (documented.includes(status)) return status;
  const range = documented.find((key) => key.toUpperCase() === `${status[0]}XX`);
  return range ?? documented.find((key) => key === 'default');
}

/**
 * The coverage table of the operations of one API from a tally.
 * @example coverageOf(operations, '/v1', tally).percent // 62.5
 */
export function coverageOf(
  operations: readonly Operation[],
  basePath: string,
  tally: CoverageTally,
): Coverage {
  let covered = 0;
  let total = 0;
  const rows = operations.map((operation) => {
    const documented = Object.keys(operation.responses);
    const hits = new Map(documented.map((status) => [status, 0]));
    const others = new Map<string, number>();
    for (const [outcome, count] of tally.hitsOf(operation)) {
      const as = /^\d{3}$/.test(outcome) ? documentedAs(outcome, documented) : undefined;
      if (as === undefined) others.set(outcome, (others.get(outcome) ?? 0) + count);
      else hits.set(as, (hits.get(as) ?? 0) + count);
    }
    total += documented.length;
    covered += documented.filter((status) => (hits.get(status) ?? 0) > 0).length;
    const statuses: CoverageStatus[] = [
      ...documented.map((status) => ({ status, documented: true, hits: hits.get(status) ?? 0 })),
      ...[...others]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([status, count]) => ({ status, documented: false, hits: count })),
    ];
    return {
      method: operation.method.toUpperCase(),
      path: `${basePath}${operation.path}`,
      operationId: operation.operationId,
      statuses,
    };
  });
  const percent = total === 0 ? 100 : Math.round((1000 * covered) / total) / 10;
  return { covered, total, percent, operations: rows };
}
