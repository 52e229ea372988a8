import { exampleBody } from '../openapi/examples.js';
import type { Operation } from '../openapi/operations.js';
import type { DataGenerator } from '../openapi/sample.js';
import type { OperationHandler } from './handler.js';

/**
 * How an operation with no state behind it answers: its spec example, or data generated from
 * its schema, with its success status.
 * @example exampleHandler(getPetById, generator)(request, context) // { status: 200, body: { id: 10, name: 'Rex' } }
 */
export function exampleHandler(operation: Operation, generator: DataGenerator): OperationHandler {
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
