/**
 * Keywords whose values are data, never part of the description: a `$ref` key inside them is
 * a key of the value (a SCIM example carries `"$ref": "https://..."` as data),
 * not a reference to resolve or fetch. A schema's `examples` is an array of values; an
 * Example Object's `value` is one (see DATA_BELOW).
 */
const DATA = new Set(['example', 'default', 'const', 'enum']);

/**
 * Keywords whose keys are names the author chose, not keywords: a property named `example`
 * is a schema, and its `$ref` a reference.
 */
const NAMES = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
  'schemas',
  'responses',
  'parameters',
  'headers',
  'content',
  'links',
  'callbacks',
  'encoding',
  'requestBodies',
  'securitySchemes',
  'pathItems',
  'paths',
  'webhooks',
  'variables',
  'mapping',
]);

/** Where a `$ref` key of a value waits while references are resolved. */
const HIDDEN = '\u0000$ref';

/**
 * Renames, in place, every `$ref` key found inside data (examples, defaults, enums, consts)
 * so that a resolver takes it for no reference, and returns the function that puts them back.
 * The resolver changes only the objects that hold references, so the renamed objects are the
 * same ones afterwards, wherever they end up.
 * @example const restore = hideDataRefs(document); await resolve(document); restore();
 */
export function hideDataRefs(document: object): () => void {
  return hideDataRefsSeeing(document).restore;
}

/**
 * hideDataRefs, and whether a reference of the document (not of its data) names another file
 * or a URL: when none does, the resolver need not look for them (a walk of the whole document).
 * @example const { restore, external } = hideDataRefsSeeing(document);
 */
export function hideDataRefsSeeing(document: object): { restore: () => void; external: boolean } {
  let external = false;
  const hidden: Record<string, unknown>[] = [];
  const stack: Place[] = [{ value: document, kind: 'keywords' }];
  const seen = new Set<object>();
  for (let top = stack.pop(); top; top = stack.pop()) {
    const { value, kind } = top;
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const item of value)
        stack.push({ value: item, kind: kind === 'data' ? 'data' : 'keywords' });
      continue;
    }
    const object = value as Record<string, unknown>;
    if (kind === 'data' && '$ref' in object) {
      object[HIDDEN] = object.$ref;
      delete object.$ref;
      hidden.push(object);
    } else if (typeof object.$ref === 'string' && !object.$ref.startsWith('#')) external = true;
    for (const [key, child] of Object.entries(object))
      stack.push({ value: child, kind: kindOf(kind, key, child) });
  }
  const restore = () => {
    for (const object of hidden) {
      object.$ref = object[HIDDEN];
      Reflect.deleteProperty(object, HIDDEN);
    }
  };
  return { restore, external };
}

/**
 * What an object of the document is: keywords of OpenAPI or JSON Schema, a map of names the
 * author chose, a map of Example Objects, one Example Object, or data.
 */
export type Kind = 'keywords' | 'names' | 'example-names' | 'example' | 'data';

interface Place {
  value: unknown;
  kind: Kind;
}

/** What the value under `key` of an object of this kind is. */
export function kindOf(kind: Kind, key: string, child: unknown): Kind {
  switch (kind) {
    case 'data':
      return 'data';
    case 'names':
      return 'keywords';
    case 'example-names':
      return 'example';
    case 'example':
      if (key === 'value') return 'data';
      break;
  }
  if (DATA.has(key)) return 'data';
  if (key === 'examples') return Array.isArray(child) ? 'data' : 'example-names';
  return NAMES.has(key) ? 'names' : 'keywords';
}
