import express, { type Express, type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { bearerAuth } from './auth.js';
import { categoryHandlers, type OperationHandler } from './category-handlers.js';
import { deprecationHeaders } from './deprecation.js';
import { ApiError, errorHandler, notFound } from './errors.js';
import { exampleBody } from './example-response.js';
import { requestLogger, silentLogger, type Logger } from './logger.js';
import { listOperations, matchPath, type Operation } from './operations.js';
import { basePathOf } from './servers.js';
import { SpecError, type LoadedSpec, type OpenApiDocument } from './spec.js';
import { createMemoryStore, type CategoryStore } from './store.js';

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
}

/**
 * The mock server as an express app, not yet listening. Every request is checked
 * against the spec, and so is every response: one that breaks the spec becomes a 500.
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
  const handlers = categoryHandlers(options.store ?? createMemoryStore());
  assertBearerOnly(document, operations);

  const app = express();
  app.disable('x-powered-by');
  // Paths are case-sensitive in the spec; /v1/CATEGORIES is not /v1/categories.
  app.set('case sensitive routing', true);
  // The interface has no conditional requests; an ETag would hash every list for nothing.
  app.set('etag', false);

  if (options.logRequests ?? true) app.use(requestLogger(logger));
  // Before the body is read: a bad credential gets 401 whatever the body holds.
  app.use(
    basePath || '/',
    bearerAuth({
      keys: options.apiKeys,
      isProtected: (method, path) => needsCredential(operations, document, method, path),
    }),
  );
  app.use(express.json({ limit: options.bodyLimit ?? DEFAULT_BODY_LIMIT }));
  app.use(
    OpenApiValidator.middleware({
      // The validator rewrites parts of the document it is given.
      apiSpec: structuredClone(options.spec.document) as never,
      validateApiSpec: false, // loadSpec has checked it, at start-up rather than on the first request
      validateRequests: { allErrors: true },
      validateResponses: { onError: rejectInvalidResponse },
      validateSecurity: false, // bearerAuth checks keys, not only their presence
    }),
  );

  for (const operation of operations) {
    const answer = handlers[operation.operationId] ?? constant(exampleBody(operation));
    app[operation.method](basePath + operation.expressPath, respond(operation, answer));
  }

  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}

function respond(operation: Operation, answer: OperationHandler) {
  const headers = deprecationHeaders(operation.definition);
  return function serveOperation(req: Request, res: Response) {
    const body = answer(req);
    res.status(operation.successStatus).set(headers);
    if (body === undefined) res.end();
    else res.json(body);
  };
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

function constant(body: unknown): OperationHandler {
  return () => body;
}

function needsCredential(
  operations: readonly Operation[],
  document: OpenApiDocument,
  method: string,
  path: string,
): boolean {
  const operation = matchPath(operations, path).find((op) => op.method === method.toLowerCase());
  const requirements = operation?.security ?? document.security ?? [];
  // An empty requirement object means anonymous access is allowed.
  return (
    requirements.length > 0 &&
    requirements.every((requirement) => Object.keys(requirement).length > 0)
  );
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
