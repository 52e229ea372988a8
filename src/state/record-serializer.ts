import { ApiError } from '../http/errors.js';
import type { SchemaObject } from '../spec/load.js';
import type { SchemaCompiler } from '../spec/schemas.js';
import type { StoredRecord } from './store.js';

/** Checks a record against one schema and serializes it; `at` locates it in messages. */
export type RecordSerializer = (record: StoredRecord, at?: string) => string;

/**
 * Serializers that check each record once, when they first see it, and keep its JSON:
 * stored records are frozen, so what was checked stays true, and a list of any size costs
 * one lookup per record. One serializer per schema object.
 * @throws {ApiError} 500 `invalid_response` naming the problem, for a record that breaks its schema.
 * @example const text = createRecordSerializers(compiler)(categorySchema)({ id: 1, name: 'Dog' }); // '{"id":1,"name":"Dog"}'
 */
export function createRecordSerializers(
  compiler: SchemaCompiler,
): (schema: SchemaObject) => RecordSerializer {
  const serializers = new WeakMap<SchemaObject, RecordSerializer>();
  return (schema) => {
    let serializer = serializers.get(schema);
    if (!serializer) {
      const check = compiler.response(schema);
      const texts = new WeakMap<object, string>();
      serializer = (record, at = '') => {
        let text = texts.get(record);
        if (text === undefined) {
          const problems = check(record, `/response${at}`);
          if (problems.length > 0) {
            throw new ApiError(
              500,
              'invalid_response',
              `The mock's response breaks the spec: ${problems.join('; ')}`,
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
