import { deprecationHeaders } from '../openapi/deprecation.js';
import type { OpenApiDocument, SchemaObject } from '../openapi/load.js';
import { jsonSchemaOf, type Operation } from '../openapi/operations.js';
import type { SchemaCompiler } from '../openapi/schemas.js';
import { stabilityOf } from '../openapi/stability.js';
import type { ExampleSource } from '../openapi/examples.js';
import type { OperationHandler } from './handler.js';
import type { MountedApi } from './mock-core.js';
import { createRouter } from './stages/route.js';
import { createXmlAnswers } from './xml-answer.js';

export interface MountedApiOptions extends Pick<
  MountedApi,
  | 'basePath'
  | 'recorded'
  | 'credentials'
  | 'schemes'
  | 'shapeError'
  | 'scenarios'
  | 'refuse'
  | 'checkCredential'
  | 'streams'
> {
  /** The handler of each operation; none makes the operation a 501. */
  handler(operation: Operation): OperationHandler | undefined;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * One API as the core serves it, from the operations of its document: its router, the
 * handler of each operation and the headers each answer carries (deprecation, stability).
 * @example serveApi(document, operations, { basePath: '/v1', recorded: true, handler, shapeError })
 */
export function serveApi(
  document: OpenApiDocument,
  operations: readonly Operation[],
  options: MountedApiOptions,
): MountedApi {
  const handlers = new Map<Operation, OperationHandler>();
  const headers = new Map<Operation, Readonly<Record<string, string>>>();
  for (const operation of operations) {
    const handler = options.handler(operation);
    if (handler) handlers.set(operation, handler);
    const level = stabilityOf(operation.definition);
    // Frozen: every answer of the operation shares it (see createAnswerChecker).
    headers.set(
      operation,
      Object.freeze({
        ...deprecationHeaders(operation.definition),
        ...(level === 'stable' ? {} : { 'X-Stability': level }),
      }),
    );
  }
  return {
    basePath: options.basePath,
    recorded: options.recorded,
    shapeError: options.shapeError,
    ...(options.scenarios ? { scenarios: options.scenarios } : {}),
    ...(options.refuse ? { refuse: options.refuse } : {}),
    ...(options.streams ? { streams: options.streams } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    ...(options.schemes ? { schemes: options.schemes } : {}),
    router: createRouter(operations),
    checkCredential: options.checkCredential,
    handlers,
    headersOf: (operation) => headers.get(operation) ?? NO_HEADERS,
    inXml: createXmlAnswers(componentNames(document)),
  };
}

/** The name each schema of the document's components goes by, for the root element of its XML. */
function componentNames(document: OpenApiDocument): (schema: SchemaObject) => string | undefined {
  const names = new WeakMap<object, string>();
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {}))
    if (typeof schema === 'object' && schema !== null) names.set(schema, name);
  return (schema) => names.get(schema);
}

/** What an operation's preparation needs: everything that compiles its schemas. */
export interface PreparationOptions {
  compiler: SchemaCompiler;
  examples: ExampleSource;
  /** Called with each defect found, in one line naming the operation. */
  warn: (line: string) => void;
}

/**
 * Prepares an operation once: compiles its parameter, body and response schemas and checks
 * the examples of its responses. Defects are warnings, never a refusal: a schema that cannot
 * be compiled makes the requests that need it answer a 500 naming why, an example that breaks
 * its schema is answered as generated data. Call it for every operation at start-up to hear
 * of every defect then, or before an operation's first request to spend nothing on operations
 * no one calls.
 * @example const prepare = operationPreparer(options); operations.forEach(prepare);
 */
export function operationPreparer(options: PreparationOptions): (operation: Operation) => void {
  const prepared = new WeakSet<Operation>();
  const attempt = (operation: Operation, what: string, step: () => void): void => {
    try {
      step();
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      options.warn(`${operation.operationId}: ${what}: ${reason}`);
    }
  };
  const { compiler } = options;
  return (operation) => {
    if (prepared.has(operation)) return;
    prepared.add(operation);
    for (const parameter of operation.parameters)
      attempt(operation, `its ${parameter.in} parameter ${parameter.name} cannot be checked`, () =>
        compiler.prepare('parameters', parameter.schema),
      );
    for (const [type, schema] of operation.requestBody?.content ?? [])
      attempt(operation, `its ${type} request body cannot be checked`, () =>
        compiler.prepare('request', schema),
      );
    for (const [key, response] of Object.entries(operation.responses)) {
      const schema = jsonSchemaOf(response);
      if (schema)
        attempt(operation, `its ${key} answer cannot be checked`, () =>
          compiler.prepare('response', schema),
        );
    }
    attempt(operation, 'its examples cannot be checked', () => options.examples.check(operation));
  };
}
