import { setTimeout as sleep } from 'node:timers/promises';
import { withStoreBudget } from '../store/store-budget.js';
import type { Operation } from '../openapi/operations.js';
import {
  CheckedJson,
  type Answer,
  type CheckedAnswer,
  type Reply,
  type StreamCut,
} from '../vocabulary/answer.js';
import { errors } from '../vocabulary/error-catalogue.js';
import type { ApiError } from '../vocabulary/errors.js';
import type { MockRequest } from '../vocabulary/request.js';
import { schemesSent } from '../openapi/coverage-table.js';
import type { SecurityScheme } from '../openapi/security-schemes.js';
import { credentialPartsOf } from './admin/coverage.js';
import { redactTarget, type CredentialPlaces } from './admin/redact.js';
import { keptAnswer, keptBody } from './admin/request-log.js';
import type { ShapedError } from './error-shaper.js';
import { inDocumentedStatus, toApiError } from './error-mapping.js';
import type { OperationHandler } from './handler.js';
import { headerValue } from './headers.js';
import { createBodyDecoder, type ReadBody } from './request-body.js';
import { apiLocator, splitTarget } from './request-target.js';
import type { RequestInput, ValidRequest } from './request-validator.js';
import type { Router } from './router.js';
import { readPreferences, type Preferences } from './scenarios/prefer.js';
import type { MockState, MockStates } from './state.js';
import type { StreamAnswers } from './streams/stream-answers.js';
import type { AnsweredExchange } from './outgoing/outgoing.js';

/** One API the mock serves: the spec's, and the admin API beside it. */
export interface ServedApi {
  /** The path it is served under, without a trailing slash: `/v1`, `/__mock`, or `''`. */
  basePath: string;
  router: Router;
  /**
   * Throws a 401 ApiError unless the request meets the security requirements of `operation`,
   * or, for a path below the base path that the spec lacks, the document's (401 before 404).
   * `search` is the query string, without `?`.
   * @returns whether the request is identified, and so may make a session (see SecurityCheck).
   */
  checkCredential(request: MockRequest, search: string, operation?: Operation): boolean;
  /** How each operation answers. An operation without a handler is a 501. */
  handlers: ReadonlyMap<Operation, OperationHandler>;
  /** Headers every answer of an operation carries (deprecation, stability). */
  headersOf(operation: Operation): Readonly<Record<string, string>>;
  /** Whether its requests go to the request log. */
  recorded: boolean;
  /** Where its API keys travel: the request log keeps them redacted. */
  credentials?: CredentialPlaces;
  /** Its spec's security schemes: the coverage counts each request by the schemes it carried. */
  schemes?: ReadonlyMap<string, SecurityScheme>;
  /** Shapes an error as this API's spec declares it for the operation (if known) and status. */
  shapeError(error: ApiError, operation: Operation | undefined): ShapedError;
  /** The scenarios (Prefer, latency, faults) its requests may ask for; none for the admin API. */
  scenarios?: ScenarioHooks;
  /** An ApiError for an operation this run does not serve (its stability), checked after the credential. */
  refuse?(operation: Operation): ApiError | undefined;
  /** The streams its operations document (see createStreamAnswers); none when none does. */
  streams?: StreamAnswers;
  /** The answer in XML when the client prefers the XML the spec documents for it (see createXmlAnswers). */
  inXml?(request: MockRequest, operation: Operation, answer: CheckedAnswer): CheckedAnswer;
}

/** What the core needs to play the scenarios a request asks for (the settings are the state's). */
export interface ScenarioHooks {
  /** The answer `Prefer: code/example/dynamic` forces, if any. */
  forced(operation: Operation, preferences: Preferences): Answer | undefined;
  /** A body a `malformed` fault is cut from. */
  sample(operation: Operation): unknown;
  /** How long a `timeout` fault holds the connection. */
  faultTimeoutMs: number;
}

/** Where a request goes, found once per request from its method and target. */
export type Route =
  | {
      kind: 'operation';
      api: ServedApi;
      operation: Operation;
      /** The path parameters, percent-decoded, as strings. */
      params: Record<string, string>;
      /** The methods served at this path, for `Allow` and CORS. */
      allow: readonly string[];
      pathname: string;
      search: string;
    }
  | {
      kind: 'method-not-allowed';
      api: ServedApi;
      allow: readonly string[];
      pathname: string;
      search: string;
    }
  | { kind: 'not-found'; api: ServedApi | undefined; pathname: string; search: string }
  /** A target that is not a path, or a path parameter that does not decode. */
  | { kind: 'invalid'; api: ServedApi | undefined; error: ApiError };

export interface MockCoreOptions {
  /** The APIs served, matched by base path; the first one's error shape serves requests of none. */
  apis: readonly ServedApi[];
  validate: (operation: Operation, input: RequestInput) => ValidRequest;
  /**
   * Checks an answer against the spec and makes it ready to send, with the headers every
   * answer of the operation carries (`base`) under its own.
   */
  checkAnswer: (
    operation: Operation,
    answer: Answer,
    base: Readonly<Record<string, string>>,
  ) => CheckedAnswer | Promise<CheckedAnswer>;
  /** The states handlers work on: the default one, and one per session (`Mock-Session`). */
  states: MockStates;
  /**
   * How long one request may wait for its store, all its store calls together (its session,
   * settings, records, log entry): a shared store that stops answering then gives a 503 within
   * this of the request's arrival, not after a timeout per call. None: each call is bounded by
   * the store alone.
   * @default undefined
   * @example 2000
   */
  storeBudgetMs?: number;
  /** Told of every error that becomes a 5xx, with the request it answered. */
  onServerError?: (err: unknown, request: { method: string; target: string }) => void;
  /**
   * Told of every request of a recorded API answered with a 2xx, once it is logged: what sends
   * its callbacks and webhooks (core/outgoing/), which must not delay the answer.
   */
  onAnswered?: (exchange: AnsweredExchange) => void;
}

/**
 * The mock core: a request comes in as plain data, an answer goes out as plain data, and no
 * socket is ever seen. It routes (once, by `route`), checks the credential before anything is
 * read, reads the body through the request's own `readBody`, checks the request against the
 * spec, plays the scenarios it asks for, runs the operation's handler, and checks the answer
 * against the spec. Every failure on the way becomes the error the spec declares for that
 * operation and status.
 * @example const reply = await core.handle(request); // { answer: { status: 200, headers, body } }
 */
export interface MockCore {
  /** Where a request goes: its API, operation and parameters, or why there is none. */
  route(method: string, target: string): Route;
  /** The reply to a request; never throws. `route` is the request's, when already found. */
  handle(request: MockRequest, route?: Route): Promise<Reply>;
  /**
   * Any error as the answer the spec shapes it to: for the route's operation when known, else
   * the route's API, else the first API (what Node's HTTP parser refuses has no route).
   */
  errorAnswer(err: unknown, route?: Route): CheckedAnswer;
  /**
   * What a request breaks of the spec, without answering it: no operation at its path or for
   * its method, its credential (as its API checks it), its body's media type and bytes, its
   * parameters and body against their schemas, each as the error the mock would answer. The
   * proxy's check of a request it forwards anyway. A body that cannot be read leaves the
   * schemas unchecked. Never throws.
   */
  inspect(request: MockRequest, route: Route): Promise<ApiError[]>;
  /**
   * A request target as a log line may show it: the API keys that any served API's security
   * schemes put in the query redacted, whether or not they were right.
   * @example core.shownTarget('/v1/x?api_key=K-1') // '/v1/x?api_key=***'
   */
  shownTarget(target: string): string;
}

/** What the core learns of a request as it goes, for its log and its error answer. */
interface Progress {
  operation?: Operation;
  body?: ReadBody;
  delayMs?: number;
  /** The state it works on, once its session is known. */
  state?: MockState;
  /** Its parameters and body as checked, once they are. */
  valid?: ValidRequest;
  preferences?: Preferences;
}

/** A session id as the `Mock-Session` header gives it. */
const SESSION_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The state a request works on: the session its `Mock-Session` header names, else the default.
 * Only an identified request (one with a credential the mock accepts) makes a session: an
 * anonymous one uses the session if it exists, and the default state if not, so that clients
 * with no credential cannot fill every session slot.
 * @throws {ApiError} 400 for a header that is not a session id, 503 when no session fits.
 */
function stateOf(
  request: MockRequest,
  states: MockStates,
  identified: boolean,
): MockState | Promise<MockState> {
  const id = headerValue(request, 'mock-session');
  if (id === undefined) return states.default;
  if (!SESSION_ID.test(id)) throw errors.invalidSession(id);
  if (identified) return states.session(id);
  return states.existing(id).then((state) => state ?? states.default);
}

export function createMockCore(options: MockCoreOptions): MockCore {
  const findApi = apiLocator(options.apis);
  const decodeBody = createBodyDecoder();
  const everyPlace = unionOfPlaces(options.apis);

  function route(method: string, target: string): Route {
    let pathname: string;
    let search: string;
    try {
      ({ pathname, search } = splitTarget(target));
    } catch (err) {
      return { kind: 'invalid', api: undefined, error: toApiError(err) };
    }
    const found = findApi(pathname);
    if (!found) return { kind: 'not-found', api: undefined, pathname, search };
    const { api, below } = found;
    let match: ReturnType<Router['match']>;
    try {
      match = api.router.match(method, below);
    } catch (err) {
      return { kind: 'invalid', api, error: toApiError(err) };
    }
    if (match.kind === 'not-found') return { kind: 'not-found', api, pathname, search };
    if (match.kind === 'method-not-allowed')
      return { kind: 'method-not-allowed', api, allow: match.allow, pathname, search };
    const { operation, params, allow } = match;
    return { kind: 'operation', api, operation, params, allow, pathname, search };
  }

  async function serve(request: MockRequest, to: Route, progress: Progress): Promise<Reply> {
    if (to.kind === 'invalid') throw to.error;
    const { method } = request;
    if (!to.api) throw errors.noOperation(method, to.pathname);
    const { api } = to;
    if (method === 'OPTIONS' && to.kind === 'method-not-allowed') {
      // A plain OPTIONS (not a CORS preflight, which the HTTP adapter answers) asks what is allowed.
      return { answer: { status: 204, headers: { Allow: to.allow.join(', ') }, body: undefined } };
    }
    const identified = api.checkCredential(
      request,
      to.search,
      to.kind === 'operation' ? to.operation : undefined,
    );
    const chosen = stateOf(request, options.states, identified);
    const state = chosen instanceof Promise ? await chosen : chosen;
    progress.state = state;
    if (to.kind === 'not-found') throw errors.noOperation(method, to.pathname);
    if (to.kind === 'method-not-allowed') throw errors.methodNotAllowed(to.pathname, to.allow);

    const { operation } = to;
    progress.operation = operation;
    const refused = api.refuse?.(operation);
    if (refused) throw refused;
    const body = operation.requestBody
      ? await decodeBody(request, operation.requestBody)
      : undefined;
    if (body) progress.body = body;
    const valid = options.validate(operation, {
      params: to.params,
      search: to.search,
      headers: request.headers,
      body,
    });
    const handler = api.handlers.get(operation);
    if (!handler) throw errors.notImplemented(operation.operationId);
    // An API whose operations document no stream has nothing to ask here.
    const streamed = api.streams?.asked(request, operation, valid.body);

    progress.valid = valid;
    const hooks = api.scenarios;
    let preferences = hooks ? readPreferences(request, operation) : {};
    let cut: StreamCut | undefined;
    progress.preferences = preferences;
    if (hooks) {
      const settings = await state.scenarios.settings();
      // The state's force is what a Prefer header would ask, over the request's own.
      const forced = settings.force && (await state.scenarios.takeForced(operation));
      if (forced) preferences = { ...preferences, ...forced };
      progress.delayMs = state.scenarios.delayFor(settings, preferences);
      const fault = state.scenarios.faultFor(settings, preferences);
      // `Prefer: fault=reset; after=2` breaks a stream after its second event, not before it.
      if (fault && streamed && preferences.after !== undefined)
        cut = { kind: fault, after: preferences.after, holdMs: hooks.faultTimeoutMs };
      else if (fault) {
        if (progress.delayMs > 0) await sleep(progress.delayMs);
        return {
          fault: {
            kind: fault,
            holdMs: hooks.faultTimeoutMs,
            status: operation.successStatus,
            body: hooks.sample(operation),
          },
        };
      }
    }
    // Objects built field by field, not spread: a spread of objects of many shapes (every
    // operation's, every handler's) is V8's slow path here, a quarter of a list's CPU (issue 18).
    const { params, query, headers: headerParameters, cookies } = valid;
    const { store, session } = state;
    const conditions = conditionsOf(request);
    const answer =
      hooks?.forced(operation, preferences) ??
      (await handler(
        {
          params,
          query,
          headers: headerParameters,
          cookies,
          body: valid.body,
          operation,
          pathname: to.pathname,
          ...(conditions ? { conditions } : {}),
        },
        session ? { store, state, session } : { store, state },
      ));
    if (progress.delayMs) await sleep(progress.delayMs);
    const stream = streamed && api.streams?.answer(operation, streamed, answer, preferences, cut);
    if (stream) {
      // Its headers checked as any answer's; its events as they go out.
      const head = options.checkAnswer(operation, stream.head, api.headersOf(operation));
      return {
        answer: { ...(head instanceof Promise ? await head : head), stream: stream.stream },
      };
    }
    // The operation's own headers under the answer's, merged once, by the check.
    const checked = options.checkAnswer(operation, answer, api.headersOf(operation));
    const settled = checked instanceof Promise ? await checked : checked;
    return { answer: api.inXml ? api.inXml(request, operation, settled) : settled };
  }

  function errorAnswer(err: unknown, to?: Route, operation?: Operation): CheckedAnswer {
    const error = inDocumentedStatus(toApiError(err), operation);
    const api = to?.api ?? options.apis[0];
    const shaped = api?.shapeError(error, operation) ?? {
      body: error.toBody(),
      contentType: 'application/json',
    };
    return {
      status: error.status,
      headers: { ...error.headers, 'Content-Type': `${shaped.contentType}; charset=utf-8` },
      body: new CheckedJson(Buffer.from(JSON.stringify(shaped.body))),
      reason: error.message,
    };
  }

  /** Logs a request; a promise only when the log is a shared store's. */
  function record(
    request: MockRequest,
    reply: Reply,
    progress: Progress,
    started: number,
    api: ServedApi,
  ): Promise<void> {
    const { state = options.states.default } = progress;
    const { fault } = reply;
    const kept = progress.body && keptBody(progress.body);
    // One object of one shape, every field set: the log keeps a thousand of them.
    return state.requestLog.add({
      session: state.session,
      method: request.method,
      // As sent: the log redacts the credentials when it shows them.
      path: request.target,
      headers: request.headers,
      credentials: api.credentials,
      // A malformed answer is sent with its status; a reset or a timeout sends none.
      status: fault ? (fault.kind === 'malformed' ? fault.status : undefined) : reply.answer.status,
      response: fault ? undefined : keptAnswer(reply.answer, request.method),
      fault: fault?.kind,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      // A number here; the log formats it when it is read, not on every request.
      at: Date.now(),
      body: kept?.body,
      bodyNote: kept?.bodyNote,
      bodyBytes: kept?.bodyBytes,
    });
  }

  /**
   * Counts the request for the coverage of its operation, in its session's state: one refused
   * before its session was read (a 401) still counts there, if the session exists. A promise
   * only then: an await per request is worth saving.
   */
  function tally(
    request: MockRequest,
    reply: Reply,
    progress: Progress,
    to: Extract<Route, { kind: 'operation' }>,
  ): void | Promise<void> {
    const { operation, api } = to;
    const outcome = {
      status: reply.answer?.status ?? reply.fault?.status,
      fault: reply.fault?.kind,
      delayed: (progress.delayMs ?? 0) > 0,
      scheme: api.schemes && schemesSent(credentialPartsOf(request, to.search), api.schemes),
    };
    if (progress.state) return progress.state.coverage.hit(operation, outcome);
    const id = headerValue(request, 'mock-session');
    if (id === undefined || !SESSION_ID.test(id))
      return options.states.default.coverage.hit(operation, outcome);
    return options.states.existing(id).then(
      (state) => (state ?? options.states.default).coverage.hit(operation, outcome),
      () => options.states.default.coverage.hit(operation, outcome),
    );
  }

  /** The run-wide delay of the request's state (the default one when its session is not known). */
  async function runDelay(progress: Progress): Promise<number> {
    const { scenarios } = progress.state ?? options.states.default;
    try {
      return scenarios.delayFor(await scenarios.settings(), {});
    } catch {
      return 0; // a shared store that is down has no settings to read: no delay
    }
  }

  async function inspect(request: MockRequest, to: Route): Promise<ApiError[]> {
    if (to.kind === 'invalid') return [to.error];
    if (to.kind === 'not-found' || !to.api)
      return [errors.noOperation(request.method, to.pathname)];
    if (to.kind === 'method-not-allowed')
      // OPTIONS is allowed wherever the spec has a path (a CORS preflight, a plain OPTIONS).
      return request.method === 'OPTIONS' ? [] : [errors.methodNotAllowed(to.pathname, to.allow)];
    const { api, operation } = to;
    const found: ApiError[] = [];
    try {
      api.checkCredential(request, to.search, operation);
    } catch (err) {
      found.push(toApiError(err));
    }
    let body: ReadBody | undefined;
    try {
      if (operation.requestBody) body = await decodeBody(request, operation.requestBody);
    } catch (err) {
      found.push(toApiError(err));
      return found;
    }
    try {
      options.validate(operation, {
        params: to.params,
        search: to.search,
        headers: request.headers,
        body,
      });
    } catch (err) {
      found.push(toApiError(err));
    }
    return found;
  }

  return {
    route,
    inspect,
    shownTarget: (target) => redactTarget(target, everyPlace),
    errorAnswer: (err, to) =>
      errorAnswer(err, to, to?.kind === 'operation' ? to.operation : undefined),
    handle(request, to = route(request.method, request.target)) {
      const budget = options.storeBudgetMs;
      return budget === undefined
        ? handle(request, to)
        : withStoreBudget(budget, () => handle(request, to));
    },
  };

  async function handle(request: MockRequest, to: Route): Promise<Reply> {
    const started = performance.now();
    const progress: Progress = {};
    let reply: Reply;
    try {
      reply = await serve(request, to, progress);
    } catch (err) {
      const error = toApiError(err);
      if (error.status >= 500) options.onServerError?.(err, request);
      // The run-wide latency holds for errors too: a UI's slow 401 is a state to render.
      const delay = progress.delayMs ?? (to.api?.scenarios ? await runDelay(progress) : 0);
      progress.delayMs = delay;
      if (delay > 0) await sleep(delay);
      reply = { answer: errorAnswer(error, to, progress.operation) };
    }
    if (to.api?.recorded) {
      if (to.kind === 'operation') {
        const counted = tally(request, reply, progress, to);
        if (counted) await counted;
      }
      try {
        await record(request, reply, progress, started, to.api);
      } catch (err) {
        // The log may be a shared store's: one that fails leaves the answer as it was.
        options.onServerError?.(err, request);
      }
      if (options.onAnswered && to.kind === 'operation') answered(request, reply, progress, to);
    }
    return reply;
  }

  /** Hands a 2xx answer to what sends its callbacks and webhooks; never throws. */
  function answered(
    request: MockRequest,
    reply: Reply,
    progress: Progress,
    to: Extract<Route, { kind: 'operation' }>,
  ): void {
    const { answer } = reply;
    const { valid, state } = progress;
    if (!answer || answer.status < 200 || answer.status > 299 || !valid || !state) return;
    try {
      options.onAnswered?.({
        operation: to.operation,
        request,
        params: valid.params,
        search: to.search,
        body: valid.body,
        answer,
        state,
        callbackDelayMs: progress.preferences?.callbackDelay,
      });
    } catch (err) {
      options.onServerError?.(err, request);
    }
  }
}

/** Where the credentials of every API travel: a log line redacts them all, whatever its route. */
function unionOfPlaces(apis: readonly ServedApi[]): CredentialPlaces {
  const places = {
    headers: new Set<string>(),
    query: new Set<string>(),
    cookies: new Set<string>(),
  };
  for (const { credentials } of apis) {
    if (!credentials) continue;
    for (const name of credentials.headers) places.headers.add(name);
    for (const name of credentials.query) places.query.add(name);
    for (const name of credentials.cookies) places.cookies.add(name);
  }
  return places;
}

/** The conditional fields of a request (RFC 9110 §13), when it sent any. */
function conditionsOf(
  request: MockRequest,
): { ifMatch?: string; ifNoneMatch?: string } | undefined {
  const { headers } = request;
  if (headers['if-match'] === undefined && headers['if-none-match'] === undefined) return undefined;
  const ifMatch = headerValue(request, 'if-match');
  const ifNoneMatch = headerValue(request, 'if-none-match');
  return {
    ...(ifMatch === undefined ? {} : { ifMatch }),
    ...(ifNoneMatch === undefined ? {} : { ifNoneMatch }),
  };
}
