import type { Resource } from '../../openapi/resources.js';
import type { CollectionDescriptor } from '../../store/store.js';

/**
 * What the store needs to know of a resource's collection: for a nested one, of the
 * collection under one parent (`scope`: the values of the collection path's parameters).
 * @example descriptorOf(posts, ['7']) // { name: 'users/{userId}/posts|7', idProperty: 'id', idKind: 'integer' }
 */
export function descriptorOf(
  resource: Resource,
  scope: readonly string[] = [],
): CollectionDescriptor {
  const name =
    scope.length === 0
      ? resource.name
      : `${resource.name}|${scope.map((value) => encodeURIComponent(value)).join('/')}`;
  const { idProperty, idWithin, idKind } = resource;
  return { name, idProperty, ...(idWithin ? { idWithin } : {}), idKind };
}
