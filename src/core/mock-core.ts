import { setTimeout as sleep } from 'node:timers/promises';
import { withStoreBudget } from '../store/store-budget.js';
import type { Operation } from '../openapi/operations.js';
import type { Answer, CheckedAnswer, Reply, StreamCut } from '../vocabulary/answer.js';
import { errors } from '../vocabulary/error-catalogue.js';
import type { ApiError } from '../vocabulary/errors.js';
import type { MockRequest } from '../vocabulary/request.js';
import type { SecurityScheme } from '../openapi/security-schemes.js';
import { redactTarget, type CredentialPlaces } from './admin/redact.js';
import type { ShapedError } from './error-shaper.js';
import { toApiError } from './error-mapping.js';
import type { OperationHandler } from './handler.js';
import { createBodyDecoder, type ReadBody } from './request-body.js';
import type { RequestInput, ValidRequest } from './request-validator.js';
import type { Router } from './stages/route.js';
import type { Preferences } from './scenarios/prefer.js';
import type { MockState, MockStates } from './state.js';
import type { StreamAnswers } from './streams/stream-answers.js';
import type { AnsweredExchange } from './outgoing/outgoing.js';
import { checkedReply } from './stages/answer.js';
import { errorAnswer } from './stages/error-answer.js';
import { produce } from './stages/produce.js';
import { answered, record, tally } from './stages/record.js';
import { apiOf, createRouting, operationOf, type ApiRoute } from './stages/route.js';
import { playScenarios } from './stages/scenario.js';
import { stateOf } from './stages/session.js';

/** One API the mock serves: the spec's, and the admin API beside it. */
export interface MountedApi {
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
      api: MountedApi;
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
      api: MountedApi;
      allow: readonly string[];
      pathname: string;
      search: string;
    }
  | { kind: 'not-found'; api: MountedApi | undefined; pathname: string; search: string }
  /** A target that is not a path, or a path parameter that does not decode. */
  | { kind: 'invalid'; api: MountedApi | undefined; error: ApiError };

export interface MockCoreOptions {
  /** The APIs served, matched by base path; the first one's error shape serves requests of none. */
  apis: readonly MountedApi[];
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
   * parameters and body against their schemas, each as the error the mock would answer; and
   * its body as read, for the request log. The proxy's check of a request it forwards anyway,
   * and the judge's. A body that cannot be read leaves the schemas unchecked. Never throws.
   */
  inspect(request: MockRequest, route: Route): Promise<Inspection>;
  /**
   * A request target as a log line may show it: the API keys that any served API's security
   * schemes put in the query redacted, whether or not they were right.
   * @example core.shownTarget('/v1/x?api_key=K-1') // '/v1/x?api_key=***'
   */
  shownTarget(target: string): string;
}

/** What `inspect` finds of a request: what it breaks, and its body as read. */
interface Inspection {
  found: ApiError[];
  body?: ReadBody;
}

/**
 * One request on its way through the pipeline: what the stages learn of it as it goes, for
 * the stages after them, its log entry and its error answer.
 */
export interface Exchange {
  /** When it arrived (`performance.now()`). */
  started: number;
  operation?: Operation;
  /** The state it works on, once its session is known. */
  state?: MockState;
  body?: ReadBody;
  /** Its parameters and body as checked, once they are. */
  valid?: ValidRequest;
  /** The stream it asks for, of those its operation documents. */
  streamed?: ReturnType<NonNullable<MountedApi['streams']>['asked']>;
  /** What it and its state's force ask the mock to play. */
  preferences?: Preferences;
  /** The delay it asked for, or its state's. */
  delayMs?: number;
  /** Where a fault breaks the stream it asked for. */
  cut?: StreamCut;
  /** The delay of its callbacks, as its own `Prefer` header asks. */
  callbackDelay?: number;
}

/**
 * The mock's pipeline: the stages of a request, in their order. Each stage is a module of
 * `stages/` (or, for the checks the spec compiles, of `core/`); `handle` runs them.
 *
 *   route → credential → state → operation → stability → body → validation → scenario
 *         → produce → answer check → (error answer) → record
 *
 * The adapter before it (the Node listener: Host, the inspector page, CORS; `fetch`) and the
 * sending after it are the adapters'. `inspect` runs the credential, body and validation
 * stages and collects what they refuse.
 */
export function createMockCore(options: MockCoreOptions): MockCore {
  const route = createRouting(options.apis);
  const decodeBody = createBodyDecoder();
  const everyPlace = unionOfPlaces(options.apis);
  const { states } = options;

  /**
   * The credential stage: a 401 unless the request meets its API's security requirements for
   * the route. @returns whether the request is identified, and so may make a session.
   */
  function credential(request: MockRequest, to: ApiRoute): boolean {
    return to.api.checkCredential(
      request,
      to.search,
      to.kind === 'operation' ? to.operation : undefined,
    );
  }

  /** The body stage: read once and decoded as its media type; a promise only when there is one. */
  function bodyOf(
    request: MockRequest,
    operation: Operation,
  ): Promise<ReadBody | undefined> | undefined {
    return operation.requestBody ? decodeBody(request, operation.requestBody) : undefined;
  }

  /** The validation stage: parameters and body as the spec reads them; a 400 for what breaks it. */
  function validation(
    request: MockRequest,
    to: Extract<Route, { kind: 'operation' }>,
    body: ReadBody | undefined,
  ): ValidRequest {
    return options.validate(to.operation, {
      params: to.params,
      search: to.search,
      headers: request.headers,
      body,
    });
  }

  /** The credential, body and validation stages, what each refuses collected (see MockCore.inspect). */
  async function inspect(request: MockRequest, to: Route): Promise<Inspection> {
    if (to.kind === 'invalid') return { found: [to.error] };
    if (to.kind === 'not-found' || !to.api)
      return { found: [errors.noOperation(request.method, to.pathname)] };
    if (to.kind === 'method-not-allowed')
      // OPTIONS is allowed wherever the spec has a path (a CORS preflight, a plain OPTIONS).
      return {
        found: request.method === 'OPTIONS' ? [] : [errors.methodNotAllowed(to.pathname, to.allow)],
      };
    const found: ApiError[] = [];
    try {
      credential(request, to as ApiRoute);
    } catch (err) {
      found.push(toApiError(err));
    }
    let body: ReadBody | undefined;
    try {
      body = await bodyOf(request, to.operation);
    } catch (err) {
      // A body that cannot be read leaves the schemas unchecked.
      found.push(toApiError(err));
      return { found };
    }
    try {
      validation(request, to, body);
    } catch (err) {
      found.push(toApiError(err));
    }
    return body ? { found, body } : { found };
  }

  async function serve(request: MockRequest, to: Route, x: Exchange): Promise<Reply> {
    const found = apiOf(request, to);
    if ('answer' in found) return found;
    const { api } = found;
    const identified = credential(request, found);
    const chosen = stateOf(request, states, identified);
    const state = (x.state = chosen instanceof Promise ? await chosen : chosen);
    const at = operationOf(request, found);
    const { operation } = at;
    x.operation = operation;
    const refused = api.refuse?.(operation);
    if (refused) throw refused;
    const reading = bodyOf(request, operation);
    const body = reading && (await reading);
    if (body) x.body = body;
    const valid = validation(request, at, body);
    const handler = api.handlers.get(operation);
    if (!handler) throw errors.notImplemented(operation.operationId);
    // An API whose operations document no stream has nothing to ask here.
    x.streamed = api.streams?.asked(request, operation, valid.body);
    x.valid = valid;
    const hooks = api.scenarios;
    if (hooks) {
      const fault = await playScenarios(request, operation, hooks, state, !!x.streamed, x);
      if (fault) return fault;
    }
    const produced = produce(request, at, handler, hooks, state, valid, x);
    const answer = produced instanceof Promise ? await produced : produced;
    if (x.delayMs) await sleep(x.delayMs);
    const reply = checkedReply(options.checkAnswer, api, request, operation, answer, x);
    return reply instanceof Promise ? await reply : reply;
  }

  async function handle(request: MockRequest, to: Route): Promise<Reply> {
    // Every field from the start: one shape for every exchange, not one per path it took.
    const x: Exchange = {
      started: performance.now(),
      operation: undefined,
      state: undefined,
      body: undefined,
      valid: undefined,
      streamed: undefined,
      preferences: undefined,
      delayMs: undefined,
      cut: undefined,
      callbackDelay: undefined,
    };
    let reply: Reply;
    try {
      reply = await serve(request, to, x);
    } catch (err) {
      const error = toApiError(err);
      if (error.status >= 500) options.onServerError?.(err, request);
      // The run-wide latency holds for errors too: a UI's slow 401 is a state to render.
      const delay = x.delayMs ?? (to.api?.scenarios ? await runDelay(x) : 0);
      x.delayMs = delay;
      if (delay > 0) await sleep(delay);
      reply = { answer: errorAnswer(error, to.api ?? options.apis[0], x.operation) };
    }
    const { api } = to;
    if (api?.recorded) {
      if (to.kind === 'operation') {
        const counted = tally(request, reply, x, to, states);
        if (counted) await counted;
      }
      try {
        // A promise only when the log is a shared store's: an await per request is worth saving.
        const logged = record(request, reply, x, api, states);
        if (logged) await logged;
      } catch (err) {
        // The log may be a shared store's: one that fails leaves the answer as it was.
        options.onServerError?.(err, request);
      }
      if (options.onAnswered && to.kind === 'operation') answered(request, reply, x, to, options);
    }
    return reply;
  }

  /** The run-wide delay of the request's state (the default one when its session is not known). */
  async function runDelay(x: Exchange): Promise<number> {
    const { scenarios } = x.state ?? states.default;
    try {
      return scenarios.delayFor(await scenarios.settings(), {});
    } catch {
      return 0; // a shared store that is down has no settings to read: no delay
    }
  }

  return {
    route,
    inspect,
    shownTarget: (target) => redactTarget(target, everyPlace),
    errorAnswer: (err, to) =>
      errorAnswer(
        err,
        to?.api ?? options.apis[0],
        to?.kind === 'operation' ? to.operation : undefined,
      ),
    handle(request, to = route(request.method, request.target)) {
      const budget = options.storeBudgetMs;
      return budget === undefined
        ? handle(request, to)
        : withStoreBudget(budget, () => handle(request, to));
    },
  };
}

/** Where the credentials of every API travel: a log line redacts them all, whatever its route. */
function unionOfPlaces(apis: readonly MountedApi[]): CredentialPlaces {
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
