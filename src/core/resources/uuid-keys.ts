import { randomUUID } from 'node:crypto';
import type { Resource } from '../../openapi/resources.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';

/**
 * Who writes the UUID keys of a collection: the store, as `randomUUID()` does (lower case);
 * the mock in upper case, where the key's schema asks for it (.NET's GUIDs, as loket.nl's
 * `pattern: ^[{(]?[0-9A-F]{8}[-]?([0-9A-F]{4}[-]?){3}[0-9A-F]{12}[)}]?$` beside
 * `format: uuid`: the store's keys broke it, and every create and every list of its 67
 * operations answered 500 `invalid_response`); or the key's schema, which allows neither.
 */
export type UuidKeys = 'store' | 'upper' | 'schema';

/** A UUID as RFC 9562 writes it, lower case: what the store makes. */
const WRITTEN = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

/**
 * Who writes the keys of a resource (see UuidKeys); `store` for every key that is no UUID.
 * @example uuidKeysOf(departments, compiler) // 'upper'
 */
export function uuidKeysOf(resource: Resource, compiler: SchemaCompiler): UuidKeys {
  if (resource.idKind !== 'uuid') return 'store';
  const fits = compiler.response(resource.keySchema);
  if (fits(WRITTEN).length === 0) return 'store';
  if (fits(WRITTEN.toUpperCase()).length === 0) return 'upper';
  return 'schema';
}

/**
 * A random UUID in upper case that `taken` does not hold.
 * @example await upperCaseUuid(async (id) => Boolean(await collection.get(id))) // '9B1DEB4D-3B7D-4BAD-9BDD-2B0D7B3DCB6D'
 */
export async function upperCaseUuid(taken: (id: string) => Promise<boolean>): Promise<string> {
  let id: string;
  do id = randomUUID().toUpperCase();
  while (await taken(id));
  return id;
}
