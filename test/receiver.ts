// A receiver of callbacks and webhooks for tests: a real server on port 0 (sockets are the
// point: the mock calls it as it would call a client's).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  url: string;
  received: Received[];
  /** The next request received (or one already received and not yet taken). */
  next(): Promise<Received>;
  close(): Promise<void>;
}

/** Starts a receiver answering each request with `answer(request)` (200 `{"received":true}`). */
export async function startReceiver(
  answer: (request: Received) => { status: number; body?: string; type?: string } = () => ({
    status: 200,
    body: '{"received":true}',
  }),
): Promise<Receiver> {
  const received: Received[] = [];
  const waiting: ((request: Received) => void)[] = [];
  let taken = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      const { status, body, type } = answer(request);
      res.writeHead(
        status,
        body === undefined ? {} : { 'content-type': type ?? 'application/json' },
      );
      res.end(body);
      const wake = waiting.shift();
      if (wake) {
        taken++;
        wake(request);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    next() {
      const ready = received[taken];
      if (ready) {
        taken++;
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
