import type { IncomingMessage, ServerResponse } from 'node:http';
import { adminHandlers } from '../core/admin/handlers.js';
import { DEFAULT_BODY_LIMIT } from './defaults.js';
import { createRequestLog, type RequestLog } from '../core/admin/request-log.js';
import { bearerCheck } from '../core/credentials.js';
import { corsMiddleware, specCorsRules, type CorsOptions } from '../http/cors.js';
import { createBodyReader } from '../http/body.js';
import { createErrorShaper } from '../core/error-shaper.js';
import { silentLogger, type Logger } from '../http/logger.js';
import {
  createPipeline,
  type OperationHandler,
  type PreStep,
  type ServedApi,
} from '../http/pipeline.js';
import { createRequestValidator, type RequestValidator } from '../core/request-validator.js';
import { createRouter } from '../core/router.js';
import { createSender } from '../http/send.js';
import { deprecationHeaders } from '../openapi/deprecation.js';
import { exampleBody } from '../openapi/examples.js';
import { ApiError } from '../vocabulary/errors.js';
import { forcedAnswer } from '../core/scenarios/forced-answer.js';
import {
  DEFAULT_SCENARIO_SETTINGS,
  Scenarios,
  type ScenarioSettings,
} from '../core/scenarios/settings.js';
import { SpecError, type LoadedSpec, type OpenApiDocument } from '../openapi/load.js';
import { isServed, stabilityOf, type StabilityLevel } from '../openapi/stability.js';
import {
  jsonSchemaOf,
  listOperations,
  requiresCredential,
  type Operation,
} from '../openapi/operations.js';
import { createDataGenerator, type DataGenerator } from '../openapi/sample.js';
import { createSchemaCompiler, type SchemaCompiler } from '../openapi/schemas.js';
import { basePathOf } from '../openapi/servers.js';
import { resourceHandlers } from '../core/resources/handlers.js';
import { seedResources } from '../core/resources/seed.js';
import { createMemoryStore } from '../store/memory-store.js';
import { collectionSpecOf, inferResources, type Resource } from '../openapi/resources.js';
import type { Store } from '../store/store.js';

export { DEFAULT_BODY_LIMIT };

export interface AppOptions {
  /** The spec that drives the mock: its routes, schemas, security and deprecations. */
  spec: LoadedSpec;
  /** The accepted bearer keys; at least one. */
  apiKeys: readonly string[];
  /**
   * Where the records of the spec's resources live. The admin reset returns it to its
   * last `markInitial()` (a memory store's `initial` records count as marked).
   * @default an empty in-memory store
   */
  store?: Store;
  /**
   * The admin API's spec (spec/admin.yaml, see `loadAdminSpec`), served at its own base
   * path (`/__mock`). Without it there is no admin API.
   */
  adminSpec?: LoadedSpec;
  /** @default a logger that writes nothing */
  logger?: Logger;
  /**
   * The largest request body in bytes.
   * @default DEFAULT_BODY_LIMIT (1 MiB)
   */
  bodyLimit?: number;
  /**
   * Seed of the data the mock makes up (example answers generated from schemas).
   * @default 1
   */
  seed?: number;
  /**
   * CORS for pages on other origins: any origin by default (echoed back, without
   * credentials); `origins` narrows it to an allow-list and then allows credentials;
   * `false` turns it off.
   * @default {} (any origin)
   * @example { origins: ['http://localhost:5173'] }
   */
  cors?: Pick<CorsOptions, 'origins'> | false;
  /** Steps that run before routing on every request, after CORS. */
  before?: readonly PreStep[];
  /**
   * The log of recent requests the admin API shows.
   * @default a log of the last 1,000 requests
   */
  requestLog?: RequestLog;
  /**
   * Latency and random faults for every answer of the mocked API; the admin API changes
   * them for a run, and its reset restores these.
   * @default DEFAULT_SCENARIO_SETTINGS: no delay, no faults
   * @example { delay: { min: 100, max: 400 }, faultRate: 0.05, faultKinds: ['reset'] }
   */
  scenarios?: Partial<ScenarioSettings> | Scenarios;
  /**
   * How long a `timeout` fault holds its connection, in milliseconds.
   * @default 30000
   */
  faultTimeoutMs?: number;
  /**
   * The least stable operations served: `stable` refuses those marked `x-stability:
   * experimental` or `beta` with a 404 that says why.
   * @default 'experimental' (everything is served)
   */
  stability?: StabilityLevel;
}

/** The mock as a Node request listener, with what was inferred from its spec. */
export interface MockApp {
  (req: IncomingMessage, res: ServerResponse): void;
  /** The collections inferred from the spec, served from the store. */
  readonly resources: readonly Resource[];
  readonly basePath: string;
  /** The scenario settings in force, which the admin API changes. */
  readonly scenarios: Scenarios;
  /**
   * Fills the collections (all, or those named) with `count` records generated from
   * their schemas (see seedResources).
   * @example await app.seed({ count: 10, seed: 1 });
   */
  seed(options: { count: number; seed: number }, only?: readonly string[]): Promise<void>;
  /** Back to the start-up state: the store's data, the scenario settings, an empty request log. */
  reset(): Promise<void>;
  /** The collections holding records that no longer fit their schema (after a spec change). */
  unfitCollections(): Promise<string[]>;
}

/**
 * The mock server as a request listener, not yet listening: give it to
 * `http.createServer`. Every request is checked against the spec, and so is every
 * response: one that breaks the spec becomes a 500.
 * @throws {SpecError} when the spec asks for something the mock cannot serve.
 * @example
 * const app = createApp({ spec: await loadSpec(), apiKeys: ['secret'] });
 * http.createServer(app).listen(0);
 */
export function createApp(options: AppOptions): MockApp {
  const document = options.spec.resolved;
  const operations = listOperations(document);
  const basePath = basePathOf(document);
  const logger = options.logger ?? silentLogger();
  const store = options.store ?? createMemoryStore();
  const requestLog = options.requestLog ?? createRequestLog();
  assertBearerOnly(document, operations);

  const compiler = createSchemaCompiler();
  const generator = createDataGenerator({ seed: options.seed ?? 1, compiler });
  const validator = createRequestValidator(compiler);
  compileEverySchema(operations, compiler, validator);
  const resources = inferResources(operations);
  const stateful = resourceHandlers({ resources, store, compiler, generator, basePath });
  const shapeError = createErrorShaper(compiler, generator);
  const scenarios =
    options.scenarios instanceof Scenarios
      ? options.scenarios
      : new Scenarios({ ...DEFAULT_SCENARIO_SETTINGS, ...options.scenarios }, options.seed ?? 1);
  const reset = async (): Promise<void> => {
    await store.reset();
    scenarios.reset();
    requestLog.clear();
  };
  const minimum = options.stability ?? 'experimental';

  const api = servedApi(document, operations, {
    basePath,
    recorded: true,
    handler: (operation) => stateful.get(operation) ?? exampleHandler(operation, generator),
  });
  api.scenarios = {
    scenarios,
    forced: (operation, preferences) =>
      forcedAnswer(operation, preferences, { generator, shapeError }),
    sample: (operation) => exampleBody(operation, String(operation.successStatus), generator)?.body,
    faultTimeoutMs: options.faultTimeoutMs ?? 30_000,
  };
  api.refuse = (operation) => {
    const level = stabilityOf(operation.definition);
    return isServed(level, minimum)
      ? undefined
      : new ApiError(
          404,
          'not_served',
          `${operation.operationId} is marked x-stability: ${level}, and this mock serves ${minimum} operations and above only (--stability ${minimum})`,
        );
  };
  const apis: ServedApi[] = [api];
  if (options.adminSpec) {
    const adminDocument = options.adminSpec.resolved;
    const adminOperations = listOperations(adminDocument);
    const admin = adminHandlers({ reset, requests: requestLog, scenarios });
    apis.push(
      servedApi(adminDocument, adminOperations, {
        basePath: basePathOf(adminDocument),
        recorded: false,
        handler: (operation) => admin[operation.operationId],
      }),
    );
  }

  const pipeline = createPipeline({
    apis,
    checkCredential: bearerCheck({ keys: options.apiKeys }),
    readBody: createBodyReader({ limit: options.bodyLimit ?? DEFAULT_BODY_LIMIT }),
    validate: validator.check,
    send: createSender(compiler),
    shapeError,
    logger,
    before: [
      // First: every answer, errors included, carries the CORS headers; preflights end here.
      ...(options.cors === false
        ? []
        : [corsMiddleware({ ...options.cors, ...specCorsRules(apis) })]),
      ...(options.before ?? []),
    ],
    onAnswered: (request) => requestLog.add(request),
  });
  return Object.assign(pipeline, {
    resources,
    basePath,
    scenarios,
    reset,
    seed: (seedOptions: { count: number; seed: number }, only?: readonly string[]) =>
      seedResources(
        only ? resources.filter((resource) => only.includes(resource.name)) : resources,
        store,
        { ...seedOptions, compiler },
      ),
    unfitCollections: async () => {
      const unfit: string[] = [];
      for (const resource of resources) {
        const check = compiler.response(resource.schema);
        const records = await store.collection(collectionSpecOf(resource)).list();
        if (records.some((record) => check(record).length > 0)) unfit.push(resource.name);
      }
      return unfit;
    },
  });
}

function servedApi(
  document: OpenApiDocument,
  operations: readonly Operation[],
  options: {
    basePath: string;
    recorded: boolean;
    handler: (operation: Operation) => OperationHandler | undefined;
  },
): ServedApi {
  const handlers = new Map<Operation, OperationHandler>();
  const headers = new Map<Operation, Record<string, string>>();
  for (const operation of operations) {
    const handler = options.handler(operation);
    if (handler) handlers.set(operation, handler);
    const level = stabilityOf(operation.definition);
    headers.set(operation, {
      ...deprecationHeaders(operation.definition),
      ...(level === 'stable' ? {} : { 'X-Stability': level }),
    });
  }
  return {
    basePath: options.basePath,
    router: createRouter(operations),
    unknownNeedsCredential: requiresCredential(document.security ?? []),
    handlers,
    headersOf: (operation) => headers.get(operation) ?? {},
    recorded: options.recorded,
  };
}

/** A stateless operation answers its spec example, or data generated from its schema. */
function exampleHandler(operation: Operation, generator: DataGenerator): OperationHandler {
  const status = operation.successStatus;
  const example = exampleBody(operation, String(status), generator);
  return () =>
    example
      ? {
          status,
          body: example.body,
          headers: { 'Content-Type': `${example.mediaType}; charset=utf-8` },
        }
      : { status };
}

/**
 * Compiles every schema of the spec now, so that one the mock cannot check stops start-up
 * with a line naming its operation, instead of failing that operation's first request.
 */
function compileEverySchema(
  operations: readonly Operation[],
  compiler: SchemaCompiler,
  validator: RequestValidator,
): void {
  for (const operation of operations) {
    try {
      validator.prepare(operation);
      for (const response of Object.values(operation.responses)) {
        const schema = jsonSchemaOf(response);
        if (schema) compiler.response(schema);
      }
    } catch (err) {
      throw new SpecError(
        `a schema of ${operation.operationId} cannot be compiled: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
}

/** The mock enforces bearer keys only; any other scheme would be silently left open. */
function assertBearerOnly(document: OpenApiDocument, operations: readonly Operation[]): void {
  const schemes = document.components?.securitySchemes ?? {};
  const used = new Set(
    operations.flatMap((op) => op.security.flatMap((requirement) => Object.keys(requirement))),
  );
  for (const name of used) {
    const scheme = schemes[name] as { type?: string; scheme?: string } | undefined;
    if (scheme?.type !== 'http' || scheme.scheme?.toLowerCase() !== 'bearer') {
      throw new SpecError(
        `security scheme "${name}" is not HTTP bearer, the only scheme the mock enforces`,
      );
    }
  }
}
