import autocannon from 'autocannon';
import { BENCH_KEY } from './processes.js';

export interface LoadResult {
  rps: number;
  /** How long the run took: for a run of an `amount`, until its last answer. */
  seconds: number;
  /** Requests answered during the run. */
  total: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  /** The server's base URL; several spread the connections over them (replicas). */
  url: string | readonly string[];
  /** @default '/categories' */
  path?: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  connections: number;
  /** How long to load; `amount` instead sends that many requests, then stops. */
  seconds?: number;
  amount?: number;
  /** @default a small category, for POST */
  body?: string;
  /** The path of each request, e.g. to spread them over ids; called for every request. */
  nextPath?: () => string;
  /** Given each response body, e.g. to collect the ids of created records. */
  onBody?: (body: string) => void;
}

export const CREATE_BODY = JSON.stringify({
  name: 'Bench',
  description: 'Created by the benchmark',
});

/** Loads one server with autocannon and reports what it sustained. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const { url, method, connections, nextPath, onBody } = options;
  const path = options.path ?? '/categories';
  const body = options.body ?? (method === 'POST' ? CREATE_BODY : undefined);
  const headers = {
    authorization: `Bearer ${BENCH_KEY}`,
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  };
  // A request of its own only when it changes per request: autocannon rebuilds those each time.
  const dynamic = nextPath || onBody;
  const started = performance.now();
  let lastAnswer = started;
  const settings: autocannon.Options = {
    // autocannon spreads connections over several URLs; its types know only one.
    url: (typeof url === 'string'
      ? `${url}${path}`
      : url.map((base) => `${base}${path}`)) as unknown as string,
    method,
    connections,
    ...(options.amount === undefined
      ? { duration: options.seconds ?? 1 }
      : { amount: options.amount }),
    headers,
    ...(body === undefined ? {} : { body }),
    ...(dynamic
      ? {
          requests: [
            {
              method,
              headers,
              ...(nextPath
                ? {
                    setupRequest: (request: autocannon.Request) => ({
                      ...request,
                      path: `${new URL(typeof url === 'string' ? url : (url[0] ?? '')).pathname}${nextPath()}`,
                    }),
                  }
                : {}),
              ...(onBody ? { onResponse: (_status: number, text: string) => onBody(text) } : {}),
            },
          ],
        }
      : {}),
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(settings, (err: unknown, done: autocannon.Result) =>
      err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(done),
    );
    // A run of an amount ends at autocannon's next one-second tick, not at its last answer.
    if (options.amount !== undefined)
      instance.on('response', () => (lastAnswer = performance.now()));
  });
  const seconds = options.amount === undefined ? result.duration : (lastAnswer - started) / 1000;
  return {
    rps: options.amount === undefined ? result.requests.average : result.requests.total / seconds,
    seconds,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** A load result, or an error when any request failed: a rate of failures is no rate. */
export function checked(result: LoadResult): LoadResult {
  if (result.non2xx + result.errors > 0)
    throw new Error(`${result.non2xx + result.errors} requests failed during the run`);
  return result;
}
