// The record stage: the request counted for the coverage of its operation, kept in its state's
// request log, and a 2xx handed to what sends the callbacks and webhooks it sets off.
import { schemesSent } from '../../openapi/coverage-table.js';
import type { Reply } from '../../vocabulary/answer.js';
import type { MockRequest } from '../../vocabulary/request.js';
import { credentialPartsOf } from '../admin/coverage.js';
import { loggedAnswer, loggedBody, type AnsweredRequest } from '../admin/request-log.js';
import type { Exchange, MockCoreOptions, MountedApi, OperationRoute, Route } from '../mock-core.js';
import type { MockStates } from '../state.js';
import { knownStateOf } from './session.js';

/**
 * The request log's entry of an exchange: one object of one shape, every field set (the log
 * keeps thousands of them). `response` is what the log keeps of the answer sent.
 */
export function logEntry(
  request: MockRequest,
  api: MountedApi | undefined,
  session: string | undefined,
  sent: Pick<AnsweredRequest, 'status' | 'response' | 'fault'>,
  exchange: Pick<Exchange, 'body' | 'started'>,
): AnsweredRequest {
  const kept = exchange.body && loggedBody(exchange.body);
  return {
    session,
    method: request.method,
    // As sent: the log redacts the credentials when it shows them.
    path: request.target,
    headers: request.headers,
    credentials: api?.credentials,
    status: sent.status,
    response: sent.response,
    fault: sent.fault,
    durationMs: Math.round((performance.now() - exchange.started) * 100) / 100,
    // A number here; the log formats it when it is read, not on every request.
    at: Date.now(),
    body: kept?.body,
    bodyNote: kept?.bodyNote,
    bodyBytes: kept?.bodyBytes,
  };
}

/**
 * The mock's record stage: a request of a recorded API counted for its operation's coverage,
 * logged, and a 2xx handed to what sends its callbacks and webhooks. A promise only when a
 * store is shared: an await per request is worth saving. A log that fails leaves the answer
 * as it was (the log may be a shared store's).
 */
export function record(
  request: MockRequest,
  reply: Reply,
  to: Route,
  exchange: Exchange,
  states: MockStates,
  options: Pick<MockCoreOptions, 'onAnswered' | 'onServerError'>,
): void | Promise<void> {
  const { api } = to;
  if (!api?.recorded) return undefined;
  const counted = to.kind === 'operation' ? tally(request, reply, exchange, to, states) : undefined;
  return counted
    ? counted.then(() => logged(request, reply, to, exchange, api, states, options))
    : logged(request, reply, to, exchange, api, states, options);
}

/** The request logged, then handed on; a promise only when the log is a shared store's. */
function logged(
  request: MockRequest,
  reply: Reply,
  to: Route,
  exchange: Exchange,
  api: MountedApi,
  states: MockStates,
  options: Pick<MockCoreOptions, 'onAnswered' | 'onServerError'>,
): void | Promise<void> {
  let adding: void | Promise<void> = undefined;
  try {
    adding = addToLog(request, reply, exchange, api, states);
  } catch (err) {
    options.onServerError?.(err, request);
  }
  if (!adding) return answered(request, reply, exchange, to, options);
  return adding
    .catch((err: unknown) => options.onServerError?.(err, request))
    .then(() => answered(request, reply, exchange, to, options));
}

/** Logs a request the mock answered; a promise only when the log is a shared store's. */
function addToLog(
  request: MockRequest,
  reply: Reply,
  exchange: Exchange,
  api: MountedApi,
  states: MockStates,
): void | Promise<void> {
  const state = exchange.state ?? states.default;
  const { fault } = reply;
  return state.requestLog.add(
    logEntry(
      request,
      api,
      state.session,
      {
        // A malformed answer is sent with its status; a reset or a timeout sends none.
        status: fault
          ? fault.kind === 'malformed'
            ? fault.status
            : undefined
          : reply.answer.status,
        response: fault ? undefined : loggedAnswer(reply.answer, request.method),
        fault: fault?.kind,
      },
      exchange,
    ),
  );
}

/**
 * Counts the request for the coverage of its operation, in its session's state: one refused
 * before its session was read (a 401) still counts there, if the session exists. A promise
 * only then: an await per request is worth saving.
 */
function tally(
  request: MockRequest,
  reply: Reply,
  exchange: Exchange,
  to: OperationRoute,
  states: MockStates,
): void | Promise<void> {
  const { operation, api } = to;
  const outcome = {
    status: reply.answer?.status ?? reply.fault?.status,
    fault: reply.fault?.kind,
    delayed: (exchange.delayMs ?? 0) > 0,
    scheme: api.schemes && schemesSent(credentialPartsOf(request, to.search), api.schemes),
  };
  const state = exchange.state ?? knownStateOf(request, states);
  if (!(state instanceof Promise)) return state.coverage.hit(operation, outcome);
  return state.then((known) => known.coverage.hit(operation, outcome));
}

/** Hands a 2xx answer of an operation to what sends its callbacks and webhooks; never throws. */
function answered(
  request: MockRequest,
  reply: Reply,
  exchange: Exchange,
  to: Route,
  options: Pick<MockCoreOptions, 'onAnswered' | 'onServerError'>,
): void {
  const { answer } = reply;
  const { valid, state } = exchange;
  if (!options.onAnswered || to.kind !== 'operation' || !valid || !state) return;
  if (!answer || answer.status < 200 || answer.status > 299) return;
  try {
    options.onAnswered({
      operation: to.operation,
      request,
      params: valid.params,
      search: to.search,
      body: valid.body,
      answer,
      state,
      callbackDelayMs: exchange.callbackDelay,
    });
  } catch (err) {
    options.onServerError?.(err, request);
  }
}
