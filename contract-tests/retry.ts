/**
 * How long the suite waits out a deployment that asks it to: a rate limiter's 429, or a 503
 * of a deployment that is briefly down. Bounded, so that a CI job ends.
 * @internal for its tests: no part of the package's surface
 */
export const RETRY_LIMITS = {
  /** Tries of one request, the first included. */
  tries: 4,
  /** Waiting, summed over the retries of one request. */
  totalWaitMs: 30_000,
  /** The first wait after a 429 that gives no `Retry-After`; it doubles with each retry. */
  backoffMs: 1_000,
} as const;

/** What to do with an answer: judge it, wait and send the request again, or give up. */
export type RetryStep =
  | { kind: 'judge' }
  | { kind: 'wait'; ms: number; advice?: string }
  | { kind: 'give-up'; why: string };

/** The state of one request's retries. */
export interface RetryState {
  /** Tries so far, this one included. */
  tries: number;
  /** Waited so far for this request. */
  waitedMs: number;
}

/**
 * The next step after an answer. A 429 is always waited out (with `Retry-After`, else with
 * a doubling back-off): a rate limiter is how real deployments stay up. A 503 is waited out
 * once, and only when it says when to come back (a 503 without `Retry-After` is not a promise
 * to recover and is judged as it is); still 503 after that, the target is unavailable.
 * @example retryStep(429, '2', { tries: 1, waitedMs: 0 }) // { kind: 'wait', ms: 2000 }
 */
export function retryStep(
  status: number,
  retryAfter: string | undefined,
  state: RetryState,
  now: number = Date.now(),
): RetryStep {
  if (status !== 429 && status !== 503) return { kind: 'judge' };
  let ms = retryAfter === undefined ? undefined : retryAfterMs(retryAfter, now);
  let advice: string | undefined;
  if (ms === undefined) {
    if (status === 503) return { kind: 'judge' };
    ms = RETRY_LIMITS.backoffMs * 2 ** (state.tries - 1);
    advice = '429 answers carry no valid Retry-After header, so a client must guess when to retry';
  }
  if (status === 503 && state.tries >= 2) {
    return {
      kind: 'give-up',
      why: `still 503 after waiting ${seconds(state.waitedMs)}, as its Retry-After asked`,
    };
  }
  if (state.tries >= RETRY_LIMITS.tries) {
    return {
      kind: 'give-up',
      why: `still ${status} after ${state.tries} tries and ${seconds(state.waitedMs)} of waiting`,
    };
  }
  if (state.waitedMs + ms > RETRY_LIMITS.totalWaitMs) {
    return {
      kind: 'give-up',
      why: `${status} asks to wait ${seconds(ms)}, past the suite's ${seconds(RETRY_LIMITS.totalWaitMs)} of waiting per request`,
    };
  }
  return advice === undefined ? { kind: 'wait', ms } : { kind: 'wait', ms, advice };
}

/**
 * `Retry-After` in milliseconds from `now`: delay-seconds or an HTTP-date (RFC 9110,
 * section 10.2.3); `undefined` when it is neither.
 * @example retryAfterMs('120', Date.now()) // 120000
 * @internal for its tests: no part of the package's surface
 */
export function retryAfterMs(value: string, now: number): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  // A bare number was handled above; anything else Date.parse reads must look like a date.
  if (Number.isNaN(date) || !/[a-z]/i.test(text)) return undefined;
  return Math.max(0, date - now);
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
