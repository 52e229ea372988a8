import { setField } from '../vocabulary/record.js';
import { kindOf, type Kind } from './data-refs.js';

/** The walk meets what the resolver would read otherwise than a plain copy: it reads it. */
const NEEDS_RESOLVER = Symbol('needs the resolver');

/** References followed from one to the next before the chain is taken for a loop. */
const MAX_CHAIN = 64;

/**
 * A copy of a document with every `$ref` to a place in the document (`#/…`) replaced by the
 * copy of its target, as the resolver (json-schema-ref-parser's dereference, circular
 * references kept as cycles) makes it, in one walk: the target of several `$ref`s is one
 * object, a recursive schema contains itself, and a `$ref` inside data (examples, defaults,
 * enums, consts; see data-refs.ts) is a key of the value. Undefined when the document needs
 * the resolver: a `$ref` to another file or a URL, with keywords beside it, to nothing, through
 * another `$ref` or to itself, which the resolver reads in ways of its own.
 * @example resolvedLocally({ a: { $ref: '#/b' }, b: { type: 'string' } }) // { a: B, b: B }, B = { type: 'string' }
 */
export function resolvedLocally(document: object): Record<string, unknown> | undefined {
  if (isReference(document)) return undefined;
  const copies = new Map<object, object>();
  const filled = new Set<object>();
  const stack: { value: object; kind: Kind }[] = [{ value: document, kind: 'keywords' }];
  const copyOf = (value: object): object => {
    let copy = copies.get(value);
    if (!copy) copies.set(value, (copy = Array.isArray(value) ? [] : {}));
    return copy;
  };
  /** What a child takes in the copy; its object is filled when the walk reaches it. */
  const childOf = (value: unknown, kind: Kind): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype)
      return structuredClone(value);
    if (kind !== 'data' && isReference(value)) {
      const ref = value.$ref;
      if (ref[0] !== '#') throw NEEDS_RESOLVER;
      // `#name` is no JSON pointer: the resolver leaves it an object like another.
      if (ref === '#' || ref.startsWith('#/')) {
        const target = targetOf(document, value);
        return typeof target === 'object' && target !== null ? copyOf(target) : target;
      }
    }
    stack.push({ value, kind });
    return copyOf(value);
  };
  try {
    for (let top = stack.pop(); top; top = stack.pop()) {
      const { value, kind } = top;
      if (filled.has(value)) continue;
      filled.add(value);
      const copy = copyOf(value);
      if (Array.isArray(value)) {
        const itemKind = kind === 'data' ? 'data' : 'keywords';
        const items = copy as unknown[];
        for (let index = 0; index < value.length; index++)
          items[index] = childOf(value[index], itemKind);
      } else {
        const object = value as Record<string, unknown>;
        const target = copy as Record<string, unknown>;
        // The resolver's data comes back with its `$ref` key last (hidden, then put back).
        const last = kind === 'data' && '$ref' in object;
        for (const key of Object.keys(object))
          if (!last || key !== '$ref') {
            const child = object[key];
            setField(target, key, childOf(child, kindOf(kind, key, child)));
          }
        if (last) target.$ref = childOf(object.$ref, 'data');
      }
    }
  } catch (err) {
    if (err === NEEDS_RESOLVER) return undefined;
    throw err;
  }
  return copyOf(document) as Record<string, unknown>;
}

interface Reference {
  $ref: string;
}

function isReference(value: object): value is Reference {
  const ref = (value as { $ref?: unknown }).$ref;
  return typeof ref === 'string' && ref.length > 0;
}

/**
 * The value a plain `$ref` (nothing beside it) names in the document, a chain of such `$ref`s
 * followed to its end; throws NEEDS_RESOLVER for any other.
 */
function targetOf(document: object, reference: Reference): unknown {
  let current: Reference = reference;
  for (let hops = 0; hops < MAX_CHAIN; hops++) {
    const ref = current.$ref;
    if (Object.keys(current).length > 1 || ref.indexOf('#', 1) !== -1) throw NEEDS_RESOLVER;
    let value: unknown = document;
    if (ref !== '#')
      for (const token of ref.slice(2).split('/')) {
        if (typeof value !== 'object' || value === null || isReference(value)) throw NEEDS_RESOLVER;
        const name = tokenOf(token);
        const next = Object.hasOwn(value, name)
          ? (value as Record<string, unknown>)[name]
          : undefined;
        if (next === undefined || next === null) throw NEEDS_RESOLVER;
        value = next;
      }
    if (typeof value !== 'object' || value === null || !isReference(value)) return value;
    if (value.$ref[0] !== '#' || !(value.$ref === '#' || value.$ref.startsWith('#/')))
      throw NEEDS_RESOLVER;
    current = value;
  }
  throw NEEDS_RESOLVER;
}

/** A pointer's segment as the resolver reads it: `~1` and `~0` unescaped, then percent-decoded. */
function tokenOf(segment: string): string {
  const unescaped = segment.replaceAll('~1', '/').replaceAll('~0', '~');
  try {
    return decodeURIComponent(unescaped);
  } catch {
    return unescaped;
  }
}
