// REST collections read from the shape of an API's paths, independently of the mock's own
// inference: what a client of the API would take for "a list of things it can add to".
import { isObject, type JsonObject } from './document.js';
import { isJsonMedia, successOf, type ApiBody, type ApiOperation } from './operations.js';

/** How a list operation returns its records. */
export type ListShape =
  | { kind: 'array'; items: JsonObject }
  /** `{ data: [...] }`, `{ items: [...], total }`...: the records under one property. */
  | { kind: 'wrapped'; property: string; items: JsonObject };

export interface Collection {
  /** e.g. `/users/{userId}/posts`. */
  path: string;
  /** e.g. `/users/{userId}/posts/{postId}`. */
  itemPath?: string;
  /** The last path parameter of the item path, e.g. `postId`. */
  itemParam?: string;
  /** Whether the item path's parameter takes only integers: no other text is a key of it. */
  integerKey?: boolean;
  /** The record property that holds the id, when known (the mock says it); else guessed from itemParam. */
  idProperty?: string;
  /**
   * The object of the record that holds its key, when the record holds it in one of several
   * objects that each have a property of the item parameter's name (`metadata.name` beside
   * `roleRef.name`).
   */
  idWithin?: readonly string[];
  /**
   * When the collection path's parameters name a record of another collection, that one
   * (`/users/{userId}/posts` under `/users`): a record is made there first, and its scope and id
   * fill those parameters, in order.
   */
  parent?: Collection;
  list?: ApiOperation;
  listShape?: ListShape;
  create?: ApiOperation;
  read?: ApiOperation;
  replace?: ApiOperation;
  update?: ApiOperation;
  remove?: ApiOperation;
}

/** Names a wrapper gives its records, in order of preference. */
const WRAPPER_NAMES = [
  'data',
  'items',
  'results',
  'records',
  'entries',
  'values',
  'content',
  'elements',
];

const PARAM_SEGMENT = /^\{[^{}]+\}$/;

function segments(path: string): string[] {
  return path.split('/').filter((part) => part.length > 0);
}

/** The schema an object of this schema has, with `allOf` parts merged (shallowly). */
export function propertiesOf(schema: JsonObject): Record<string, JsonObject> {
  const properties: Record<string, JsonObject> = {};
  const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf.filter(isObject) : [])];
  for (const part of parts) {
    if (!isObject(part.properties)) continue;
    for (const [name, property] of Object.entries(part.properties))
      if (isObject(property)) properties[name] = property;
  }
  return properties;
}

function isArraySchema(schema: JsonObject): boolean {
  return schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));
}

/** The records' schema when the schema is a list of objects, plain or wrapped. */
export function listShapeOf(schema: JsonObject | undefined): ListShape | undefined {
  if (!schema) return undefined;
  if (isArraySchema(schema)) {
    return isObject(schema.items) ? { kind: 'array', items: schema.items } : undefined;
  }
  const arrays = Object.entries(propertiesOf(schema)).filter(
    ([, property]) => isArraySchema(property) && isObject(property.items),
  );
  const [chosen] = [...arrays].sort(([a], [b]) => rank(a) - rank(b));
  if (!chosen) return undefined;
  const [property, arraySchema] = chosen;
  if (arrays.length > 1 && rank(property) === WRAPPER_NAMES.length) return undefined;
  return { kind: 'wrapped', property, items: arraySchema.items as JsonObject };
}

function rank(name: string): number {
  const index = WRAPPER_NAMES.indexOf(name.toLowerCase());
  return index === -1 ? WRAPPER_NAMES.length : index;
}

/** The body to send when creating or updating: JSON first, then forms. */
export function preferredBody(operation: ApiOperation): ApiBody | undefined {
  const order = (body: ApiBody): number =>
    isJsonMedia(body.mediaType)
      ? 0
      : /x-www-form-urlencoded/i.test(body.mediaType)
        ? 1
        : /multipart\/form-data/i.test(body.mediaType)
          ? 2
          : 3;
  return [...operation.bodies].sort((a, b) => order(a) - order(b))[0];
}

/** A path segment that is one parameter, maybe with a suffix: `{id}`, `{CallSid}.json`. */
const ITEM_SEGMENT = /^\{([^{}]+)\}(\.[A-Za-z0-9]+)?$/;

/**
 * The collections of an API: a path P whose `get` lists objects or whose `post` takes a body,
 * with an item path P/{param} that has a `get`, `put`, `patch` or `delete` (or, without
 * one, a P that both lists and creates). P may have
 * parameters of its own (nested collections, `/users/{id}/posts`). A suffix on P's last
 * segment moves to the item's (`/Calls.json` and `/Calls/{CallSid}.json`).
 */
export function findCollections(operations: readonly ApiOperation[]): Collection[] {
  const byPath = new Map<string, Map<string, ApiOperation>>();
  for (const operation of operations) {
    const methods = byPath.get(operation.path) ?? new Map<string, ApiOperation>();
    methods.set(operation.method, operation);
    byPath.set(operation.path, methods);
  }
  const collections: Collection[] = [];
  for (const [path, methods] of byPath) {
    const parts = segments(path);
    const last = parts.at(-1);
    if (last === undefined || PARAM_SEGMENT.test(last)) continue;
    const list = methods.get('get');
    const listShape = list && listShapeOf(successOf(list)?.schema);
    const post = methods.get('post');
    const create =
      post && (post.bodies.length > 0 || createsByQuery(post, listShape)) && !isSearch(post, list)
        ? post
        : undefined;
    if (!listShape && !create) continue;
    const item = itemPathOf(parts, byPath);
    // Without an item path, only a list that can be added to counts (not a lone action).
    if (!item && !(listShape && create)) continue;
    const [itemPath, itemMethods, itemParam] = item ?? [
      undefined,
      new Map<string, ApiOperation>(),
      undefined,
    ];
    collections.push({
      path,
      ...(itemPath === undefined ? {} : { itemPath, itemParam }),
      ...(itemParam !== undefined && takesIntegers(itemMethods, itemParam)
        ? { integerKey: true }
        : {}),
      ...(list && listShape ? { list, listShape } : {}),
      ...(create ? { create } : {}),
      ...optional('read', itemMethods.get('get')),
      ...optional('replace', itemMethods.get('put')),
      ...optional('update', itemMethods.get('patch')),
      ...optional('remove', itemMethods.get('delete')),
    });
  }
  linkParents(collections);
  keyHolders(collections);
  return collections;
}

/**
 * Gives each collection whose records hold the key named by the item parameter in several
 * objects (and not at their top level) the object the document's records use most for it, as
 * a client reading the whole description would: its records' `metadata.name`, not `roleRef.name`.
 */
function keyHolders(collections: Collection[]): void {
  const holdersOf = new Map<Collection, string[]>();
  const uses = new Map<string, number>();
  for (const collection of collections) {
    const { itemParam, listShape } = collection;
    if (itemParam === undefined || !listShape) continue;
    const properties = propertiesOf(listShape.items);
    if (itemParam in properties || 'id' in properties) continue;
    const holders = Object.entries(properties)
      .filter(([, property]) => itemParam in propertiesOf(property))
      .map(([name]) => name);
    holdersOf.set(collection, holders);
    for (const holder of holders) uses.set(holder, (uses.get(holder) ?? 0) + 1);
  }
  for (const [collection, holders] of holdersOf) {
    if (holders.length < 2) continue;
    const [chosen] = holders.sort((a, b) => (uses.get(b) ?? 0) - (uses.get(a) ?? 0));
    if (chosen !== undefined) collection.idWithin = [chosen];
  }
}

/** A path with its parameters' names left out: `/users/{}/posts`. */
function shapeOf(path: string): string {
  return path.replace(/\{[^{}]+\}/g, '{}');
}

/**
 * Gives each nested collection the collection whose item its path continues
 * (`/users/{userId}/posts` under `/users/{id}`): a client makes the parent record first, since a
 * record under a parent that does not exist is a 404.
 */
function linkParents(collections: Collection[]): void {
  const byItem = new Map<string, Collection>();
  for (const collection of collections)
    if (collection.itemPath !== undefined)
      // Twilio's item `/Accounts/{Sid}.json` is the parent of `/Accounts/{AccountSid}/Calls.json`.
      byItem.set(shapeOf(collection.itemPath).replace(/\.[A-Za-z0-9]+$/, ''), collection);
  for (const collection of collections) {
    const parts = segments(collection.path);
    const last = parts.findLastIndex((part) => ITEM_SEGMENT.test(part));
    if (last === -1) continue;
    const parent = byItem.get(shapeOf(`/${parts.slice(0, last + 1).join('/')}`));
    if (parent && parent !== collection) collection.parent = parent;
  }
}

/** The item path of a collection's segments: one more segment, a parameter. */
function itemPathOf(
  parts: string[],
  byPath: ReadonlyMap<string, ReadonlyMap<string, ApiOperation>>,
): [string, ReadonlyMap<string, ApiOperation>, string] | undefined {
  const last = parts.at(-1) ?? '';
  const suffix = /\.[A-Za-z0-9]+$/.exec(last)?.[0] ?? '';
  const stem = [...parts.slice(0, -1), last.slice(0, last.length - suffix.length)].join('/');
  for (const [candidate, methods] of byPath) {
    const itemParts = segments(candidate);
    if (itemParts.length !== parts.length + 1) continue;
    const match = ITEM_SEGMENT.exec(itemParts.at(-1) ?? '');
    if (!match || (match[2] ?? '') !== suffix) continue;
    if (itemParts.slice(0, -1).join('/') !== stem) continue;
    if (!['get', 'put', 'patch', 'delete'].some((method) => methods.has(method))) continue;
    return [candidate, methods, match[1] ?? ''];
  }
  return undefined;
}

/** Whether every schema the item path's operations give their parameter is an integer's. */
function takesIntegers(methods: ReadonlyMap<string, ApiOperation>, itemParam: string): boolean {
  const schemas = [...methods.values()].flatMap((operation) =>
    operation.parameters
      .filter((parameter) => parameter.in === 'path' && parameter.name === itemParam)
      .map((parameter) => parameter.schema),
  );
  return (
    schemas.length > 0 &&
    schemas.every((schema) => {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      return types.includes('integer') && !types.includes('string');
    })
  );
}

/**
 * A `post` with no body that takes query parameters and answers one of the listed records
 * (Netlify's `POST /agent_runners?site_id=...`): a create, as a client reads it.
 */
function createsByQuery(post: ApiOperation, listShape: ListShape | undefined): boolean {
  const answer = successOf(post)?.schema;
  return (
    post.bodies.length === 0 &&
    post.parameters.some((parameter) => parameter.in === 'query') &&
    listShape !== undefined &&
    answer !== undefined &&
    (answer === listShape.items || JSON.stringify(answer) === JSON.stringify(listShape.items))
  );
}

/** A `post` that answers a list (as the `get` beside it does): a search, not a create. */
function isSearch(post: ApiOperation, list: ApiOperation | undefined): boolean {
  const answer = successOf(post)?.schema;
  if (!answer) return false;
  if (listShapeOf(answer)?.kind === 'array') return true;
  const listed = list && successOf(list)?.schema;
  return (
    listed !== undefined && (listed === answer || JSON.stringify(listed) === JSON.stringify(answer))
  );
}

function optional<K extends string>(
  key: K,
  operation: ApiOperation | undefined,
): Partial<Record<K, ApiOperation>> {
  return operation ? ({ [key]: operation } as Record<K, ApiOperation>) : {};
}
