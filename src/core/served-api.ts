import { deprecationHeaders } from '../openapi/deprecation.js';
import type { OpenApiDocument } from '../openapi/load.js';
import { jsonSchemaOf, type Operation } from '../openapi/operations.js';
import type { SchemaCompiler } from '../openapi/schemas.js';
import { stabilityOf } from '../openapi/stability.js';
import { SpecError } from '../openapi/load.js';
import type { OperationHandler } from './handler.js';
import type { ServedApi } from './mock-core.js';
import type { RequestValidator } from './request-validator.js';
import { createRouter } from './router.js';

export interface ServedApiOptions extends Pick<
  ServedApi,
  'basePath' | 'recorded' | 'shapeError' | 'scenarios' | 'refuse' | 'checkCredential'
> {
  /** The handler of each operation; none makes the operation a 501. */
  handler(operation: Operation): OperationHandler | undefined;
}

/**
 * One API as the core serves it, from the operations of its document: its router, the
 * handler of each operation and the headers each answer carries (deprecation, stability).
 * @example serveApi(document, operations, { basePath: '/v1', recorded: true, handler, shapeError })
 */
export function serveApi(
  document: OpenApiDocument,
  operations: readonly Operation[],
  options: ServedApiOptions,
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
    recorded: options.recorded,
    shapeError: options.shapeError,
    ...(options.scenarios ? { scenarios: options.scenarios } : {}),
    ...(options.refuse ? { refuse: options.refuse } : {}),
    router: createRouter(operations),
    checkCredential: options.checkCredential,
    handlers,
    headersOf: (operation) => headers.get(operation) ?? {},
  };
}

/**
 * Compiles every schema of the spec now, so that one the mock cannot check stops start-up
 * with a line naming its operation, instead of failing that operation's first request.
 * @throws {SpecError}
 */
export function compileEverySchema(
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
