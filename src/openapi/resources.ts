import type { SchemaObject } from './load.js';
import { SpecError } from './load.js';
import { isJsonMediaType, jsonSchemaOf, type Operation } from './operations.js';
import { isReadOnly, propertiesOf, requiredOf, typesOf } from './schema-parts.js';
import type { IdKind } from '../vocabulary/record.js';

/** What an operation does to its resource. */
export type ResourceAction = 'list' | 'create' | 'read' | 'replace' | 'update' | 'delete';

/** A collection the spec describes, served from the store. */
export interface Resource {
  /** Its collection name in the store: `x-mock.resource`, else its path (`categories`). */
  readonly name: string;
  /** e.g. `/categories`. */
  readonly collectionPath: string;
  /** e.g. `/categories/{categoryId}`, when the spec has operations there. */
  readonly itemPath: string | undefined;
  /** The record schema S: what the collection's answers hold. */
  readonly schema: SchemaObject;
  readonly idProperty: string;
  readonly idKind: IdKind;
  /** Each operation it serves, with what it does. */
  readonly actions: ReadonlyMap<Operation, ResourceAction>;
}

/** The `x-mock` extension of an operation, which settles what inference cannot. */
interface MockExtension {
  /** The collection this operation belongs to, or `false` to keep it answering examples. */
  resource?: string | false;
}

const ITEM_ACTIONS: Readonly<Record<string, ResourceAction>> = {
  get: 'read',
  put: 'replace',
  patch: 'update',
  delete: 'delete',
};

/**
 * The resources of a spec, inferred from the shape of its operations:
 * - a collection is a path whose `get` answers an array of a schema S and/or whose `post`
 *   takes a JSON body and answers one S;
 * - its item path is the same path plus one path parameter, where `get`, `put`, `patch`
 *   and `delete` act on the record whose id equals the parameter;
 * - the id is the property of S that is `readOnly` and required, else the one named `id`:
 *   integers count up, `format: uuid` strings are random UUIDs, other strings are unique.
 * An operation can opt out with `x-mock: { resource: false }`, or name its collection with
 * `x-mock: { resource: <name> }`. A path whose schema has no id stays stateless.
 * @throws {SpecError} when `x-mock` names a collection the spec does not describe.
 * @example inferResources(operations)[0] // { name: 'categories', idProperty: 'id', idKind: 'integer', ... }
 */
export function inferResources(operations: readonly Operation[]): Resource[] {
  const eligible = operations.filter((operation) => extensionOf(operation).resource !== false);
  const collections = new Map<
    string,
    { list?: Operation; create?: Operation; schema?: SchemaObject }
  >();

  for (const operation of eligible) {
    if (operation.path.includes('{')) continue;
    const success = jsonSchemaOf(operation.responses[String(operation.successStatus)]);
    if (operation.method === 'get' && success?.type === 'array' && isObjectSchema(success.items)) {
      const entry = collections.get(operation.path) ?? {};
      entry.list = operation;
      entry.schema ??= success.items as SchemaObject;
      collections.set(operation.path, entry);
    } else if (operation.method === 'post' && takesJson(operation) && isObjectSchema(success)) {
      const entry = collections.get(operation.path) ?? {};
      entry.create = operation;
      // The create answer is one whole record: the best statement of S.
      entry.schema = success;
      collections.set(operation.path, entry);
    }
  }

  const resources: Resource[] = [];
  const named = new Map<string, Map<Operation, ResourceAction>>();
  for (const [path, entry] of collections) {
    const schema = entry.schema;
    if (!schema) continue;
    const id = idOf(schema);
    if (!id) continue;
    const actions = new Map<Operation, ResourceAction>();
    if (entry.list) actions.set(entry.list, 'list');
    if (entry.create) actions.set(entry.create, 'create');
    let itemPath: string | undefined;
    for (const operation of eligible) {
      const action = ITEM_ACTIONS[operation.method];
      if (action && isItemPathOf(operation.path, path)) {
        actions.set(operation, action);
        itemPath = operation.path;
      }
    }
    const explicit = [entry.list, entry.create]
      .map((operation) => operation && extensionOf(operation).resource)
      .find((name): name is string => typeof name === 'string');
    const name = explicit ?? path.replace(/^\/+|\/+$/g, '');
    resources.push({
      name,
      collectionPath: path,
      itemPath,
      schema,
      idProperty: id.name,
      idKind: id.kind,
      actions,
    });
    named.set(name, actions);
  }

  // Operations that name their collection but sit where inference cannot see them.
  for (const operation of eligible) {
    const name = extensionOf(operation).resource;
    if (typeof name !== 'string') continue;
    const actions = named.get(name);
    if (!actions) {
      throw new SpecError(
        `x-mock of ${operation.operationId} names the resource "${name}", which the spec does not describe (it has: ${[...named.keys()].join(', ') || 'none'})`,
      );
    }
    if (!actions.has(operation)) {
      const action = operation.path.includes('{')
        ? ITEM_ACTIONS[operation.method]
        : operation.method === 'get'
          ? 'list'
          : operation.method === 'post'
            ? 'create'
            : undefined;
      if (action) actions.set(operation, action);
    }
  }
  return resources;
}

function idOf(schema: SchemaObject): { name: string; kind: IdKind } | undefined {
  const properties = propertiesOf(schema);
  const required = requiredOf(schema);
  const name =
    Object.keys(properties).find((key) => required.has(key) && isReadOnly(properties[key] ?? {})) ??
    ('id' in properties ? 'id' : undefined);
  if (name === undefined) return undefined;
  return { name, kind: idKindOf(properties[name] ?? {}) };
}

function idKindOf(schema: SchemaObject): IdKind {
  const types = typesOf(schema);
  if (types.includes('integer') || types.includes('number')) return 'integer';
  if ([schema, ...((schema.allOf ?? []) as SchemaObject[])].some((part) => part.format === 'uuid'))
    return 'uuid';
  return 'string';
}

function isObjectSchema(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as SchemaObject;
  return s.type === 'object' || s.properties !== undefined || s.allOf !== undefined;
}

function takesJson(operation: Operation): boolean {
  return [...(operation.requestBody?.content.keys() ?? [])].some(isJsonMediaType);
}

/** `/categories/{id}` is the item path of `/categories`; `/categories/{id}/x` is not. */
function isItemPathOf(path: string, collection: string): boolean {
  if (!path.startsWith(`${collection}/`)) return false;
  return /^\{[^}/]+\}$/.test(path.slice(collection.length + 1));
}

function extensionOf(operation: Operation): MockExtension {
  const extension = (operation.definition as { 'x-mock'?: unknown })['x-mock'];
  return typeof extension === 'object' && extension !== null ? (extension as MockExtension) : {};
}
