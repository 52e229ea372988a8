/** Which way the exchange that broke the spec went: what the client sent, or what the target answered. */
export type ViolationSide = 'request' | 'response';

/**
 * One way an exchange through the proxy breaks the spec, as `GET /__mock/violations` lists it.
 * @example { method: 'POST', path: '/v1/categories', status: 201, side: 'request', rule: 'body', message: "/body must have required property 'name'" }
 */
export interface Violation {
  method: string;
  /** The path as the client sent it, query included. */
  path: string;
  /** The status the client got (the target's, or the proxy's own when it answered). */
  status: number;
  side: ViolationSide;
  /** Which rule of the spec: `operation`, `credentials`, `media-type`, `parameters`, `body`, `status`, `headers`, `content-type`, `content-encoding`, `error-shape`, `duplicate-ids`, `stream-event`. */
  rule: string;
  message: string;
  /** The operationId, when the request matched one. */
  operation?: string;
}

/** The violations seen, as the admin API answers them. */
export interface ViolationList {
  /** How many were seen since the start or the last clear, those no longer kept included. */
  count: number;
  /** The newest kept, newest first. */
  violations: Violation[];
}

/**
 * The violations a proxy saw: the newest `capacity` kept whole, every one counted by side and
 * rule for the shutdown summary. Held in the process, per proxy.
 * @example const log = createViolationLog(); log.add(violation); log.list().count // 1
 */
export interface ViolationLog {
  add(violation: Violation): void;
  list(): ViolationList;
  clear(): void;
  /** How many of each `side/rule` were seen since the start (a clear leaves these). */
  totals(): ReadonlyMap<string, number>;
}

/** What a proxy keeps of the violations: as many as the request log keeps of requests. */
const VIOLATIONS_KEPT = 1000;

export function createViolationLog(capacity = VIOLATIONS_KEPT): ViolationLog {
  let kept: Violation[] = [];
  let count = 0;
  const totals = new Map<string, number>();
  return {
    add(violation) {
      count++;
      kept.push(violation);
      if (kept.length > capacity) kept = kept.slice(-capacity);
      const key = `${violation.side}/${violation.rule}`;
      totals.set(key, (totals.get(key) ?? 0) + 1);
    },
    list: () => ({ count, violations: [...kept].reverse() }),
    clear() {
      kept = [];
      count = 0;
    },
    totals: () => new Map(totals),
  };
}

/**
 * The shutdown line's counts: `3 violations (request/body: 1, response/status: 2)`.
 * @example describeTotals(new Map([['response/body', 2]])) // '2 violations (response/body: 2)'
 */
export function describeTotals(totals: ReadonlyMap<string, number>): string {
  let all = 0;
  for (const n of totals.values()) all += n;
  if (all === 0) return 'no violations';
  const parts = [...totals].map(([rule, n]) => `${rule}: ${n}`).join(', ');
  return `${all} violation${all === 1 ? '' : 's'} (${parts})`;
}
