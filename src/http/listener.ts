import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasBody } from '../core/headers.js';
import type { MockCore, Route } from '../core/mock-core.js';
import type { TurnBudget } from '../core/turn-budget.js';
import type { CheckedAnswer } from '../vocabulary/answer.js';
import type { MockRequest } from '../vocabulary/request.js';
import type { CorsStep } from './cors.js';
import { playFault } from './faults.js';
import { createSender } from './send.js';

export interface ListenerOptions {
  core: MockCore;
  /** Reads a request's body off the socket (see createBodyReader). */
  readBody: (req: IncomingMessage, res: ServerResponse) => Promise<Buffer>;
  /** Sets CORS headers and answers preflights; none without CORS. */
  cors?: CorsStep;
  /** The CPU budget per event-loop turn that every list being sent shares. */
  budget: TurnBudget;
}

/** A Node request listener, with the way its core shapes errors for Node's own refusals. */
export interface MockListener {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Any error as the spec's error answer (what Node's HTTP parser refuses has no request). */
  errorAnswer(err: unknown): CheckedAnswer;
  /** Where a request would go: its API, operation and parameters, or why there is none. */
  route(method: string, target: string): Route;
}

/**
 * The HTTP adapter of the mock core: it routes each request once, sets its CORS headers (a
 * preflight ends there), hands the request to the core as plain data, with a function that
 * reads its body off the socket when the core asks, and sends the core's reply, or plays the
 * fault it asks for.
 * @example createServer(createListener({ core, readBody, budget })).listen(4010);
 */
export function createListener(options: ListenerOptions): MockListener {
  const { core } = options;
  const send = createSender(options.budget);

  function listener(req: IncomingMessage, res: ServerResponse): void {
    void answer(req, res).catch(() => {
      // Writing failed half-way (the client left, a list broke off): nothing more can be said.
      res.destroy();
    });
  }

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const route = core.route(method, req.url ?? '/');
    const cors = options.cors?.(req, res, route) ?? 'continue';
    if (cors === 'answered') return;
    if (cors !== 'continue') return finish(req, res, core.errorAnswer(cors, route));

    const request: MockRequest = {
      method,
      target: req.url ?? '/',
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      readBody: () => options.readBody(req, res),
    };
    const reply = await core.handle(request, route);
    if (reply.fault) playFault(reply.fault, req, res);
    else await finish(req, res, reply.answer);
  }

  async function finish(req: IncomingMessage, res: ServerResponse, answer: CheckedAnswer) {
    // A body the client may still be sending (refused before it was read) is not worth
    // reading to keep the connection: the connection closes after this answer instead.
    if (!req.complete && hasBody(req)) res.setHeader('Connection', 'close');
    await send(req, res, answer);
  }

  return Object.assign(listener, {
    errorAnswer: (err: unknown) => core.errorAnswer(err),
    route: core.route,
  });
}
