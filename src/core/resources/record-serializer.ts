import { jsonOf } from '../../store/records.js';
import { errors } from '../../vocabulary/error-catalogue.js';
import type { SchemaObject } from '../../openapi/load.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import type { StoredRecord } from '../../store/store.js';

/**
 * Checks a record against one schema and serializes it to UTF-8 JSON; `index` (its place in a
 * list) locates it in the message about a broken one.
 */
export type RecordSerializer = (record: StoredRecord, index?: number) => Buffer;

/**
 * Serializers that check each record once, when they first see it, and keep its JSON as
 * UTF-8 bytes: stored records are frozen, so what was checked stays true, and a list of any
 * size costs one lookup per record and no encoding. One serializer per schema object.
 * @throws {ApiError} 500 `invalid_response` naming the problem, for a record that breaks its schema.
 * @example createRecordSerializers(compiler)(categorySchema)({ id: 1, name: 'Dog' }).toString() // '{"id":1,"name":"Dog"}'
 */
export function createRecordSerializers(
  compiler: SchemaCompiler,
): (schema: SchemaObject) => RecordSerializer {
  const serializers = new WeakMap<SchemaObject, RecordSerializer>();
  const encode = createJsonSlabs();
  return (schema) => {
    let serializer = serializers.get(schema);
    if (!serializer) {
      const check = compiler.response(schema);
      const bytes = new WeakMap<object, Buffer>();
      serializer = (record, index) => {
        let json = bytes.get(record);
        if (json === undefined) {
          const problems = check(record, index === undefined ? '/response' : `/response/${index}`);
          if (problems.length > 0) throw errors.invalidResponse(problems);
          json = encode(jsonOf(record));
          bytes.set(record, json);
        }
        return json;
      };
      serializers.set(schema, serializer);
    }
    return serializer;
  };
}

/** Slabs of 64 KiB for the kept JSON of records; a larger record gets a buffer of its own. */
const SLAB_BYTES = 64 * 1024;

/**
 * UTF-8 bytes of texts kept as long as their records, packed into slabs of their own. Node's
 * shared pool would do the packing, but it also hands out request bodies and other short-lived
 * buffers: one kept record would then hold a whole pool slab alive, and the kept JSON of
 * 100 MB of records took 280 MB.
 */
function createJsonSlabs(): (text: string) => Buffer {
  let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
  let used = 0;
  return (text) => {
    const length = Buffer.byteLength(text);
    if (length > SLAB_BYTES / 4) {
      const own = Buffer.allocUnsafeSlow(length);
      own.write(text);
      return own;
    }
    if (used + length > SLAB_BYTES) {
      slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      used = 0;
    }
    slab.write(text, used);
    const bytes = slab.subarray(used, used + length);
    used += length;
    return bytes;
  };
}
