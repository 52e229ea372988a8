import autocannon from 'autocannon';
import { BENCH_KEY } from './processes.js';

export interface LoadResult {
  rps: number;
  /** Requests answered during the run. */
  total: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  seconds: number;
}

const CREATE_BODY = JSON.stringify({ name: 'Bench', description: 'Created by the benchmark' });

/** Loads one server with autocannon and reports what it sustained. */
export async function load({
  url,
  method,
  connections,
  seconds,
}: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: `${url}/categories`,
    method,
    connections,
    duration: seconds,
    headers: {
      authorization: `Bearer ${BENCH_KEY}`,
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    ...(method === 'POST' ? { body: CREATE_BODY } : {}),
  });
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}
