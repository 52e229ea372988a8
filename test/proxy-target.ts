// A categories service as the spec describes it, for the proxy's tests and its comparison with
// Prism's (scripts/proxy-vs-prism.ts): correct, or with one fault at a time.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

/** The target's own credential: a proxy passes it on and never judges its value. */
export const TARGET_AUTH = { Authorization: 'Bearer staging-token' };

export type Fault =
  | 'none'
  | 'wrong-status'
  | 'missing-field'
  | 'wrong-type'
  | 'wrong-content-type'
  | 'error-shape'
  | 'error-status'
  | 'duplicate-ids';

/** What the target received, for the assertions that it was forwarded as sent. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A categories service as the spec describes it, under /api/v1, with the fault of the moment. */
export function categoriesTarget() {
  const state = {
    fault: 'none' as Fault,
    received: [] as Received[],
    nextId: 4,
    /** Ends the answer being streamed. */
    release: () => {},
  };
  const categories = [
    { id: 1, name: 'Dog', description: 'Domestic dogs' },
    { id: 2, name: 'Cat' },
  ];
  const json = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    res.writeHead(status, {
      'Content-Type': type,
      'X-Trace': 'target-1',
      'Set-Cookie': ['a=1', 'b=2'],
    });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      state.received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
      });
      // A connection reset before any answer: a proxy's client gets a 502.
      if (req.headers['x-reset'] !== undefined) return req.socket.destroy();
      if (req.headers.authorization !== TARGET_AUTH.Authorization)
        return json(res, 401, { code: 'missing_credential', message: 'no', status: 401 });
      if (req.url === '/api/v1/categories' && req.method === 'GET') {
        switch (state.fault) {
          case 'wrong-status':
            return json(res, 202, categories);
          case 'missing-field':
            return json(res, 200, [{ id: 1 }]);
          case 'wrong-type':
            return json(res, 200, [{ id: 'one', name: 'Dog' }]);
          case 'wrong-content-type':
            return json(res, 200, 'Dog, Cat', 'text/plain');
          case 'error-shape':
            return json(res, 401, { error: 'token expired' });
          case 'error-status':
            // The spec's error shape, its `status` another than the answer's.
            return json(res, 401, { code: 'unauthorized', message: 'token expired', status: 400 });
          case 'duplicate-ids':
            return json(res, 200, [...categories, categories[0]]);
          case 'none':
            return json(res, 200, categories);
        }
      }
      if (req.url === '/api/v1/store/orders') {
        // Half an answer now, the rest when the test says: only a proxy that streams passes it on.
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('[{"id":1}');
        state.release = () => res.end(',{"id":2}]');
        return;
      }
      if (req.url === '/api/v1/store/inventory' && req.method === 'GET')
        return json(res, 200, { available: state.nextId, sold: 3 });
      const pet = /^\/api\/v1\/pets\/(\w+)$/.exec(req.url ?? '');
      if (pet && req.method === 'GET') return json(res, 200, { id: pet[1], name: `Pet ${pet[1]}` });
      if (req.url === '/api/v1/hop') {
        // Fields for this hop only: those Connection names, and Keep-Alive, never reach the client.
        res.writeHead(200, {
          'Content-Type': 'application/json',
          Connection: 'keep-alive, X-Hop-Answer',
          'Keep-Alive': 'timeout=77, max=9',
          'X-Hop-Answer': 'secret',
          'X-End-Answer': 'kept',
          Via: '1.1 backend-gateway',
        });
        return res.end('{}');
      }
      if (req.url === '/api/v1/categories?gzip' && req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
        return res.end(gzipSync(JSON.stringify(categories)));
      }
      if (req.url === '/api/v1/categories' && req.method === 'POST') {
        const fields = JSON.parse(body || '{}') as Record<string, unknown>;
        if (typeof fields.name !== 'string')
          return json(res, 400, { code: 'validation_failed', message: 'name', status: 400 });
        return json(res, 201, { id: state.nextId++, ...fields });
      }
      const item = /^\/api\/v1\/categories\/(\d+)$/.exec(req.url ?? '');
      if (item && req.method === 'PUT')
        return json(res, 200, { ...(JSON.parse(body) as object), id: Number(item[1]) });
      if (item && req.method === 'DELETE') {
        res.writeHead(204);
        return res.end();
      }
      json(res, 404, { code: 'not_found', message: 'no such path', status: 404 });
    });
  });
  return { server, state };
}
