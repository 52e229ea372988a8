import type { ExampleSource } from '../openapi/examples.js';
import type { Operation } from '../openapi/operations.js';
import type { OperationHandler } from './handler.js';

/**
 * How an operation with no state behind it answers: its spec example, or data generated from
 * its schema, with its success status. The body is found on the first call, not before: a
 * large spec's operations cost nothing until they are called.
 * @example exampleHandler(getPetById, examples)(request, context) // { status: 200, body: { id: 10, name: 'Rex' } }
 */
export function exampleHandler(operation: Operation, examples: ExampleSource): OperationHandler {
  const status = operation.successStatus;
  return () => {
    const example = examples.body(operation, String(status));
    return example
      ? {
          status,
          body: example.body,
          headers: { 'Content-Type': `${example.mediaType}; charset=utf-8` },
        }
      : { status };
  };
}
