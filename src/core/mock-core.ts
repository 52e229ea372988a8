import { setTimeout as sleep } from 'node:timers/promises';
import { withStoreBudget } from '../store/store-budget.js';
import type { Operation } from '../openapi/operations.js';
import type { Answer, CheckedAnswer, Reply, StreamCut } from '../vocabulary/answer.js';
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
import { record } from './stages/record.js';
import { apiOf, createRouting, operationFound, operationOf } from './stages/route.js';
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
  /** Called with every error that becomes a 5xx, and the request it answered. */
  onServerError?: (err: unknown, request: { method: string; target: string }) => void;
  /**
   * Called with every request of a recorded API answered with a 2xx, once it is logged: what
   * sends its callbacks and webhooks (core/outgoing/), which must not delay the answer.
   */
  onAnswered?: (exchange: AnsweredExchange) => void;
}

/**
 * The mock core: a request comes in as plain data, a reply goes out as plain data, and no
 * socket is ever seen; the stages between are `pipeline`'s (see createMockCore).
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
   * The pipeline with other stages around its own (see Stages): the proxy's, with `forward` as
   * its produce stage. `started` is when the request arrived (`performance.now()`).
   */
  pipeline<Produced, Passed, At extends OperationRoute | undefined>(
    request: MockRequest,
    route: Route,
    stages: Stages<Produced, Passed, At>,
    started?: number,
  ): Promise<Reply | Passed>;
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

/** A route to one operation. */
export type OperationRoute = Extract<Route, { kind: 'operation' }>;

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
  /** What the request stages refused, when the pipeline collects refusals (see Stages). */
  refused: ApiError[];
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
 * What the pipeline runs around its own stages: the produce stage, the answer check and record
 * that fit what produce makes, and whether refusals are collected. The mock's are
 * `stages/produce.ts`, `stages/answer.ts` and `stages/record.ts`; the proxy's are
 * `stages/forward.ts`, in place of all three; `inspect`'s produce nothing.
 * `At` is the route produce is given: an operation's, unless refusals are collected.
 */
interface Stages<Produced, Passed, At extends OperationRoute | undefined = OperationRoute> {
  /**
   * None (the mock): the first refusal of a request stage is the answer. Given (the proxy,
   * inspect): every refusal is collected on the exchange and the request goes on, as a
   * transparent proxy's does; called once the request stages are done, it picks the refusal to
   * answer with, if any. A collecting pipeline plays none of the mock's own choices: no
   * session (the default state), no stability refused, no scenario, no 5xx reported as its
   * own; and a request with no operation goes on to produce.
   */
  collect?: (refused: readonly ApiError[]) => ApiError | undefined;
  /** The produce stage: what answers the request. */
  produce(request: MockRequest, at: At, x: Exchange): Produced | Promise<Produced>;
  /** The answer check: what produce made, checked against the spec, as a reply or as it passes. */
  check(
    request: MockRequest,
    produced: Produced,
    at: At,
    x: Exchange,
  ): Reply | Passed | Promise<Reply | Passed>;
  /** The record stage; a promise only when the answer waits for it. */
  record(request: MockRequest, reply: Reply | Passed, to: Route, x: Exchange): void | Promise<void>;
}

/**
 * The mock core and its pipeline: the stages of a request, in their order, in `pipeline`
 * below. Each stage is a module of `stages/` (or, for the checks the spec compiles, of
 * `core/`).
 *
 *   route → credential → state → operation → stability → body → validation → scenario
 *         → produce → answer check → (error answer) → record
 *
 * The adapter before it (the Node listener: Host, the inspector page, CORS; `fetch`) and the
 * sending after it are the adapters'. The proxy runs the same pipeline with `forward` as its
 * produce stage, collecting refusals; `inspect` runs it producing nothing.
 */
export function createMockCore(options: MockCoreOptions): MockCore {
  const route = createRouting(options.apis);
  const decodeBody = createBodyDecoder();
  const everyPlace = unionOfPlaces(options.apis);
  const { states } = options;

  /** The pipeline: one request through every stage, in order. Never throws (but for a store's failure to count it). */
  async function pipeline<Produced, Passed, At extends OperationRoute | undefined>(
    request: MockRequest,
    to: Route,
    x: Exchange,
    stages: Stages<Produced, Passed, At>,
  ): Promise<Reply | Passed> {
    const { collect } = stages;
    let reply: Reply | Passed | undefined;
    try {
      // route: its API by base path (400 for a target that is no path, 404 outside every API;
      // a plain OPTIONS is told what its path allows); collecting, its operation now too
      const found = collect ? operationFound(request, to, x.refused) : apiOf(request, to);
      if (found && 'answer' in found) return (reply = found);
      let at: OperationRoute | undefined;
      if (found) {
        // credential: before anything is read; @returns whether it may make a session. Its
        // refusal takes the shape the routed operation documents (x.operation) for it.
        let identified = false;
        try {
          const operation = found.kind === 'operation' ? found.operation : undefined;
          x.operation = operation;
          identified = found.api.checkCredential(request, found.search, operation);
        } catch (err) {
          if (!collect) throw err;
          x.refused.push(toApiError(err));
        }
        // state: the session its `Mock-Session` header names, else the default one
        const chosen = collect ? states.default : stateOf(request, states, identified);
        x.state = chosen instanceof Promise ? await chosen : chosen;
        // operation: 404 or 405 after the credential, so that a client with none learns
        // nothing of which paths exist
        at = operationOf(request, found);
        const { operation } = at;
        x.operation = operation;
        // stability: an operation this run does not serve (the mock's choice, no breach of the spec)
        const unserved = collect ? undefined : found.api.refuse?.(operation);
        if (unserved) throw unserved;
        // body: read once, decoded as its media type; one that cannot be read leaves the
        // schemas unchecked
        let read = true;
        try {
          if (operation.requestBody) x.body = await decodeBody(request, operation.requestBody);
        } catch (err) {
          if (!collect) throw err;
          x.refused.push(toApiError(err));
          read = false;
        }
        // validation: parameters and body against the spec
        try {
          const { params, search } = at;
          const { headers } = request;
          if (read)
            x.valid = options.validate(operation, { params, search, headers, body: x.body });
        } catch (err) {
          if (!collect) throw err;
          x.refused.push(toApiError(err));
        }
      }
      if (collect) {
        const refusal = collect(x.refused);
        if (refusal) throw refusal;
      } else if (at) {
        // scenario: the stream it asks for, then what Prefer and its state's settings ask to play
        const playing = playScenarios(request, at, x);
        const fault = playing && (await playing);
        if (fault) return (reply = fault);
      }
      // produce: a forced answer, else the operation's handler's; the proxy's `forward`
      const producing = stages.produce(request, at as At, x);
      const produced = producing instanceof Promise ? await producing : producing;
      if (x.delayMs) await sleep(x.delayMs);
      // answer check: required headers, then the spec's response, or a stream
      const checking = stages.check(request, produced, at as At, x);
      return (reply = checking instanceof Promise ? await checking : checking);
    } catch (err) {
      // error answer: any failure on the way, in the spec's shape for the operation and status
      const error = toApiError(err);
      // Collecting, a 5xx is the target's failure, which the proxy's forward logs.
      if (error.status >= 500 && !collect) options.onServerError?.(err, request);
      // The run-wide latency holds for errors too: a UI's slow 401 is a state to render.
      const delay = x.delayMs ?? (to.api?.scenarios && !collect ? await runDelay(x) : 0);
      x.delayMs = delay;
      if (delay > 0) await sleep(delay);
      return (reply = { answer: errorAnswer(error, to.api ?? options.apis[0], x.operation) });
    } finally {
      // record: coverage, the request log's entry, callbacks and webhooks; the proxy's HAR
      if (reply) {
        const recording = stages.record(request, reply, to, x);
        if (recording) await recording;
      }
    }
  }

  /** The mock's own stages around the pipeline's. */
  const mocked: Stages<Answer, never> = {
    produce,
    check: (request, answer, { api, operation }, x) =>
      checkedReply(options.checkAnswer, api, request, operation, answer, x),
    record: (request, reply, to, x) => record(request, reply as Reply, to, x, states, options),
  };

  /** `inspect`'s: every refusal collected, none answered, nothing produced. */
  const inspecting: Stages<Inspection, Inspection, OperationRoute | undefined> = {
    collect: () => undefined,
    produce: (_request, _at, { refused, body }) =>
      body ? { found: refused, body } : { found: refused },
    check: (_request, inspection) => inspection,
    record: () => undefined,
  };

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
    async inspect(request, to) {
      const x = exchangeAt(performance.now());
      const inspected = await pipeline(request, to, x, inspecting);
      return 'found' in inspected ? inspected : { found: x.refused };
    },
    pipeline: (request, to, stages, started = performance.now()) =>
      pipeline(request, to, exchangeAt(started), stages),
    shownTarget: (target) => redactTarget(target, everyPlace),
    errorAnswer: (err, to) =>
      errorAnswer(
        err,
        to?.api ?? options.apis[0],
        to?.kind === 'operation' ? to.operation : undefined,
      ),
    handle(request, to = route(request.method, request.target)) {
      const budget = options.storeBudgetMs;
      const x = exchangeAt(performance.now());
      return budget === undefined
        ? pipeline(request, to, x, mocked)
        : withStoreBudget(budget, () => pipeline(request, to, x, mocked));
    },
  };
}

/** A new exchange, every field set from the start: one shape for every exchange, not one per path it took. */
function exchangeAt(started: number): Exchange {
  return {
    started,
    operation: undefined,
    state: undefined,
    body: undefined,
    valid: undefined,
    refused: [],
    streamed: undefined,
    preferences: undefined,
    delayMs: undefined,
    cut: undefined,
    callbackDelay: undefined,
  };
}

/** Where the credentials of every API travel: a log line redacts them all, whatever its route. */
function unionOfPlaces(apis: readonly MountedApi[]): CredentialPlaces {
  const places = {
    headers: new Set<string>(),
    query: new Set<string>(),
    cookies: new Set<string>(),
  };
  for (const { credentials } of apis)
    for (const part of ['headers', 'query', 'cookies'] as const)
      for (const name of credentials?.[part] ?? []) places[part].add(name);
  return places;
}
