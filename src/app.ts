import express, { type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { bearerAuth } from './http/auth.js';
import { categoryHandlers, type OperationHandler } from './state/category-handlers.js';
import {
  CheckedJson,
  createRecordSerializers,
  type RecordSerializer,
} from './http/checked-json.js';
import { deprecationHeaders } from './spec/deprecation.js';
import { ApiError, errorHandler, notFound } from './http/errors.js';
import { exampleBody } from './spec/examples.js';
import { requestLogger, silentLogger, type Logger } from './http/logger.js';
import {
  listOperations,
  operationFinder,
  requiresCredential,
  type Operation,
} from './spec/operations.js';
import { composeMiddleware } from './http/pipeline.js';
import { corsMiddleware, specCorsRules, type CorsOptions } from './http/cors.js';
import { createSchemaCompiler } from './spec/schemas.js';
import { basePathOf } from './spec/servers.js';
import {
  SpecError,
  type LoadedSpec,
  type OpenApiDocument,
  type SchemaObject,
} from './spec/load.js';
import { createMemoryStore, type CategoryStore } from './state/store.js';

/** 1 MiB: the largest request body the mock reads; a larger one gets 413. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  /** The spec that drives the mock: its routes, schemas, security and deprecations. */
  spec: LoadedSpec;
  /** The accepted bearer keys; at least one. */
  apiKeys: readonly string[];
  /**
   * Where categories live.
   * @default an empty in-memory store
   */
  store?: CategoryStore;
  /** @default a logger that writes nothing */
  logger?: Logger;
  /**
   * Log one line per request.
   * @default true
   */
  logRequests?: boolean;
  /**
   * The largest request body in bytes.
   * @default DEFAULT_BODY_LIMIT (1 MiB)
   */
  bodyLimit?: number;
  /**
   * Cross-origin access for pages on other origins, on by default; `false` turns it off.
   * @default {} (any origin, without credentials)
   * @example { origins: ['http://localhost:5173'] } // only that origin, with credentials
   */
  cors?: Pick<CorsOptions, 'origins'> | false;
}

/**
 * The mock server as an express app, not yet listening. Every request is checked against
 * the spec, and so is every response: one that breaks the spec becomes a 500.
 * @throws {SpecError} when the spec asks for something the mock cannot serve.
 * @example
 * const app = createApp({ spec: await loadSpec(), apiKeys: ['secret'], store: createMemoryStore() });
 * app.listen(0);
 */
export function createApp(options: AppOptions): Express {
  const document = options.spec.resolved;
  const operations = listOperations(document);
  const basePath = basePathOf(document);
  const logger = options.logger ?? silentLogger();
  assertBearerOnly(document, operations);

  const answers = operationAnswers(operations, options.store ?? createMemoryStore());
  const findOperation = operationFinder(operations);
  /** The operation a request is for, from its path below the base path. */
  const operationOf = (method: string, path: string): Operation | undefined => {
    const below = belowBasePath(basePath, path);
    return below === undefined ? undefined : findOperation(method, below);
  };
  const unknownNeedsCredential = requiresCredential(document.security ?? []);

  const app = express();
  app.disable('x-powered-by');
  // Paths are case-sensitive in the spec; /v1/CATEGORIES is not /v1/categories.
  app.set('case sensitive routing', true);
  // The interface has no conditional requests; an ETag would hash every list for nothing.
  app.set('etag', false);

  if (options.logRequests ?? true) app.use(requestLogger(logger));
  const cors =
    options.cors === false
      ? []
      : [
          corsMiddleware({
            ...options.cors,
            ...specCorsRules(operations, (path) => belowBasePath(basePath, path)),
          }),
        ];
  app.use(
    composeMiddleware([
      // First: every answer, errors included, carries the CORS headers; preflights end here.
      ...cors,
      // Before the body is read: a bad credential gets 401 whatever the body holds.
      bearerAuth({
        keys: options.apiKeys,
        isProtected: (method, path) => {
          const below = belowBasePath(basePath, path);
          if (below === undefined) return false;
          return findOperation(method, below)?.requiresCredential ?? unknownNeedsCredential;
        },
      }),
      express.json({ limit: options.bodyLimit ?? DEFAULT_BODY_LIMIT }),
      ...OpenApiValidator.middleware({
        // The validator rewrites parts of the document it is given.
        apiSpec: structuredClone(options.spec.document) as never,
        validateApiSpec: false, // loadSpec has checked it, at start-up rather than on the first request
        validateRequests: { allErrors: true },
        // Stateful operations answer CheckedJson, checked when their records were first
        // served (checked-json.ts); every other response is checked here.
        validateResponses: { onError: rejectInvalidResponse },
        validateSecurity: false, // bearerAuth checks keys, not only their presence
        fileUploader: false, // the interface has no multipart bodies: one step less per request
      }),
      // Handlers keyed by operation, as the spec lists them; no second route table.
      function serveOperation(req, res, next) {
        const operation = operationOf(req.method, req.path);
        const answer = operation && answers.get(operation);
        if (!answer) return next();
        answer(req, res, next);
      },
    ]),
  );
  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}

/** How each operation answers: its stateful handler, else its spec example. */
function operationAnswers(
  operations: readonly Operation[],
  store: CategoryStore,
): Map<Operation, RequestHandler> {
  const serializerFor = createRecordSerializers(createSchemaCompiler());
  const serializer = (operationId: string, part: 'whole' | 'items'): RecordSerializer => {
    const schema = successSchemaOf(operations, operationId);
    const items = (schema as { items?: SchemaObject } | undefined)?.items;
    return serializerFor((part === 'items' ? items : schema) ?? {});
  };
  const handlers = categoryHandlers(store, {
    listItem: serializer('listCategories', 'items'),
    created: serializer('createCategory', 'whole'),
  });
  return new Map(
    operations.map((operation) => [
      operation,
      respond(operation, handlers[operation.operationId] ?? constant(exampleBody(operation))),
    ]),
  );
}

function respond(operation: Operation, answer: OperationHandler): RequestHandler {
  const headers = deprecationHeaders(operation.definition);
  return function answerOperation(req, res) {
    const body = answer(req);
    res.status(operation.successStatus).set(headers);
    if (body instanceof CheckedJson) {
      // setHeader, not res.type(): no media-type lookup on every answer.
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.send(body.bytes);
    } else if (body === undefined) res.end();
    else res.json(body);
  };
}

function constant(body: unknown): OperationHandler {
  return () => body;
}

/** The path below the base path (`/v1/categories` -> `/categories`), or undefined outside it. */
function belowBasePath(basePath: string, path: string): string | undefined {
  if (basePath === '') return path;
  if (path === basePath) return '/';
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : undefined;
}

/** Thrown from the validator's hook, it reaches errorHandler instead of the invalid body reaching the client. */
function rejectInvalidResponse(err: {
  errors?: { path?: string; message: string }[];
  message: string;
}): never {
  const details =
    err.errors?.map((e) => `${e.path ?? ''} ${e.message}`.trim()).join('; ') || err.message;
  throw new ApiError(500, 'invalid_response', `The mock's response breaks the spec: ${details}`);
}

/** The JSON schema of an operation's success response, from the spec. */
function successSchemaOf(
  operations: readonly Operation[],
  operationId: string,
): SchemaObject | undefined {
  const operation = operations.find((op) => op.operationId === operationId);
  const response = operation?.definition.responses?.[String(operation.successStatus)] as
    { content?: Record<string, { schema?: SchemaObject }> } | undefined;
  return response?.content?.['application/json']?.schema;
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
