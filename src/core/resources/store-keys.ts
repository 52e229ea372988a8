import { randomUUID } from 'node:crypto';
import type { Resource } from '../../openapi/resources.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';

/**
 * Who writes the keys of a collection the store would make (integers counting up, UUIDs):
 * - `store`: the store, its keys fit the key's schema;
 * - `upper`: the mock, as UUIDs in upper case, where the key's schema asks for them so
 *   (.NET's GUIDs: `pattern: ^[{(]?[0-9A-F]{8}[-]?([0-9A-F]{4}[-]?){3}[0-9A-F]{12}[)}]?$`
 *   beside `format: uuid`, which the store's lower-case keys break);
 * - `schema`: the mock, from the key's schema, which the store's keys break: a UUID pattern
 *   of another shape, or integers the schema bounds (`id: {enum: [1, 2]}`, which the
 *   store's third key, 3, breaks).
 */
export type StoreKeys = 'store' | 'upper' | 'schema';

/** A UUID as RFC 9562 writes it, lower case: what the store makes. */
const WRITTEN = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
/** Integer keys the store gives: the first, and one of a collection that has seen many creates. */
const COUNTED = [1, 1_000_000];

/**
 * Who writes the keys of a resource the store would make (see StoreKeys); `store` for
 * every other key (those hasMeaningfulKey says are made from the key's schema anyway).
 * @example storeKeysOf(departments, compiler) // 'upper'
 */
export function storeKeysOf(resource: Resource, compiler: SchemaCompiler): StoreKeys {
  if (resource.idKind === 'string') return 'store';
  const fits = (key: unknown) => compiler.response(resource.keySchema)(key).length === 0;
  if (resource.idKind === 'integer') return COUNTED.every(fits) ? 'store' : 'schema';
  if (fits(WRITTEN)) return 'store';
  if (fits(WRITTEN.toUpperCase())) return 'upper';
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
