// The mock, composed from a read spec: the one object every adapter (the Node listener, the
// express mount, startMock, MSW, a Fetch caller) takes.
import type { LoadedSpec } from '../openapi/load.js';
import { SpecError } from '../openapi/load.js';
import { documentErrorResponses } from '../openapi/error-responses.js';
import { createExampleSource } from '../openapi/examples.js';
import { answerSchemasOf, listOperations, type Operation } from '../openapi/operations.js';
import { schemasReached } from '../openapi/schema-trees.js';
import { inferResources, type Resource } from '../openapi/resources.js';
import { createDataGenerator, type DataGenerator } from '../openapi/sample.js';
import {
  createSchemaCompiler,
  type SchemaCompiler,
  type SchemaCompilerOptions,
} from '../openapi/schemas.js';
import { securitySchemesOf } from '../openapi/security-schemes.js';
import { basePathOf } from '../openapi/servers.js';
import { meetsStability, stabilityOf, type StabilityLevel } from '../openapi/stability.js';
import { createMemoryStore } from '../store/memory-store.js';
import { isReseedable, type RecordId, type Store } from '../store/store.js';
import { stateBackend } from '../store/with-local-side-data.js';
import { plainAnswer, type FaultKind } from '../vocabulary/answer.js';
import { errors, startupErrors } from '../vocabulary/error-catalogue.js';
import { keyIn } from '../vocabulary/record.js';
import { partsOf } from './admin/collection-parts.js';
import { tallied, type Coverage } from './admin/coverage.js';
import { adminHandlers } from './admin/handlers.js';
import { credentialPlaces } from './admin/redact.js';
import { everyKey, settleCredentials, type AcceptedCredentials } from './accepted-credentials.js';
import { withIdempotencyKeys } from './idempotency.js';
import { createErrorShaper } from './error-shaper.js';
import { exampleHandler } from './example-answers.js';
import { requestOf, responseOf } from './fetch-adapter.js';
import type { CustomHandler, OperationHandler } from './handler.js';
import { createMockCore, type MockCore, type Route, type MountedApi } from './mock-core.js';
import { createStreamAnswers } from './streams/stream-answers.js';
import { secretKey } from './outgoing/signature.js';
import {
  createOutgoing,
  type OutgoingRequests,
  type OutgoingSettings,
} from './outgoing/outgoing.js';
import { createAnswerRules } from './proxy/answer-rules.js';
import { createStreamRules } from './proxy/stream-rules.js';
import type { ViolationLog } from './proxy/violations.js';
import { holdsRecordedAnswers, recordedOr } from './recorded-answers.js';
import { createRequestValidator } from './request-validator.js';
import { descriptorOf, resourceHandlers } from './resources/handlers.js';
import { createSeedPool, seedResources } from './resources/seed.js';
import { forcedAnswer } from './scenarios/forced-answer.js';
import { createAnswerChecker, createAnswerHeaders } from './stages/answer.js';
import type { ScenarioSettings } from './scenarios/settings.js';
import { lazySeeding, type LazySeeding, type SeedSettings } from './seeding.js';
import { createSecurityCheck, type SchemeSummary } from './security.js';
import { operationPreparer, serveApi } from './mounted-api.js';
import { createStates, type MockStates } from './state.js';
import { createTurnBudget, type TurnBudget } from './turn-budget.js';
import { startPrecompile, precompileSteps, type Precompile } from './precompile.js';
import { EAGER_CHECK_BYTES } from './document-size.js';

/** The CPU all lists being checked and sent may take in one turn of the event loop, together. */
const TURN_BUDGET_MS = 4;

/**
 * How long a request may wait for a shared store (Redis), all its calls together. The README
 * promises a 503 within 2 s of a request's arrival when Redis stops answering: the rest is
 * for the answer (the first 503 of an operation shapes its error body, which takes time).
 */
const SHARED_STORE_BUDGET_MS = 1500;

/**
 * How long the mock must have answered nothing before precompiling takes a turn: a test
 * suite's requests come closer together than this, and keep the CPU to themselves.
 */
const QUIET_BEFORE_PRECOMPILE_MS = 100;

/**
 * The same before a long step (a record or an example answer made, up to a few hundred ms):
 * a client that paused for a tenth of a second (a corpus probe preparing its next body, a page
 * rendering) would otherwise often call while one runs, and wait for all of it.
 */
const QUIET_BEFORE_LONG_STEP_MS = 1_000;

/** What the core logs: the spec's defects it lives with, and the errors that become a 5xx. */
interface CoreLogger {
  warn(message: string): void;
  error(details: object, message: string): void;
}

/** Embedded without a logger (MSW in a test, a page), the mock says nothing. */
const QUIET: CoreLogger = { warn: () => undefined, error: () => undefined };

/**
 * The options the core reads, resolved by wiring/ (every default filled in, durations in
 * milliseconds and named so): wiring hands its resolved options over whole, so a field
 * declared here is one of them, of the same name and kind, or the build fails. The core takes
 * no defaults of its own.
 */
export interface MockSettings {
  /** The accepted keys, as given (`scheme=key` for one scheme's). */
  readonly apiKeys: readonly string[];
  /** The accepted basic credentials, `user:password` (or `scheme=user:password`). */
  readonly basic: readonly string[];
  /** Whether the credentials are the defaults (none was given): the summary says so. */
  readonly defaultCredentials: boolean;
  /** The seed of generated records, of generated answers and of faults. */
  readonly seed: number;
  /** The records generated for a collection when a shared store lost its start-up data. */
  readonly seedCount: number;
  /** The delay of every answer, or its range, in milliseconds. */
  readonly delayMs: number | { min: number; max: number };
  /** The share of requests, 0 to 1, that get a fault. */
  readonly faultRate: number;
  /** The faults drawn from. */
  readonly faultKinds: readonly FaultKind[];
  /** How long a `timeout` fault holds the connection. */
  readonly faultTimeoutMs: number;
  /** The most sessions at once. */
  readonly maxSessions: number;
  /** A session unused this long is dropped to make room for a new one. */
  readonly sessionTtlMs: number;
  /** The most requests, and bytes, the request logs of every state hold together. */
  readonly maxLogEntries: number;
  readonly maxLogSize: number;
  /** The least stability served; an operation below it is refused. */
  readonly stability: StabilityLevel;
  /** The user's handlers, by operationId (each gets the inferred one as `next()`). */
  readonly handlers: Readonly<Record<string, CustomHandler>>;
  /**
   * Whether a document too large to check whole at start-up (EAGER_CHECK_BYTES) has its
   * operations compiled, its example answers made and its collections seeded in the
   * background after start-up, one step per turn of the event loop and never while a request
   * is served, so that an operation's first call does not pay for them.
   */
  readonly precompile: boolean;
  /** The hosts a callback may go to; `*`: any. */
  readonly callbackHosts: readonly string[];
  /** The receivers every webhook goes to. */
  readonly webhookUrls: readonly string[];
  /** The `whsec_` secret webhooks are signed with; none: unsigned. */
  readonly webhookSecret: string | undefined;
  /** Where the core's warnings and 5xx errors go; none: silence. */
  readonly logger: CoreLogger | undefined;
}

/** What a mock is built with besides the options: what its caller opened or chose. */
export interface MockParts {
  /** @default a new memory store */
  store?: Store | undefined;
  /**
   * Whether every collection is seeded on its first use, whatever the document's size: a caller
   * that cannot wait for seeding (createApp, synchronous) defers it with `seed()` this way.
   * @default false: only a document too large to check whole at start-up
   */
  seedOnFirstUse?: boolean | undefined;
  /**
   * The admin API's spec (spec/admin.yaml), served at its own base path (`/__mock`).
   * @default none: no admin API
   */
  adminSpec?: LoadedSpec | undefined;
  /**
   * Serve as a proxy's core (`petstore-kit proxy`): credentials are checked for their presence
   * and place only (their value is the target's to judge), and the admin API lists the
   * violations the proxy logs here.
   */
  proxy?: { violations: ViolationLog } | undefined;
  /**
   * The mock of the previous version of the same spec (`--watch`), whose state (store,
   * sessions, request log, scenario settings, seeding) the new one takes over.
   */
  carriedFrom?: Mock | undefined;
  /** How callbacks and webhooks are sent. @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
}

/** What a mock of the next version of a spec takes over from this one (`--watch`). */
interface CarriedState {
  readonly states: MockStates;
  readonly seeding: { inner: Store; lazy: LazySeeding | undefined };
  nestedSeeding(): SeedSettings | undefined;
}

/**
 * The mock: one object, built from a read spec, that answers requests given as plain data
 * (`handle`) or as Fetch requests (`fetch`), and holds what was inferred from the spec and the
 * state it serves. Every adapter takes this object: the Node listener, the express mount,
 * startMock, MSW's handlers.
 * @example
 * const mock = createMock(await loadSpec(), settings);
 * const reply = await mock.handle({ method: 'GET', target: '/v1/categories', headers: { authorization: 'Bearer k' } });
 * const response = await mock.fetch(new Request('http://mock.test/v1/categories'));
 */
export interface Mock extends MockCore {
  /**
   * The answer to a Fetch request, with no socket: CORS and the Host check, which are the
   * HTTP adapter's, do not apply. A network fault is a network error (`Response.error()`).
   * `route` is the request's, when the caller found it already (MSW's predicate), not found again.
   * @example await mock.fetch(new Request('http://mock.test/v1/categories', { headers: { authorization: 'Bearer k' } }))
   */
  fetch(request: Request, route?: Route): Promise<Response>;
  /** The CPU budget per event-loop turn that the lists being checked and sent share. */
  readonly budget: TurnBudget;
  /** Where the admin API is served (`/__mock`), when there is one. */
  readonly adminBasePath: string | undefined;
  /** The collections inferred from the spec, served from the store. */
  readonly resources: readonly Resource[];
  /** The mocked API's base path, from the spec's servers (`/v1`). */
  readonly basePath: string;
  /** Where the records live. */
  readonly store: Store;
  /** The default state and the sessions' (a `Mock-Session` header selects one). */
  readonly states: MockStates;
  /**
   * What each security scheme of the spec accepts, one line per scheme (never a secret the
   * user gave), and what to warn of (a scheme nothing can meet, a key that names no scheme).
   */
  readonly security: readonly SchemeSummary[];
  /**
   * The defects of the spec the mock lives with, one line each, as the logger was called with
   * them: the document's (see LoadedSpec), then those found by checking its operations, at
   * start-up for a small document, as each operation is first called for a large one.
   */
  readonly warnings: readonly string[];
  /**
   * Fills the collections (all, or those named) with `count` records generated from their
   * schemas (see seedResources).
   * @example await mock.seed({ count: 10, seed: 1 });
   */
  seed(options: SeedSettings, only?: readonly string[]): Promise<void>;
  /** Back to the start-up state: the store's data, the scenario settings, an empty request log. */
  reset(): Promise<void>;
  /** The records that no longer fit their collection's schema (after a spec change). */
  unfitRecords(): Promise<UnfitRecords[]>;
  /**
   * The coverage table of every request of every state since the mock started, through every
   * reset: what `GET /__mock/coverage?scope=run` answers.
   */
  runCoverage(): Coverage;
  /** Checks an answer the proxy saw against the spec (see createAnswerRules). */
  readonly answerRules: ReturnType<typeof createAnswerRules>;
  /** Checks a streamed answer the proxy sees pass, item by item (see createStreamRules). */
  readonly streamRules: ReturnType<typeof createStreamRules>;
  /** What the next mock of this one's spec takes over: give this mock as its `carriedFrom`. */
  readonly carried: CarriedState;
  /**
   * The callbacks and webhooks it sends (docs/callbacks-and-webhooks.md); `idle()` settles
   * once all sent so far are answered.
   * @example await mock.outgoing.idle();
   */
  readonly outgoing: OutgoingRequests;
  /**
   * Precompiling in the background for a large document (see `precompile`):
   * undefined for a small one, checked whole at start-up.
   */
  readonly precompiling: Precompile | undefined;
}

/**
 * Builds the mock from a read spec: its router, security check, request validator, scenarios,
 * handlers, error shaper, admin API and state.
 * @param parts what the caller opened or chose: a store, the admin spec, the previous mock (`--watch`).
 * @throws {SpecError} when the spec asks for something the mock cannot serve.
 * @example const mock = createMock(await loadSpec(), settings); await mock.handle(request);
 */
export function createMock(spec: LoadedSpec, settings: MockSettings, parts: MockParts = {}): Mock {
  // Every setting read here, once: what the core reads is what it declares (MockSettings).
  const { seed, seedCount, maxSessions, sessionTtlMs, stability, handlers } = settings;
  const { faultTimeoutMs, precompile, delayMs, faultRate, faultKinds } = settings;
  const scenarios: ScenarioSettings = {
    delay: typeof delayMs === 'number' ? { min: delayMs, max: delayMs } : delayMs,
    faultRate,
    faultKinds: [...faultKinds],
  };
  const logBounds = { entries: settings.maxLogEntries, bytes: settings.maxLogSize };
  const outgoingSettings: OutgoingSettings = {
    callbackHosts: settings.callbackHosts,
    webhookUrls: settings.webhookUrls,
    webhookKey:
      settings.webhookSecret === undefined ? undefined : secretKey(settings.webhookSecret),
    ...(parts.fetch ? { fetch: parts.fetch } : {}),
  };
  const carried = parts.carriedFrom?.carried;
  const document = spec.resolved;
  const operations = listOperations(document);
  const logger: CoreLogger = settings.logger ?? QUIET;
  const schemes = securitySchemesOf(document);
  const { accepted, warnings: credentialWarnings } = settleCredentials(schemes, {
    apiKeys: settings.apiKeys,
    basic: settings.basic,
    defaults: settings.defaultCredentials,
  });
  const security = createSecurityCheck(document, operations, accepted, {
    presenceOnly: parts.proxy !== undefined,
  });

  // A small document is checked whole at start-up, so that its defects are heard of at once;
  // a large one operation by operation, before each one's first request, and its collections
  // are seeded on first use (decisions/009).
  const eager = spec.bytes <= EAGER_CHECK_BYTES;
  // A custom store that holds only records gets the rest of the state backend in this process.
  const given = stateBackend(parts.store ?? createMemoryStore());
  // A store replicas share keeps its sessions' state itself: it is seeded at start-up.
  const lazy = (eager && !parts.seedOnFirstUse) || given.shared ? undefined : lazySeeding(given);
  const states =
    carried?.states ??
    createStates({
      store: lazy?.store ?? given,
      scenarios,
      seed,
      limits: { maxSessions, sessionTtl: sessionTtlMs },
      logBounds,
      ...(isReseedable(given)
        ? {
            async reseed() {
              const seedSettings = { count: seedCount, seed };
              const seeded = await given.reseed(async () => {
                for (const resource of resources) await seedOne(resource, seedSettings, given);
              });
              if (seeded)
                logger.warn(
                  'the start-up data was gone from the store (Redis restarted empty, or was flushed): a reset seeded it again',
                );
            },
          }
        : {}),
    });
  const { store } = states.default;
  const seeding = carried ? carried.seeding : { inner: given, lazy };

  const warnings: string[] = [];
  const warn = (line: string): void => {
    warnings.push(line);
    logger.warn(`${spec.source}: ${line}`);
  };
  for (const line of spec.warnings) warn(line);
  const basePath = basePathOf(document, warn);
  // A large document's checks compile what their values reach, as they reach it: a first call
  // then compiles a few schemas, not the whole graph they belong to.
  const { compiler, generator, shapeError } = answerParts(document, operations, seed, {
    warn,
    lazyRefs: !eager,
  });
  const examples = createExampleSource({ compiler, generator, warn });
  const validator = createRequestValidator(compiler);
  const prepare = operationPreparer({ compiler, examples, warn });
  if (eager) operations.forEach(prepare);
  const resources = inferResources(operations);
  /** Fills one collection of a state; one whose records cannot be made stays empty. */
  const seedOne = (resource: Resource, seedSettings: SeedSettings, into: Store) =>
    seedResources([resource], into, {
      ...seedSettings,
      generator,
      onWarning: (line) => warn(`the ${line}`),
    }).catch((err) => {
      if (!(err instanceof SpecError)) throw err;
      warn(`the ${resource.name} collection is not seeded: ${err.message}`);
    });
  seeding.lazy?.plan({ resources, descriptorOf, seedOne });
  // The seeding in force, which nested collections are seeded with when first asked for.
  let nestedSeeding = carried?.nestedSeeding();
  const seedPool = createSeedPool(generator);
  const stateful = resourceHandlers({
    resources,
    compiler,
    generator,
    seedPool,
    examples,
    basePath,
    seeding: () => nestedSeeding,
    seedOnce: states.seedOnce,
  });
  const example = (operation: Operation) => exampleHandler(operation, examples, compiler);
  // The answers a proxy recorded live in a data file (or a memory store given them); a shared
  // store (Redis) holds none, and asking it would make those answers wait on it.
  const recorded = given.shared ? undefined : holdsRecordedAnswers(given);
  const inferred = (operation: Operation) =>
    stateful.get(operation) ??
    (recorded ? recordedOr(operation, example(operation), compiler, recorded) : example(operation));
  const handlerOf = withIdempotencyKeys(customHandlers(operations, handlers, inferred));
  const minimum = stability;
  const outgoing = createOutgoing({
    document,
    operations,
    resources,
    generator,
    settings: outgoingSettings,
    warn: (line) => (parts.proxy ? undefined : warn(line)),
  });

  const apis: MountedApi[] = [
    serveApi(document, operations, {
      basePath,
      recorded: true,
      credentials: credentialPlaces(schemes),
      schemes,
      checkCredential: security.check,
      handler: handlerOf,
      shapeError,
      scenarios: {
        forced: (operation, preferences) =>
          forcedAnswer(operation, preferences, { examples, shapeError }),
        sample: (operation) => examples.body(operation, String(operation.successStatus))?.body,
        faultTimeoutMs,
      },
      streams: createStreamAnswers(operations, { compiler, generator }),
      refuse(operation) {
        const level = stabilityOf(operation.definition);
        return meetsStability(level, minimum)
          ? undefined
          : errors.notServed(operation.operationId, level, minimum);
      },
    }),
  ];
  const summary: SchemeSummary[] = [
    ...security.summary,
    ...credentialWarnings.map((line) => ({ line, warning: true })),
  ];
  let adminBasePath: string | undefined;
  if (parts.adminSpec) {
    const byName = new Map(resources.map((resource) => [resource.name, resource]));
    const admin = adminApi(
      parts.adminSpec,
      seed,
      { ...accepted, keys: everyKey(accepted, schemes), basic: [], byScheme: new Map() },
      adminHandlers(
        states,
        resources.map((resource) => ({
          name: resource.name,
          path: `${basePath}${resource.collectionPath}`,
          nested: resource.scope.length > 0,
          parts: (store: Store) => partsOf(resource, byName, store, basePath),
        })),
        { operations, basePath, schemes },
        parts.proxy?.violations,
        outgoing.webhooks,
      ),
    );
    apis.push(admin.api);
    adminBasePath = admin.api.basePath;
    if (admin.locked)
      summary.push({
        line: `the admin API (${admin.api.basePath}) takes an API key, and none was given: it refuses every request`,
        warning: true,
      });
  }

  const budget = createTurnBudget(TURN_BUDGET_MS);
  const core = createMockCore({
    apis,
    validate: eager
      ? validator.check
      : (operation, input) => {
          prepare(operation);
          return validator.check(operation, input);
        },
    checkAnswer: withDocumentedHeaders(createAnswerChecker(compiler, budget), generator),
    states,
    ...(given.shared ? { storeBudgetMs: SHARED_STORE_BUDGET_MS } : {}),
    // A proxy's target sends its own callbacks and webhooks.
    ...(outgoing.active && !parts.proxy ? { onAnswered: outgoing.afterAnswer } : {}),
    onServerError: (err, request) =>
      logger.error(
        { err, method: request.method, path: request.target },
        err instanceof Error ? err.message : String(err),
      ),
  });

  // Requests come first: precompiling waits while any is being served, and for a moment
  // after, since a client that has just been answered usually sends its next request at once.
  let serving = 0;
  let lastAnswered = -Infinity;
  const done = (): void => {
    serving--;
    lastAnswered = performance.now();
  };
  /** Whether precompiling may still ask if requests are served: once it is over, none is counted. */
  let counting = true;
  // `then`, not an async function: no suspended frame and no extra turn per request.
  const handle: MockCore['handle'] = (...args) => {
    if (!counting) return core.handle(...args);
    serving++;
    try {
      return core.handle(...args).then(
        (reply) => (done(), reply),
        (err: unknown) => {
          done();
          throw err;
        },
      );
    } catch (err) {
      done();
      return Promise.reject(err as Error);
    }
  };
  const precompiling =
    eager || !precompile
      ? undefined
      : startPrecompile(
          precompileSteps({
            operations,
            prepare,
            example: (operation) => {
              if (!stateful.get(operation))
                examples.body(operation, String(operation.successStatus));
            },
            resources,
            seedOf: (resource) => {
              // A nested collection's records, made once for the first list under any parent.
              if (resource.scope.length === 0)
                return store.collection(descriptorOf(resource)).list();
              if (nestedSeeding && nestedSeeding.count > 0)
                try {
                  seedPool.fieldsOf(resource, nestedSeeding);
                } catch {
                  // Reported to the request that meets it: the collection starts empty.
                }
              return undefined;
            },
            recordSchemas: resources.flatMap((resource) => [
              resource.schema,
              ...(resource.variants ?? []),
            ]),
            namedSchemas: () =>
              schemasReached(
                operations.flatMap(answerSchemasOf),
                Object.values(document.components?.schemas ?? {}),
              ),
            compileNamed: (schema) => {
              try {
                compiler.prepare('response', schema);
              } catch (err) {
                // Warned of once: an answer whose schema it is has warned of it already.
                const reason = err instanceof Error ? err.message : String(err);
                if (!warnings.some((line) => line.includes(reason))) warn(reason);
              }
            },
          }),
          {
            busy: (long) =>
              serving > 0 ||
              performance.now() - lastAnswered <
                (long ? QUIET_BEFORE_LONG_STEP_MS : QUIET_BEFORE_PRECOMPILE_MS),
          },
        );
  if (precompiling) void precompiling.done.then(() => (counting = false));
  else counting = false;

  return {
    route: core.route,
    handle,
    errorAnswer: core.errorAnswer,
    inspect: core.inspect,
    pipeline: core.pipeline,
    shownTarget: core.shownTarget,
    async fetch(request, route) {
      const plain = await requestOf(request);
      const reply = await handle(plain, route ?? core.route(plain.method, plain.target));
      return responseOf(reply, request.method);
    },
    budget,
    adminBasePath,
    resources,
    basePath,
    store,
    states,
    security: summary,
    reset: () => states.reset(states.default),
    warnings,
    async seed(seedOptions, only) {
      nestedSeeding = { count: seedOptions.count, seed: seedOptions.seed };
      if (!only && seeding.lazy) return seeding.lazy.defer(seedOptions);
      for (const resource of resources)
        if (!only || only.includes(resource.name))
          await seedOne(resource, seedOptions, seeding.inner);
    },
    unfitRecords: () => unfitRecords(resources, store, compiler),
    runCoverage: () => tallied(operations, basePath, schemes, states.run),
    answerRules: createAnswerRules(compiler, resources),
    streamRules: createStreamRules(compiler),
    carried: { states, seeding, nestedSeeding: () => nestedSeeding },
    outgoing,
    precompiling,
  };
}

/**
 * The admin API (`/__mock`), served beside the mocked one from its own spec, with every key
 * the mocked API accepts; `locked` when no key was given (only basic credentials).
 */
function adminApi(
  spec: LoadedSpec,
  seed: number,
  accepted: AcceptedCredentials,
  handlers: ReturnType<typeof adminHandlers>,
): { api: MountedApi; locked: boolean } {
  const document = spec.resolved;
  const operations = listOperations(document);
  const api = serveApi(document, operations, {
    basePath: basePathOf(document),
    recorded: false,
    checkCredential: createSecurityCheck(document, operations, accepted).check,
    handler: (operation) => handlers[operation.operationId],
    shapeError: answerParts(document, operations, seed).shapeError,
  });
  return { api, locked: accepted.keys.length === 0 };
}

/**
 * What makes the values and the errors of one mounted API (the mocked one, the admin one): its
 * schema compiler, its value maker, and its error shaper.
 */
function answerParts(
  document: LoadedSpec['resolved'],
  operations: readonly Operation[],
  seed: number,
  compiling?: SchemaCompilerOptions,
): { compiler: SchemaCompiler; generator: DataGenerator; shapeError: MountedApi['shapeError'] } {
  const compiler = createSchemaCompiler(document, compiling);
  const generator = createDataGenerator({ seed, compiler });
  const shapeError = createErrorShaper(compiler, generator, documentErrorResponses(operations));
  return { compiler, generator, shapeError };
}

/**
 * The handler of each operation: the user's, by operationId, where one is given (with the
 * inferred one as its `next`), else the inferred one.
 * @throws {StartupError} `invalid_option` for a handler whose operationId the spec does not have.
 */
function customHandlers(
  operations: readonly Operation[],
  custom: Readonly<Record<string, CustomHandler>>,
  inferred: (operation: Operation) => OperationHandler,
): (operation: Operation) => OperationHandler {
  const known = new Set(operations.map((operation) => operation.operationId));
  for (const operationId of Object.keys(custom)) {
    if (!known.has(operationId))
      throw startupErrors.invalidOption(
        'handlers',
        `the spec has no operation "${operationId}" (it has: ${[...known].join(', ')})`,
      );
  }
  return (operation) => {
    const own = custom[operation.operationId];
    const fallback = inferred(operation);
    if (!own) return fallback;
    return (request, context) =>
      own(request, {
        ...context,
        next: async () => plainAnswer(await fallback(request, context)),
      });
  };
}

/** The records of one collection that no longer fit its schema. */
export interface UnfitRecords {
  collection: string;
  ids: RecordId[];
  /** Why the first of them does not fit. */
  problem: string;
}

async function unfitRecords(
  resources: readonly Resource[],
  store: Store,
  compiler: SchemaCompiler,
): Promise<UnfitRecords[]> {
  const unfit: UnfitRecords[] = [];
  for (const resource of resources) {
    const check = compiler.response(resource.schema);
    const ids: RecordId[] = [];
    let problem = '';
    for (const record of await store.collection(descriptorOf(resource)).list()) {
      const problems = check(record);
      if (problems.length === 0) continue;
      ids.push(keyIn(record, resource) as RecordId);
      problem ||= problems[0] ?? '';
    }
    if (ids.length > 0) unfit.push({ collection: resource.name, ids, problem });
  }
  return unfit;
}

/**
 * Unfit records in one line: how many, where, which ids (the first few) and why.
 * @example describeUnfit(unfit) // '2 records of categories (ids 11, 12: /name must NOT have more than 20 characters)'
 */
export function describeUnfit(unfit: readonly UnfitRecords[]): string {
  return unfit
    .map(({ collection, ids, problem }) => {
      const shown = ids.slice(0, 5).map((id) => JSON.stringify(id));
      const more = ids.length > shown.length ? `, and ${ids.length - shown.length} more` : '';
      return `${ids.length} record${ids.length === 1 ? '' : 's'} of ${collection} (${ids.length === 1 ? 'id' : 'ids'} ${shown.join(', ')}${more}: ${problem})`;
    })
    .join('; ');
}

/** The answer check, given answers with the headers their responses require filled in first. */
function withDocumentedHeaders(
  check: ReturnType<typeof createAnswerChecker>,
  generator: DataGenerator,
): ReturnType<typeof createAnswerChecker> {
  const withHeaders = createAnswerHeaders(generator);
  return (operation, answer, base) => check(operation, withHeaders(operation, answer), base);
}
