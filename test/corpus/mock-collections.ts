// The collections the mock itself inferred (Mock.resources), in the driver's terms: the
// corpus test drives exactly what the mock claims to serve, not a second reading of the document.
import type { Resource, ResourceAction } from '../../src/index.js';
import type { Collection, ListShape } from './collections.js';
import type { ApiOperation } from './operations.js';

/**
 * The driver's collections for the mock's resources, each with its parent where the mock
 * scopes it under another collection's record.
 * @example collectionsOf(mock.resources, operationsOf(document))[0] // { path: '/pets', create, read, ... }
 */
export function collectionsOf(
  resources: readonly Resource[],
  operations: readonly ApiOperation[],
): Collection[] {
  const byKey = new Map(
    operations.map((operation) => [`${operation.method} ${operation.path}`, operation]),
  );
  const made = new Map<string, Collection>();
  for (const resource of resources) {
    // The collection's own list, not a view of it (`/pet/findByStatus`), which needs its filters.
    const isOwn = (operation: { path: string }, action: ResourceAction) =>
      action !== 'list' || operation.path === resource.collectionPath;
    const of = (action: ResourceAction): ApiOperation | undefined => {
      for (const [operation, done] of resource.actions)
        if (done === action && isOwn(operation, done))
          return byKey.get(`${operation.method} ${operation.path}`);
      return undefined;
    };
    const listOperation = [...resource.actions].find(
      ([operation, action]) => action === 'list' && isOwn(operation, action),
    )?.[0];
    const envelope = listOperation && resource.envelopes.get(listOperation);
    const listShape: ListShape | undefined =
      envelope &&
      (envelope.kind === 'plain'
        ? { kind: 'array', items: {} }
        : { kind: 'wrapped', property: envelope.property, items: {} });
    const collection: Collection = {
      path: resource.collectionPath,
      idProperty: resource.idProperty,
      ...(resource.idWithin ? { idWithin: resource.idWithin } : {}),
      ...(resource.itemPath ? { itemPath: resource.itemPath } : {}),
      ...(resource.itemParameter ? { itemParam: resource.itemParameter } : {}),
      ...optional('list', of('list')),
      ...(listShape ? { listShape } : {}),
      ...optional('create', of('create')),
      ...optional('read', of('read')),
      ...optional('replace', of('replace')),
      ...optional('update', of('update')),
      ...optional('remove', of('delete')),
    };
    made.set(resource.name, collection);
  }
  for (const resource of resources) {
    const parent = resource.parent && made.get(resource.parent);
    if (parent) (made.get(resource.name) as Collection).parent = parent;
  }
  return [...made.values()];
}

function optional<K extends string>(
  key: K,
  operation: ApiOperation | undefined,
): Partial<Record<K, ApiOperation>> {
  return operation ? ({ [key]: operation } as Record<K, ApiOperation>) : {};
}
