/**
 * Answers heard per operation and status, as a rule's result hands them to `petstore-kit
 * contract` (src/cli/contract-coverage.ts): the command sums the rules' counts into the
 * coverage table of the run.
 */
export type HitCounts = Record<string, Record<string, number>>;

/**
 * Where a request the suite sent carried what could be credentials, as plain HTTP facts:
 * the CLI tells from them which of the spec's schemes it sent, with the reading the mock uses
 * on the requests it gets (src/openapi/coverage-table.ts), so both tables line up.
 */
export interface SentPlaces {
  /** The first word of the Authorization header, in lower case. */
  authorization?: string;
  /** Names of the other headers, in lower case. */
  headers: string[];
  query: string[];
  cookies: string[];
}

/** Answers heard by operationId, then by the places a request filled (`JSON` of SentPlaces), then by status. */
export type PlaceHitCounts = Record<string, Record<string, Record<string, number>>>;

/**
 * A counter for one rule: `heard` goes into its context, `counts` and `byPlaces` into its
 * result.
 * @example const hits = hitCounter(); hits.heard('listTickets', 200); hits.counts // { listTickets: { '200': 1 } }
 */
export function hitCounter(): {
  seen: (operationId: string, status: number, sent?: SentPlaces) => void;
  counts: HitCounts;
  byPlaces: PlaceHitCounts;
} {
  const counts: HitCounts = {};
  const byPlaces: PlaceHitCounts = {};
  const add = (byStatus: Record<string, number>, status: number) =>
    (byStatus[String(status)] = (byStatus[String(status)] ?? 0) + 1);
  return {
    counts,
    byPlaces,
    seen(operationId, status, sent) {
      add((counts[operationId] ??= {}), status);
      if (!sent) return;
      const key = JSON.stringify({
        ...(sent.authorization === undefined ? {} : { authorization: sent.authorization }),
        headers: [...new Set(sent.headers)].sort(),
        query: [...new Set(sent.query)].sort(),
        cookies: [...new Set(sent.cookies)].sort(),
      });
      add(((byPlaces[operationId] ??= {})[key] ??= {}), status);
    },
  };
}
