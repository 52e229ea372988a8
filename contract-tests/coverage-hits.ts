/**
 * Answers heard per operation and status, as a rule's test hands them to `petstore-kit
 * contract` (src/cli/contract-coverage.ts) in its metadata: the command sums the rules' counts
 * into the coverage table of the run.
 */
export type HitCounts = Record<string, Record<string, number>>;

/** The name of the metadata that carries a rule's counts; the CLI reads the same name. */
export const HITS_META = 'contractHits';

declare module '@vitest/runner' {
  interface TaskMeta {
    contractHits?: HitCounts;
  }
}

/**
 * A counter for one rule: `heard` goes into its context, `counts` into its test's metadata.
 * @example const hits = hitCounter(); hits.heard('listTickets', 200); hits.counts // { listTickets: { '200': 1 } }
 */
export function hitCounter(): {
  heard: (operationId: string, status: number) => void;
  counts: HitCounts;
} {
  const counts: HitCounts = {};
  return {
    counts,
    heard(operationId, status) {
      const byStatus = (counts[operationId] ??= {});
      byStatus[String(status)] = (byStatus[String(status)] ?? 0) + 1;
    },
  };
}
