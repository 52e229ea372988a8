import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Operation, RequestBody } from '../openapi/operations.js';
import type { Answer } from '../vocabulary/answer.js';
import type { ReadBody } from './body.js';
import type { ErrorAnswer } from '../core/error-shaper.js';
import { ApiError, toApiError } from '../vocabulary/errors.js';
import type { RequestInput, ValidRequest } from '../core/request-validator.js';
import { hasBody } from './headers.js';
import { apiLocator, splitTarget } from './request-target.js';
import type { Router } from '../core/router.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { playFault } from './faults.js';
import { readPreferences, type FaultKind, type Preferences } from '../core/scenarios/prefer.js';
import type { Scenarios } from '../core/scenarios/settings.js';

/** What a handler gets: the checked request, its operation, and the raw request. */
export interface HandlerRequest extends ValidRequest {
  operation: Operation;
  req: IncomingMessage;
}

/** Serves one operation: returns its answer, or throws an ApiError. */
export type OperationHandler = (request: HandlerRequest) => Answer | Promise<Answer>;

/** One API the mock serves: the spec's, and the admin API beside it. */
export interface ServedApi {
  /** The path it is served under, without a trailing slash: `/v1`, `/__mock`, or `''`. */
  basePath: string;
  router: Router;
  /** Whether a path below the base path that the spec lacks needs a credential (401 before 404). */
  unknownNeedsCredential: boolean;
  /** How each operation answers. An operation without a handler is a 501. */
  handlers: ReadonlyMap<Operation, OperationHandler>;
  /** Headers every answer of an operation carries (deprecation, stability). */
  headersOf(operation: Operation): Readonly<Record<string, string>>;
  /** Whether its requests go to the request log. */
  recorded: boolean;
  /** The scenarios (Prefer, latency, faults) its requests may ask for; none for the admin API. */
  scenarios?: ScenarioHooks;
  /** An ApiError for an operation this run does not serve (its stability), checked after the credential. */
  refuse?(operation: Operation): ApiError | undefined;
}

/** What the pipeline needs to play the scenarios a request asks for. */
export interface ScenarioHooks {
  scenarios: Scenarios;
  /** The answer `Prefer: code/example/dynamic` forces, if any. */
  forced(operation: Operation, preferences: Preferences): Answer | undefined;
  /** A body a `malformed` fault is cut from. */
  sample(operation: Operation): unknown;
  /** How long a `timeout` fault holds the connection. */
  faultTimeoutMs: number;
}

/** A request as the log of recent requests keeps it. */
export interface AnsweredRequest {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  /** When it was answered, in milliseconds since the epoch. */
  at: number;
  /** The JSON body the client sent, when there was one. */
  body?: unknown;
  /** The fault played instead of an answer, if one was. */
  fault?: FaultKind;
}

/** The largest request body the log of recent requests keeps. */
const LOGGED_BODY_LIMIT = 16 * 1024;

/** What the pipeline learns of a request as it goes, for its log and its error answer. */
interface RequestState {
  operation?: Operation;
  api?: ServedApi;
  body?: ReadBody;
  delayMs?: number;
  fault?: FaultKind;
  /** performance.now() at its arrival. */
  started: number;
}

/** Hands the request to the log once it is answered (or given up). */
function record(
  req: IncomingMessage,
  res: ServerResponse,
  state: RequestState,
  onAnswered: (request: AnsweredRequest) => void,
): void {
  res.once('close', () => {
    onAnswered({
      method: req.method ?? '',
      path: req.url ?? '',
      status: res.statusCode,
      durationMs: Math.round((performance.now() - state.started) * 100) / 100,
      // A number here; the log formats it when it is read, not on every request.
      at: Date.now(),
      // Bodies of up to 16 KiB, so that the log stays small however long the mock runs.
      ...(state.body && !Buffer.isBuffer(state.body.value) && state.body.bytes <= LOGGED_BODY_LIMIT
        ? { body: state.body.value }
        : {}),
      ...(state.fault ? { fault: state.fault } : {}),
    });
  });
}

/** A connect-style step (the CORS middleware) that runs before anything else. */
export type PreStep = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void;

export interface PipelineOptions {
  /** The APIs served, matched by base path. */
  apis: readonly ServedApi[];
  /** Throws a 401 ApiError unless the request carries an accepted credential. */
  checkCredential: (req: IncomingMessage) => void;
  readBody: (
    req: IncomingMessage,
    res: ServerResponse,
    spec: RequestBody,
  ) => Promise<ReadBody | undefined>;
  validate: (operation: Operation, input: RequestInput) => ValidRequest;
  send: (
    req: IncomingMessage,
    res: ServerResponse,
    operation: Operation,
    answer: Answer,
  ) => Promise<void>;
  shapeError: (error: ApiError, operation: Operation | undefined) => ErrorAnswer;
  logger: Logger;
  /** Steps before routing, e.g. CORS; each may answer (a preflight) or call next. */
  before?: readonly PreStep[];
  /** Called once per answered request of a recorded API. */
  onAnswered?: (request: AnsweredRequest) => void;
}

/**
 * The mock's request pipeline, as one request listener: CORS, routing from the spec,
 * `OPTIONS`, the credential (before the body is read), the body, the checks of the spec,
 * the handler, and the answer, checked too. Every failure on the way leaves as the spec's
 * Error body with its status.
 * @example createServer(createPipeline(options)).listen(4010);
 */
export function createPipeline(
  options: PipelineOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const findApi = apiLocator(options.apis);
  const before = options.before ?? [];

  return function handleRequest(req, res) {
    const state: RequestState = { started: performance.now() };

    runSteps(before, req, res)
      .then(async (answered) => {
        if (answered) return;
        await serve(req, res, state);
      })
      .catch(async (err: unknown) => {
        // The run-wide latency holds for errors too: a UI's slow 401 is a state to render.
        const delay = state.delayMs ?? state.api?.scenarios?.scenarios.delayFor({}) ?? 0;
        if (delay > 0) await sleep(delay);
        fail(req, res, err, state.operation);
      });
  };

  async function serve(
    req: IncomingMessage,
    res: ServerResponse,
    state: RequestState,
  ): Promise<void> {
    const { pathname, search } = splitTarget(req.url ?? '/');
    const found = findApi(pathname);
    if (!found) throw new ApiError(404, 'not_found', `No operation at ${req.method} ${pathname}`);
    const { api, below } = found;
    state.api = api;
    if (api.recorded && options.onAnswered) record(req, res, state, options.onAnswered);
    const method = req.method ?? 'GET';
    const match = api.router.match(method, below);

    if (method === 'OPTIONS' && match.kind === 'method-not-allowed') {
      // A plain OPTIONS (not a CORS preflight, which was answered before) asks what is allowed.
      res.statusCode = 204;
      res.setHeader('Allow', match.allow.join(', '));
      res.end();
      return;
    }

    const needsCredential =
      match.kind === 'operation' ? match.operation.requiresCredential : api.unknownNeedsCredential;
    if (needsCredential) options.checkCredential(req);
    if (match.kind === 'not-found')
      throw new ApiError(404, 'not_found', `No operation at ${method} ${pathname}`);
    if (match.kind === 'method-not-allowed') {
      const allow = match.allow.join(', ');
      throw new ApiError(405, 'method_not_allowed', `${pathname} accepts ${allow} only`, {
        Allow: allow,
      });
    }

    const { operation } = match;
    state.operation = operation;
    const refused = api.refuse?.(operation);
    if (refused) throw refused;
    const body = operation.requestBody
      ? await options.readBody(req, res, operation.requestBody)
      : undefined;
    if (body) state.body = body;
    const valid = options.validate(operation, {
      params: match.params,
      search,
      headers: req.headers,
      body,
    });
    const handler = api.handlers.get(operation);
    if (!handler)
      throw new ApiError(501, 'not_implemented', `The mock cannot answer ${operation.operationId}`);

    const hooks = api.scenarios;
    const preferences = hooks ? readPreferences(req) : {};
    if (hooks) {
      state.delayMs = hooks.scenarios.delayFor(preferences);
      const fault = hooks.scenarios.faultFor(preferences);
      if (fault) {
        if (state.delayMs > 0) await sleep(state.delayMs);
        state.fault = fault;
        playFault(fault, req, res, {
          timeoutMs: hooks.faultTimeoutMs,
          status: operation.successStatus,
          body: hooks.sample(operation),
        });
        return;
      }
    }
    const answer =
      hooks?.forced(operation, preferences) ?? (await handler({ ...valid, operation, req }));
    if (state.delayMs) await sleep(state.delayMs);
    const headers = api.headersOf(operation);
    await options.send(req, res, operation, {
      ...answer,
      headers: answer.headers ? { ...headers, ...answer.headers } : headers,
    });
  }

  function fail(
    req: IncomingMessage,
    res: ServerResponse,
    err: unknown,
    operation: Operation | undefined,
  ): void {
    const error = toApiError(err);
    if (error.status >= 500) {
      options.logger.error({ err, method: req.method, path: req.url }, error.message);
    }
    if (res.headersSent) {
      // Too late for an Error body (a list was being streamed): cut the answer short.
      res.destroy();
      return;
    }
    let answer: ErrorAnswer;
    try {
      answer = options.shapeError(error, operation);
    } catch (shapeFailure) {
      options.logger.error({ err: shapeFailure }, 'cannot shape an error to the spec');
      answer = { body: error.toBody(), contentType: 'application/json' };
    }
    const text = JSON.stringify(answer.body);
    res.statusCode = error.status;
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    res.setHeader('Content-Type', `${answer.contentType}; charset=utf-8`);
    res.setHeader('Content-Length', Buffer.byteLength(text));
    // A body the client may still be sending (refused before it was read) is not worth
    // reading to keep the connection: the connection closes after this answer instead.
    if (!req.complete && hasBody(req)) res.setHeader('Connection', 'close');
    res.end(req.method === 'HEAD' ? undefined : text);
  }
}

function runSteps(
  steps: readonly PreStep[],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  if (steps.length === 0) return Promise.resolve(false);
  return new Promise((resolve, reject) => {
    let index = 0;
    const next = (err?: unknown): void => {
      if (err !== undefined && err !== null) return reject(err as Error);
      const step = steps[index++];
      if (!step) return resolve(false);
      try {
        step(req, res, next);
        // A step that ends the answer (a preflight) never calls next.
        if (res.writableEnded) resolve(true);
      } catch (thrown) {
        reject(thrown as Error);
      }
    };
    next();
  });
}
