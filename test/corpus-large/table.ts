// The large corpus's table: per document, start-up, memory, and how its operations answered.
import { failureOf } from './expectations.js';
import type { DocumentRun } from './probe.js';

export interface RunSummary {
  document: string;
  coldMs?: number;
  warmMs?: number;
  /** CPU seconds of the cold start. */
  coldCpuS?: number;
  /** RSS at the warm start's listening line, and the peak over the run, MB. */
  rssMb?: number;
  peakRssMb: number;
  operations: number;
  called: number;
  /** Over answered calls, ms. */
  firstCallMedianMs?: number;
  firstCallWorstMs?: number;
  /** Answered calls slower than FIRST_CALL_TARGET_MS, the issue's bound for a first call. */
  firstCallsOverTarget: number;
  /** The stall probe's longest wait over the calls: about the mock's longest turn, ms. */
  longestStallMs?: number;
  /** With a settle: how long the mock took to go idle after listening (its precompiling), ms. */
  settledMs?: number;
  status5xx: number;
  /** 5xx answers that are the mock's named, accepted unsatisfiable-schema answer. */
  allowed5xx: number;
  hung: number;
  closed: number;
  crashed: number;
  unsent: number;
}

/** The issue's bound for the first call of any operation, ms (issue 28). */
export const FIRST_CALL_TARGET_MS = 200;

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? sorted[middle]
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function summarize(run: DocumentRun, allowed: RegExp): RunSummary {
  const answered = run.calls.filter((call) => call.outcome === 'answered');
  const times = answered.map((call) => call.ms ?? 0);
  const count = (outcome: string) => run.calls.filter((call) => call.outcome === outcome).length;
  const fivexx = answered.filter((call) => (call.status ?? 0) >= 500);
  const worst = times.length > 0 ? Math.max(...times) : undefined;
  const middle = median(times);
  return {
    document: run.slug,
    ...(run.cold ? { coldMs: run.cold.ms, coldCpuS: run.cold.cpuSeconds } : {}),
    ...(run.warm ? { warmMs: run.warm.ms, rssMb: run.warm.rssMb } : {}),
    peakRssMb: run.peakRssMb,
    operations: run.operations,
    called: run.calls.filter((call) => call.outcome !== 'unsent').length,
    ...(middle === undefined ? {} : { firstCallMedianMs: Math.round(middle) }),
    ...(worst === undefined ? {} : { firstCallWorstMs: worst }),
    firstCallsOverTarget: times.filter((ms) => ms > FIRST_CALL_TARGET_MS).length,
    ...(run.stallsMs?.length ? { longestStallMs: Math.max(...run.stallsMs) } : {}),
    ...(run.settled ? { settledMs: run.settled.ms } : {}),
    status5xx: fivexx.filter((call) => failureOf(call, allowed) === '5xx').length,
    allowed5xx: fivexx.filter((call) => failureOf(call, allowed) === undefined).length,
    hung: count('hung') + count('blocked'),
    closed: count('closed'),
    crashed: count('crashed'),
    unsent: count('unsent'),
  };
}

const COLUMNS: [string, (row: RunSummary) => string][] = [
  ['document', (row) => row.document],
  ['cold ms', (row) => String(row.coldMs ?? '-')],
  ['warm ms', (row) => String(row.warmMs ?? '-')],
  ['CPU s', (row) => (row.coldCpuS === undefined ? '-' : row.coldCpuS.toFixed(1))],
  ['RSS MB', (row) => String(row.rssMb ?? '-')],
  ['peak MB', (row) => String(row.peakRssMb)],
  ['operations', (row) => `${row.called}/${row.operations}`],
  ['first call median ms', (row) => String(row.firstCallMedianMs ?? '-')],
  ['worst ms', (row) => String(row.firstCallWorstMs ?? '-')],
  [`over ${FIRST_CALL_TARGET_MS} ms`, (row) => String(row.firstCallsOverTarget)],
  ['longest stall ms', (row) => String(row.longestStallMs ?? '-')],
  ['5xx', (row) => `${row.status5xx}${row.allowed5xx ? ` (+${row.allowed5xx} named)` : ''}`],
  ['hung', (row) => String(row.hung)],
  ['closed', (row) => String(row.closed)],
  ['crashed', (row) => String(row.crashed)],
];

/** A Markdown table, one row per document. */
export function tableOf(rows: readonly RunSummary[]): string {
  const lines = [
    `| ${COLUMNS.map(([name]) => name).join(' | ')} |`,
    `|${COLUMNS.map(() => ' --- ').join('|')}|`,
    ...rows.map((row) => `| ${COLUMNS.map(([, cell]) => cell(row)).join(' | ')} |`),
  ];
  return lines.join('\n');
}

/**
 * The answered calls slower than FIRST_CALL_TARGET_MS, one line each (document, operation, its
 * place in the run, ms): which call was slow is what a CI log must say, since the run is gone.
 */
export function slowCallsOf(runs: readonly DocumentRun[]): string[] {
  return runs.flatMap((run) =>
    run.calls.flatMap((call, index) =>
      call.outcome === 'answered' && (call.ms ?? 0) > FIRST_CALL_TARGET_MS
        ? [`${run.slug}: ${call.operation} (call ${index + 1}): ${call.ms} ms`]
        : [],
    ),
  );
}
