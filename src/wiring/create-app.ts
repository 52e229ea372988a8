import { adminHandlers } from '../core/admin/handlers.js';
import { createRequestLog, type RequestLog } from '../core/admin/request-log.js';
import { createAnswerChecker } from '../core/answer-check.js';
import { createErrorShaper } from '../core/error-shaper.js';
import { exampleHandler } from '../core/example-answers.js';
import type { OperationHandler } from '../core/handler.js';
import { createMockCore, type ServedApi } from '../core/mock-core.js';
import { createRequestValidator } from '../core/request-validator.js';
import { descriptorOf, resourceHandlers } from '../core/resources/handlers.js';
import { seedResources } from '../core/resources/seed.js';
import { forcedAnswer } from '../core/scenarios/forced-answer.js';
import { Scenarios } from '../core/scenarios/settings.js';
import {
  everyKey,
  settleCredentials,
  type AcceptedCredentials,
} from '../core/accepted-credentials.js';
import { createSecurityCheck, type SchemeSummary } from '../core/security.js';
import { compileEverySchema, serveApi } from '../core/served-api.js';
import { createTurnBudget } from '../core/turn-budget.js';
import { createBodyReader } from '../http/body.js';
import { corsMiddleware } from '../http/cors.js';
import { createListener, type MockListener } from '../http/listener.js';
import { requestLines, silentLogger } from '../http/logger.js';
import { documentErrorResponses } from '../openapi/error-responses.js';
import { exampleBody } from '../openapi/examples.js';
import type { LoadedSpec } from '../openapi/load.js';
import { SpecError } from '../openapi/load.js';
import { listOperations, type Operation } from '../openapi/operations.js';
import type { Resource } from '../openapi/resources.js';
import { inferResources } from '../openapi/resources.js';
import { createDataGenerator, type DataGenerator } from '../openapi/sample.js';
import { createSchemaCompiler, type SchemaCompiler } from '../openapi/schemas.js';
import { securitySchemesOf } from '../openapi/security-schemes.js';
import { basePathOf } from '../openapi/servers.js';
import { isServed, stabilityOf } from '../openapi/stability.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { RecordId, Store } from '../store/store.js';
import { plainAnswer } from '../vocabulary/answer.js';
import { errors } from '../vocabulary/error-catalogue.js';
import { resolveOptions, type CustomHandler, type MockOptions } from './options.js';

/** The CPU all lists being checked and sent may take in one turn of the event loop, together. */
const TURN_BUDGET_MS = 4;

/** The options of createApp: the mock's options, with a spec already loaded. */
export interface AppOptions extends Pick<
  MockOptions,
  | 'apiKeys'
  | 'basic'
  | 'store'
  | 'logger'
  | 'bodyLimit'
  | 'seed'
  | 'cors'
  | 'scenarios'
  | 'faultTimeoutMs'
  | 'stability'
  | 'handlers'
> {
  /** The spec that drives the mock: its routes, schemas, security and deprecations. */
  spec: LoadedSpec;
  /**
   * The admin API's spec (spec/admin.yaml, `loadSpec(ADMIN_SPEC_PATH)`), served at its own
   * base path (`/__mock`). Without it there is no admin API.
   */
  adminSpec?: LoadedSpec;
}

/** The mock as a Node request listener, with what was inferred from its spec and its state. */
export interface MockApp extends MockListener {
  /** The collections inferred from the spec, served from the store. */
  readonly resources: readonly Resource[];
  readonly basePath: string;
  /** Where the records live. */
  readonly store: Store;
  /** The scenario settings in force, which the admin API changes. */
  readonly scenarios: Scenarios;
  /** The recent requests the admin API shows. */
  readonly requestLog: RequestLog;
  /**
   * What each security scheme of the spec accepts, one line per scheme (never a secret the
   * user gave), and what to warn of (a scheme nothing can meet, a key that names no scheme).
   */
  readonly security: readonly SchemeSummary[];
  /**
   * Fills the collections (all, or those named) with `count` records generated from
   * their schemas (see seedResources).
   * @example await app.seed({ count: 10, seed: 1 });
   */
  seed(options: { count: number; seed: number }, only?: readonly string[]): Promise<void>;
  /** Back to the start-up state: the store's data, the scenario settings, an empty request log. */
  reset(): Promise<void>;
  /** The records that no longer fit their collection's schema (after a spec change). */
  unfitRecords(): Promise<UnfitRecords[]>;
}

/**
 * The mock server as a request listener, not yet listening: give it to
 * `http.createServer`, or to `createMockServer` for the HTTP layer's bounds. Every request is
 * checked against the spec, and so is every response: one that breaks the spec becomes a 500.
 * @param carried an app of the same mock whose state (store, request log, scenario settings)
 * the new one takes over: `--watch` makes one per version of the spec.
 * @throws {SpecError} when the spec asks for something the mock cannot serve.
 * @example
 * const app = createApp({ spec: await loadSpec(), apiKeys: ['secret'] });
 * http.createServer(app).listen(0);
 */
export function createApp(options: AppOptions, carried?: MockApp): MockApp {
  const settings = resolveOptions(options);
  const document = options.spec.resolved;
  const operations = listOperations(document);
  const basePath = basePathOf(document);
  const logger = settings.logger ?? silentLogger();
  const schemes = securitySchemesOf(document);
  const { accepted, warnings } = settleCredentials(schemes, {
    apiKeys: settings.apiKeys,
    basic: settings.basic,
    defaults: settings.defaultCredentials,
  });
  const security = createSecurityCheck(document, operations, accepted);

  const store = carried?.store ?? options.store ?? createMemoryStore();
  const requestLog = carried?.requestLog ?? createRequestLog();
  const scenarios = carried?.scenarios ?? new Scenarios(settings.scenarios, settings.seed);
  const reset = async (): Promise<void> => {
    await store.reset();
    scenarios.reset();
    requestLog.clear();
  };

  const compiler = createSchemaCompiler();
  const generator = createDataGenerator({ seed: settings.seed, compiler });
  const validator = createRequestValidator(compiler);
  compileEverySchema(operations, compiler, validator);
  const resources = inferResources(operations);
  // The seeding in force, which nested collections are seeded with when first asked for.
  let seeding = carried ? seedingsOf.get(carried)?.() : undefined;
  const stateful = resourceHandlers({
    resources,
    compiler,
    generator,
    basePath,
    seeding: () => seeding,
  });
  const inferred = (operation: Operation) =>
    stateful.get(operation) ?? exampleHandler(operation, generator);
  const handlerOf = customHandlers(operations, settings.handlers, inferred);
  const shapeError = createErrorShaper(compiler, generator, documentErrorResponses(operations));
  const minimum = settings.stability;

  const apis: ServedApi[] = [
    serveApi(document, operations, {
      basePath,
      recorded: true,
      checkCredential: security.check,
      handler: handlerOf,
      shapeError,
      scenarios: {
        scenarios,
        forced: (operation, preferences) =>
          forcedAnswer(operation, preferences, { generator, shapeError }),
        sample: (operation) =>
          exampleBody(operation, String(operation.successStatus), generator)?.body,
        faultTimeoutMs: settings.faultTimeoutMs,
      },
      refuse(operation) {
        const level = stabilityOf(operation.definition);
        return isServed(level, minimum)
          ? undefined
          : errors.notServed(operation.operationId, level, minimum);
      },
    }),
  ];
  const summary: SchemeSummary[] = [
    ...security.summary,
    ...warnings.map((line) => ({ line, warning: true })),
  ];
  if (options.adminSpec) {
    const admin = adminApi(
      options.adminSpec,
      settings.seed,
      { ...accepted, keys: everyKey(accepted, schemes), basic: [], byScheme: new Map() },
      { reset, requests: requestLog, scenarios },
    );
    apis.push(admin.api);
    if (admin.locked)
      summary.push({
        line: `the admin API (${admin.api.basePath}) takes an API key, and none was given: it refuses every request`,
        warning: true,
      });
  }

  const budget = createTurnBudget(TURN_BUDGET_MS);
  const core = createMockCore({
    apis,
    validate: validator.check,
    checkAnswer: createAnswerChecker(compiler, budget),
    context: { store },
    requestLog,
    onServerError: (err, request) =>
      logger.error(
        { err, method: request.method, path: request.target },
        err instanceof Error ? err.message : String(err),
      ),
  });
  const listener = createListener({
    core,
    readBody: createBodyReader({ limit: settings.bodyLimit }),
    ...(settings.cors === false ? {} : { cors: corsMiddleware(settings.cors) }),
    budget,
    sendTimeoutMs: settings.limits.sendTimeout,
    ...(settings.logRequests ? { onAnswered: requestLines(logger) } : {}),
  });

  const app: MockApp = Object.assign(listener, {
    resources,
    basePath,
    store,
    scenarios,
    requestLog,
    security: summary,
    reset,
    seed: (seedOptions: { count: number; seed: number }, only?: readonly string[]) => {
      seeding = { count: seedOptions.count, seed: seedOptions.seed };
      return seedResources(
        only ? resources.filter((resource) => only.includes(resource.name)) : resources,
        store,
        { ...seedOptions, compiler, onWarning: (line) => logger.warn(line) },
      );
    },
    unfitRecords: () => unfitRecords(resources, store, compiler),
  });
  seedingsOf.set(app, () => seeding);
  return app;
}

/** The seeding each app is under, for the app of the next version of the spec (`--watch`). */
const seedingsOf = new WeakMap<MockApp, () => { count: number; seed: number } | undefined>();

/**
 * The admin API (`/__mock`), served beside the mocked one from its own spec, with every key
 * the mocked API accepts; `locked` when no key was given (only basic credentials).
 */
function adminApi(
  spec: LoadedSpec,
  seed: number,
  accepted: AcceptedCredentials,
  state: Parameters<typeof adminHandlers>[0],
): { api: ServedApi; locked: boolean } {
  const document = spec.resolved;
  const operations = listOperations(document);
  const compiler = createSchemaCompiler();
  const generator: DataGenerator = createDataGenerator({ seed, compiler });
  const handlers = adminHandlers(state);
  const api = serveApi(document, operations, {
    basePath: basePathOf(document),
    recorded: false,
    checkCredential: createSecurityCheck(document, operations, accepted).check,
    handler: (operation) => handlers[operation.operationId],
    shapeError: createErrorShaper(compiler, generator, documentErrorResponses(operations)),
  });
  return { api, locked: accepted.keys.length === 0 };
}

/**
 * The handler of each operation: the user's, by operationId, where one is given (with the
 * inferred one as its `next`), else the inferred one.
 * @throws {SpecError} for a handler whose operationId the spec does not have.
 */
function customHandlers(
  operations: readonly Operation[],
  custom: Readonly<Record<string, CustomHandler>>,
  inferred: (operation: Operation) => OperationHandler,
): (operation: Operation) => OperationHandler {
  const known = new Set(operations.map((operation) => operation.operationId));
  for (const operationId of Object.keys(custom)) {
    if (!known.has(operationId))
      throw new SpecError(
        `handlers: the spec has no operation "${operationId}" (it has: ${[...known].join(', ')})`,
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
      ids.push(record[resource.idProperty] as RecordId);
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
