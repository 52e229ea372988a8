// The body of a callback or a webhook: the record the operation made where it fits the
// documented schema, else a value generated from the schema with the record's fields in it.
import type { SchemaObject } from '../../openapi/load.js';
import type { DataGenerator } from '../../openapi/sample.js';
import { isJsonObject } from '../../vocabulary/record.js';

/**
 * A body valid against `schema` (as the API writes it: a record's `readOnly` fields allowed),
 * made from `sources` (the answer's record, the request's body…) in this order of preference:
 * a source that fits whole; a generated value whose properties are filled with a source that
 * fits one of them (an envelope's `data`) or with a source's own fields that fit them; a
 * generated value. Without a schema, the first source.
 * @throws {SpecError} when no value can be generated for the schema.
 * @example payloadFor(petSchema, [createdPet], generator) // createdPet
 */
export function payloadFor(
  schema: SchemaObject | undefined,
  sources: readonly unknown[],
  generator: DataGenerator,
): unknown {
  if (!schema) return sources[0];
  const { compiler } = generator;
  const fits = (value: unknown, of: SchemaObject) =>
    value !== undefined && compiler.response(of)(value).length === 0;
  const whole = sources.find((source) => fits(source, schema));
  if (whole !== undefined) return whole;
  const made = generator.value(schema);
  const properties = Object.entries(schema.properties ?? {}) as [string, SchemaObject][];
  if (!isJsonObject(made) || properties.length === 0) return made;
  const filled: Record<string, unknown> = { ...made };
  for (const [name, property] of properties) {
    if (typeof property !== 'object') continue;
    const inside = sources.find((source) => isJsonObject(source) && fits(source, property));
    if (inside !== undefined) {
      filled[name] = inside;
      continue;
    }
    for (const source of sources)
      if (isJsonObject(source) && fits(source[name], property)) {
        filled[name] = source[name];
        break;
      }
  }
  return fits(filled, schema) ? filled : made;
}
