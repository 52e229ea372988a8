// Where the records of a collection are, for the admin API: a top-level collection is one part;
// a nested one (`/owners/{ownerId}/pets`) is a part per parent, found through its parents' records.
import type { Resource } from '../../openapi/resources.js';
import type { Store, StoredRecord } from '../../store/store.js';
import { descriptorOf } from '../resources/descriptor.js';
import { keyIn } from '../../vocabulary/record.js';

/** The records of a collection under one parent (or of a top-level collection, whole). */
export interface CollectionPart {
  /** Where the mocked API serves them, base path included: `/v1/owners/7/pets`. */
  path: string;
  records: readonly StoredRecord[];
}

/**
 * The parts of a resource's collection in a store, parents in their own order. A nested
 * collection whose collection path adds parameters past its parent's item path, or whose
 * parent is no collection of the spec, has no parents to find: none are listed.
 * @param byName every resource of the spec, by name, for the parents.
 * @example await partsOf(pets, byName, store, '/v1') // [{ path: '/v1/owners/1/pets', records: [...] }, ...]
 */
export async function partsOf(
  resource: Resource,
  byName: ReadonlyMap<string, Resource>,
  store: Store,
  basePath: string,
): Promise<CollectionPart[]> {
  const parts: CollectionPart[] = [];
  for (const scope of await scopesOf(resource, byName, store)) {
    const records = await store.collection(descriptorOf(resource, scope)).list();
    parts.push({ path: basePath + filled(resource, scope), records });
  }
  return parts;
}

/** The scopes (values of the collection path's parameters) the parents' records make. */
async function scopesOf(
  resource: Resource,
  byName: ReadonlyMap<string, Resource>,
  store: Store,
): Promise<string[][]> {
  if (resource.scope.length === 0) return [[]];
  const parent = resource.parent === undefined ? undefined : byName.get(resource.parent);
  if (!parent || resource.scope.length !== parent.scope.length + 1) return [];
  const scopes: string[][] = [];
  for (const parentScope of await scopesOf(parent, byName, store))
    for (const record of await store.collection(descriptorOf(parent, parentScope)).list())
      scopes.push([...parentScope, keyInPath(parent, record)]);
  return scopes;
}

/** The value a parent record's item path holds for it: its key, or the last part of its link. */
function keyInPath(parent: Resource, record: StoredRecord): string {
  const key = String(keyIn(record, parent));
  return parent.keyLink ? decodeURIComponent(key.slice(key.lastIndexOf('/') + 1)) : key;
}

/** The collection path with the scope's values in its parameters. */
function filled(resource: Resource, scope: readonly string[]): string {
  return resource.scope.reduce(
    (path, name, index) => path.replace(`{${name}}`, encodeURIComponent(scope[index] ?? '')),
    resource.collectionPath,
  );
}
