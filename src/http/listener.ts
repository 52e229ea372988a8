import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasBody } from '../core/headers.js';
import type { MockCore, Route } from '../core/mock-core.js';
import type { TurnBudget } from '../core/turn-budget.js';
import { CheckedJson, type CheckedAnswer, type FaultKind } from '../vocabulary/answer.js';
import type { MockRequest } from '../vocabulary/request.js';
import type { CorsStep } from './cors.js';
import { playFault } from './faults.js';
import { lingerAfter } from './linger.js';
import type { HostStep } from './host-check.js';
import type { PageStep } from './inspector-page.js';
import type { RequestLine } from './logger.js';
import { createSender, type AddedHeaders } from './send.js';
import { watchSend } from './send-timeout.js';

/** An answer this small is written in one go into the socket's buffers. */
const SMALL_ANSWER = 64 * 1024;

function sizeOf({ body, stream }: CheckedAnswer): number {
  // A stream's events add up to what no buffer holds: a client that reads none is dropped too.
  if (stream) return Infinity;
  if (body === undefined) return 0;
  return body instanceof CheckedJson ? body.bytes.length : body.length;
}

/** Writing failed half-way (the client left, a list broke off): nothing more can be said. */
function broken(res: ServerResponse): void {
  res.destroy();
}

/** What the log line of a request needs that the response does not show. */
interface Outcome {
  fault: FaultKind | undefined;
  reason: string | undefined;
  /** Its body was read whole (Node may not have parsed the request's end yet). */
  bodyRead: boolean;
  /** CORS left `Vary: Origin` for its answer to carry (see CorsStep). */
  varyOrigin: boolean;
}

const VARY_ORIGIN: AddedHeaders = { varyOrigin: true };

export interface ListenerOptions {
  /** The mock that answers (see createMock). */
  mock: MockCore;
  /** Reads a request's body off the socket (see createBodyReader). */
  bodyReader: (req: IncomingMessage, res: ServerResponse) => Promise<Buffer>;
  /** Sets CORS headers and answers preflights; none without CORS. */
  cors?: CorsStep;
  /**
   * Refuses a request whose Host the mock does not answer for (DNS rebinding); none: every
   * host is answered (the express mount, where the host app decides).
   */
  host?: HostStep;
  /** Serves the inspector page and its files (see createInspectorPage); none without the admin API. */
  page?: PageStep;
  /** The CPU budget per event-loop turn that every list being sent shares. */
  budget: TurnBudget;
  /**
   * A client that takes nothing of a large answer for this long is dropped (its connection
   * reset by the server's timeout handler), and what was held for it freed.
   */
  sendTimeoutMs: number;
  /** Called with each request once its answer is sent (or its fault played). */
  onAnswered?: (line: RequestLine) => void;
}

/** The mock's Node adapter: a request listener, and the same for a request already routed. */
export interface MockListener {
  /** Answers a request (give it to `http.createServer`). */
  listener(req: IncomingMessage, res: ServerResponse): void;
  /** Answers a request whose route the caller has found already (with `mock.route`), not finding it again. */
  routed(req: IncomingMessage, res: ServerResponse, route: Route): void;
}

/**
 * The HTTP adapter of the mock core: it routes each request once, sets its CORS headers (a
 * preflight ends there), hands the request to the core as plain data, with a function that
 * reads its body off the socket when the core asks, and sends the core's reply, or plays the
 * fault it asks for.
 * @example createServer(createListener({ mock, bodyReader, budget, sendTimeoutMs }).listener).listen(4010);
 */
export function createListener(options: ListenerOptions): MockListener {
  const { mock: core } = options;
  const send = createSender(options.budget);

  function listener(req: IncomingMessage, res: ServerResponse): void {
    routed(req, res, undefined);
  }

  function routed(req: IncomingMessage, res: ServerResponse, route: Route | undefined): void {
    // One shape from the start: fields added later would change it per path taken.
    const outcome: Outcome = {
      fault: undefined,
      reason: undefined,
      bodyRead: false,
      varyOrigin: false,
    };
    const log = options.onAnswered;
    if (log) {
      const started = performance.now();
      // `on`, not `once`: 'close' comes once, and once's wrapper is a cost on every request.
      res.on('close', () => {
        const { fault, reason } = outcome;
        // One object of one shape, its fields in the line's order: a field not told is undefined.
        log({
          method: req.method ?? 'GET',
          // A key sent in the query is a secret of the app under test, not the log's to show.
          path: core.shownTarget(req.url ?? '/'),
          status: fault && fault !== 'malformed' ? undefined : res.statusCode,
          fault,
          reason: reason || undefined,
          // Closed before it was all sent: the client left, or was dropped by the send timeout.
          cut: !fault && !res.writableFinished ? true : undefined,
          ms: Math.round((performance.now() - started) * 10) / 10,
        });
      });
    }
    try {
      answer(req, res, outcome, route);
    } catch {
      broken(res);
    }
  }

  /** Answers a request: at once when the adapter's steps refuse it, else with the core's reply. */
  function answer(
    req: IncomingMessage,
    res: ServerResponse,
    outcome: Outcome,
    found: Route | undefined,
  ): void {
    const method = req.method ?? 'GET';
    const route = found ?? core.route(method, req.url ?? '/');
    const foreign = options.host?.(req);
    if (foreign) return settled(res, finish(req, res, core.errorAnswer(foreign, route), outcome));
    const page = options.page?.(req, res) ?? 'continue';
    if (page === 'answered') return;
    if (page !== 'continue')
      return settled(res, finish(req, res, core.errorAnswer(page, route), outcome));
    const cors = options.cors?.(req, res, route) ?? 'continue';
    if (cors === 'no-origin') outcome.varyOrigin = true;
    else if (cors === 'answered') {
      // The library answers a preflight from an origin it does not allow with a bare 204.
      if (!res.hasHeader('Access-Control-Allow-Origin')) outcome.reason = 'origin not allowed';
      return;
    } else if (cors !== 'continue')
      return settled(res, finish(req, res, core.errorAnswer(cors, route), outcome));

    const request: MockRequest = {
      method,
      target: req.url ?? '/',
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body: () => {
        const reading = options.bodyReader(req, res);
        reading.then(
          () => (outcome.bodyRead = true),
          () => undefined, // the core answers the error
        );
        return reading;
      },
    };
    // `then`, not an async function: no suspended frame held per request.
    core.handle(request, route).then(
      (reply) => {
        try {
          if (!reply.fault) return settled(res, finish(req, res, reply.answer, outcome));
          outcome.fault = reply.fault.kind;
          if (outcome.varyOrigin) res.setHeader('Vary', 'Origin');
          playFault(reply.fault, req, res);
        } catch {
          broken(res);
        }
      },
      () => broken(res),
    );
  }

  /** A long list being written: its failure half-way breaks the connection off. */
  function settled(res: ServerResponse, sending: void | Promise<void>): void {
    if (sending) sending.catch(() => broken(res));
  }

  /** A promise only while a long list is written. */
  function finish(
    req: IncomingMessage,
    res: ServerResponse,
    answer: CheckedAnswer,
    outcome: Outcome,
  ): void | Promise<void> {
    if (answer.reason) outcome.reason = answer.reason;
    let added = outcome.varyOrigin ? VARY_ORIGIN : undefined;
    // A body the client may still be sending (refused before it was read) is not worth
    // reading to keep the connection: the connection closes after this answer instead,
    // gracefully, so that the client reads the answer however it sends.
    if (!req.complete && !outcome.bodyRead && hasBody({ headers: req.headers })) {
      // Its head set one header at a time, Vary first, as the CORS step set it.
      if (added) res.setHeader('Vary', 'Origin');
      added = undefined;
      res.setHeader('Connection', 'close');
      lingerAfter(req, res);
    }
    // A client that takes nothing of the answer for this long is dropped, one that reads
    // slowly but steadily is served whole. A small answer fits the socket's buffers: a client
    // that does not read it holds nothing of the mock's, and a timer would cost every request.
    if (sizeOf(answer) > SMALL_ANSWER) watchSend(req.socket, res, options.sendTimeoutMs);
    return send(req, res, answer, added);
  }

  return { listener, routed };
}
