import { ApiError } from './errors.js';
import type { SchemaCheck } from '../spec/schemas.js';
import type { SchemaObject } from '../spec/load.js';

/**
 * A response body already checked against the spec's response schema, serialized: sent
 * as it is, without a second check.
 */
export class CheckedJson {
  constructor(readonly bytes: Buffer) {}
}

/** Checks a record against one schema and serializes it; `at` locates it in messages. */
export type RecordSerializer = (record: object, at: string) => string;

/**
 * Serializers that check each record once, when they first see it, and keep its JSON:
 * records are immutable, so what was checked stays true. One serializer per schema object.
 * @throws {ApiError} 500 `invalid_response` naming the problem, for a record that breaks its schema.
 */
export function createRecordSerializers(
  compile: (schema: SchemaObject) => SchemaCheck,
): (schema: SchemaObject) => RecordSerializer {
  const serializers = new Map<SchemaObject, RecordSerializer>();
  return (schema) => {
    let serializer = serializers.get(schema);
    if (!serializer) {
      const check = compile(schema);
      const texts = new WeakMap<object, string>();
      serializer = (record, at) => {
        let text = texts.get(record);
        if (text === undefined) {
          const problems = check(record);
          if (problems.length > 0) {
            const details = problems.map((problem) => `/response${at}${problem}`).join('; ');
            throw new ApiError(
              500,
              'invalid_response',
              `The mock's response breaks the spec: ${details}`,
            );
          }
          text = JSON.stringify(record);
          texts.set(record, text);
        }
        return text;
      };
      serializers.set(schema, serializer);
    }
    return serializer;
  };
}
