import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { hasBody } from '../core/headers.js';
import type { MockCore } from '../core/mock-core.js';
import type { ForwardedRequest, Forwarded } from '../core/stages/forward.js';
import { CheckedJson, type CheckedAnswer } from '../vocabulary/answer.js';
import { returnedHeaders } from './forward.js';
import { lingerAfter } from './linger.js';
import type { MockListener } from './listener.js';
import { requestLines, type Logger } from './logger.js';
import { readRawBody } from './raw-body.js';

export interface ProxyListenerOptions {
  /**
   * The mock, which routes, and its listener, which answers what is not forwarded (the admin
   * API, the inspector page, paths outside the base path).
   */
  app: { readonly mock: MockCore; routed: MockListener['routed'] };
  /** The mocked API's base path (`/v1`): every request under it is forwarded. */
  basePath: string;
  /** The proxy: the mock's pipeline with `forward` as its produce stage (see createForward). */
  forward: (request: ForwardedRequest) => Promise<Forwarded>;
  /** The largest request body forwarded (it is read whole, to be checked, before it is sent on). */
  bodyLimit: number;
  logger: Logger;
  /** One log line per request, as the mock writes them. */
  logRequests: boolean;
}

/** A Node request listener, and how the spec shapes what Node's HTTP layer refuses. */
export interface ProxyListener {
  (req: IncomingMessage, res: ServerResponse): void;
  /** The mock whose error shape Node's refusals take (see createMockServer). */
  readonly mock: MockCore;
  /**
   * Resolves once every exchange begun has ended, its answer checked and recorded: a client
   * has the answer before the proxy is done with it, so a shutdown waits for this before it
   * closes the recording.
   */
  idle(): Promise<void>;
}

/**
 * The proxy mode of the HTTP adapter: what HTTP needs around the proxy's pipeline (see
 * createForward). Each request under the base path has its body read off the socket as it
 * arrived, is sent on to the target by `forwarder` (but for the hop-by-hop fields), and the
 * target's answer is piped back unchanged (status, fields, bytes, encoding) as it comes.
 * @example createMockServer(createProxyListener({ app, basePath: '/v1', forward, bodyLimit, logger, logRequests }))
 */
export function createProxyListener(options: ProxyListenerOptions): ProxyListener {
  const { app, basePath, logger } = options;
  const line = options.logRequests ? requestLines(logger) : undefined;

  async function exchange(req: IncomingMessage, res: ServerResponse, started: number) {
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const route = app.mock.route(method, target);
    if (route.api?.basePath !== basePath) return app.routed(req, res, route);
    const abort = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const forwarded = await options.forward({
      method,
      target,
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      httpVersion: req.httpVersion,
      route,
      started,
      signal: abort.signal,
      read: async () => {
        if (!hasBody({ headers: req.headers })) return undefined;
        if (req.headers.expect !== undefined) res.writeContinue();
        return readRawBody(req, {
          length: req.headers['content-length'],
          limit: options.bodyLimit,
        });
      },
    });
    if ('gone' in forwarded) return;
    if ('answer' in forwarded) {
      // Refused before its body was all read (a 413, a 401 under `enforce`): the connection
      // closes after the answer, gracefully, so that the client reads it however it sends.
      if (!req.complete && hasBody({ headers: req.headers })) {
        res.setHeader('Connection', 'close');
        lingerAfter(req, res);
      }
      own(res, forwarded.answer);
    } else {
      const { status, headers, body } = forwarded.target;
      res.writeHead(status, returnedHeaders(headers));
      // The target broke off, or the client left: the client sees the connection cut.
      await pipeline(body, res).catch(() => res.destroy());
    }
    const status = await forwarded.done;
    if (status !== undefined)
      line?.({
        method,
        path: app.mock.shownTarget(target),
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
  }

  /** The exchanges not yet ended, checks and recording included. */
  const inFlight = new Set<Promise<void>>();
  return Object.assign(
    (req: IncomingMessage, res: ServerResponse) => {
      const started = performance.now();
      const done = exchange(req, res, started)
        .then(() => undefined)
        .catch((err: unknown) => {
          logger.error(
            { err },
            `proxy failed: ${err instanceof Error ? err.message : String(err)}`,
          );
          res.destroy();
        })
        .finally(() => inFlight.delete(done));
      inFlight.add(done);
    },
    {
      mock: app.mock,
      async idle() {
        while (inFlight.size > 0) await Promise.all(inFlight);
      },
    },
  );
}

/** Sends an answer of the proxy's own (an error), as a whole. */
function own(res: ServerResponse, { status, headers, body }: CheckedAnswer): void {
  const bytes = body instanceof CheckedJson ? body.bytes : Buffer.alloc(0);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { ...headers, 'Content-Length': bytes.length });
  res.end(bytes);
}
