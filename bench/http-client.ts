// A lean HTTP client for the latency rows: node:http with keep-alive, bodies counted and
// dropped, so that the client's own work stays small next to what it measures.
import { Agent, request } from 'node:http';
import { BENCH_KEY } from './processes.js';

export interface Answered {
  status: number;
  bytes: number;
}

export const keepAlive = (maxSockets = 64): Agent => new Agent({ keepAlive: true, maxSockets });

/** One request with the bench key; resolves once the whole body has arrived. */
export function send(
  agent: Agent,
  url: string,
  { method = 'GET', body }: { method?: string; body?: string } = {},
): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method,
        headers: {
          authorization: `Bearer ${BENCH_KEY}`,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.once('error', reject);
        res.once('aborted', () => reject(new Error('response aborted')));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}
