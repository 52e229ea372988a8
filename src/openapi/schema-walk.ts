/**
 * Where schemas sit in an OpenAPI 3.x document as written (`$ref`s not followed): the one
 * place that knows the document's layout, so that code reading schema keywords never mistakes
 * an example, a default value or a property named `nullable` for a keyword.
 */

import { isJsonObject } from '../vocabulary/record.js';

/** A place in the document, as the segments of a JSON pointer. */
export type Where = readonly (string | number)[];

/**
 * Called once for each schema object, before its subschemas are walked (it may change them).
 * `where` gives its place when asked: made for every schema, the places of a resolved chain of
 * 10,000 schemas (each one level below the last) took 14 s to copy.
 */
export type SchemaVisitor = (schema: Record<string, unknown>, where: () => Where) => void;

/** A place as a link to the place above it: the segments below it are added without a copy. */
interface Link {
  readonly up: Link | undefined;
  /** The segments from the place above: the root's place, a keyword, or a keyword and a name. */
  readonly segments: Where | string;
  readonly name?: string | number;
}

/** The segments of a linked place, from the document's root. */
function placeOf(link: Link): Where {
  const parts: (string | number)[] = [];
  for (let at: Link | undefined = link; at !== undefined; at = at.up) {
    if (at.name !== undefined) parts.push(at.name);
    if (typeof at.segments === 'string') parts.push(at.segments);
    else for (let i = at.segments.length - 1; i >= 0; i--) parts.push(at.segments[i] as string);
  }
  return parts.reverse();
}

/** Subschema keywords holding one schema (JSON Schema 2020-12, and `items` of older drafts). */
const ONE_SCHEMA = [
  'items',
  'additionalItems',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
] as const;
/** Subschema keywords holding a list of schemas (`items` as a tuple, in older drafts). */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'] as const;
/** Subschema keywords holding schemas by name. */
const SCHEMA_MAPS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  // Draft 7's `dependencies` holds schemas or lists of names: only objects are schemas.
  'dependencies',
] as const;
const SUBSCHEMA_KEYWORDS = new Set<string>([...ONE_SCHEMA, ...SCHEMA_LISTS, ...SCHEMA_MAPS]);

/** Whether a schema has a keyword holding subschemas: most have none, and ask for no lookups. */
function hasSubschemas(schema: Record<string, unknown>): boolean {
  for (const key in schema) if (SUBSCHEMA_KEYWORDS.has(key)) return true;
  return false;
}
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'];

/**
 * Visits every schema of an OpenAPI 3.x document (3.0, 3.1 or 3.2): those of components,
 * parameters, headers, bodies and responses of every path, webhook and callback, and their
 * subschemas. A `$ref` is not followed (its target is visited where it is written), and an
 * object reached twice (a YAML alias) is visited once.
 * @example eachSchema(document, (schema) => delete schema.nullable)
 */
export function eachSchema(document: unknown, visit: SchemaVisitor): void {
  const seen = new Set<object>();
  // Walked with a stack of its own, in the same order as recursion would: a schema nested
  // thousands of levels deep (or a chain of thousands of references, once resolved) would
  // overflow the call stack. Values and their places are two stacks: a walk of a large
  // document's schemas allocates little.
  const values: unknown[] = [];
  const links: Link[] = [];
  const schema = (root: unknown, at: Where): void => {
    values.push(root);
    links.push({ up: undefined, segments: at });
    while (values.length > 0) {
      const value = values.pop();
      const link = links.pop() as Link;
      if (!isJsonObject(value) || seen.has(value)) continue;
      seen.add(value);
      let place: Where | undefined;
      visit(value, () => (place ??= placeOf(link)));
      if (!hasSubschemas(value)) continue;
      // Children pushed in order, then that stretch of the stacks reversed: the first on top.
      const from = values.length;
      for (const key of ONE_SCHEMA) {
        const item = value[key];
        if (isJsonObject(item)) {
          values.push(item);
          links.push({ up: link, segments: key });
        }
      }
      for (const key of SCHEMA_LISTS) {
        const list = value[key];
        if (Array.isArray(list))
          for (let index = 0; index < list.length; index++) {
            values.push(list[index]);
            links.push({ up: link, segments: key, name: index });
          }
      }
      for (const key of SCHEMA_MAPS) {
        const map = value[key];
        if (isJsonObject(map))
          for (const name of Object.keys(map)) {
            values.push(map[name]);
            links.push({ up: link, segments: key, name });
          }
      }
      for (let low = from, high = values.length - 1; low < high; low++, high--) {
        const lower = values[low];
        values[low] = values[high];
        values[high] = lower;
        const lowerLink = links[low] as Link;
        links[low] = links[high] as Link;
        links[high] = lowerLink;
      }
    }
  };

  const media = (value: unknown, where: Where): void => {
    if (!isJsonObject(value)) return;
    schema(value.schema, [...where, 'schema']);
    schema(value.itemSchema, [...where, 'itemSchema']);
    eachEntry(value.encoding, (name, encoding) =>
      eachEntry((encoding as Record<string, unknown>).headers, (header, item) =>
        parameter(item, [...where, 'encoding', name, 'headers', header]),
      ),
    );
  };
  // A parameter and a header carry their schema the same way.
  const parameter = (value: unknown, where: Where): void => {
    if (!isJsonObject(value)) return;
    schema(value.schema, [...where, 'schema']);
    eachEntry(value.content, (type, item) => media(item, [...where, 'content', type]));
  };
  const body = (value: unknown, where: Where): void => {
    if (!isJsonObject(value)) return;
    eachEntry(value.content, (type, item) => media(item, [...where, 'content', type]));
  };
  const response = (value: unknown, where: Where): void => {
    if (!isJsonObject(value)) return;
    body(value, where);
    eachEntry(value.headers, (name, item) => parameter(item, [...where, 'headers', name]));
  };
  const callbacks = (value: unknown, where: Where): void =>
    eachEntry(value, (name, callback) =>
      eachEntry(callback, (expression, item) => pathItem(item, [...where, name, expression])),
    );
  const operation = (value: unknown, where: Where): void => {
    if (!isJsonObject(value)) return;
    eachItem(value.parameters, (i, item) => parameter(item, [...where, 'parameters', i]));
    body(value.requestBody, [...where, 'requestBody']);
    eachEntry(value.responses, (status, item) => response(item, [...where, 'responses', status]));
    callbacks(value.callbacks, [...where, 'callbacks']);
  };
  const pathItem = (value: unknown, where: Where): void => {
    if (!isJsonObject(value)) return;
    eachItem(value.parameters, (i, item) => parameter(item, [...where, 'parameters', i]));
    for (const method of METHODS) operation(value[method], [...where, method]);
    eachEntry(value.additionalOperations, (method, item) =>
      operation(item, [...where, 'additionalOperations', method]),
    );
  };

  if (!isJsonObject(document)) return;
  eachEntry(document.paths, (path, item) => pathItem(item, ['paths', path]));
  eachEntry(document.webhooks, (name, item) => pathItem(item, ['webhooks', name]));
  const components = document.components;
  if (!isJsonObject(components)) return;
  const at = (kind: string, each: (value: unknown, where: Where) => void) =>
    eachEntry(components[kind], (name, item) => each(item, ['components', kind, name]));
  at('schemas', schema);
  at('parameters', parameter);
  at('headers', parameter);
  at('requestBodies', body);
  at('responses', response);
  at('mediaTypes', media);
  at('pathItems', pathItem);
  at('callbacks', (value, where) =>
    eachEntry(value, (expression, item) => pathItem(item, [...where, expression])),
  );
}

function eachEntry(value: unknown, each: (key: string, item: unknown) => void): void {
  if (isJsonObject(value)) for (const [key, item] of Object.entries(value)) each(key, item);
}

function eachItem(value: unknown, each: (index: number, item: unknown) => void): void {
  if (Array.isArray(value)) value.forEach((item, index) => each(index, item));
}

/**
 * What follows `prefix` in each `$ref` of a value that starts with it, walked with a stack of
 * its own, each object once (a copy may share the values it keeps, a YAML alias a whole part).
 * @example referencesUnder({ items: { $ref: '#/$defs/s3' } }, '#/$defs/') // ['s3']
 */
export function referencesUnder(value: unknown, prefix: string): string[] {
  const found: string[] = [];
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node as unknown[]) stack.push(item);
      continue;
    }
    for (const [key, inner] of Object.entries(node)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(prefix))
        found.push(inner.slice(prefix.length));
      else if (typeof inner === 'object') stack.push(inner);
    }
  }
  return found;
}
