import { hideDataRefs } from './data-refs.js';
import { escapeToken, fragmentTokens } from './json-pointer.js';

/**
 * Where a `$ref` of the document points into the document itself at nothing (DocuSign's
 * eSignature description refers to `#/definitions/offlineAttributes`, which it never
 * defines): each such reference to a named schema is read as a schema that allows any value, its siblings
 * kept, and one warning says which pointers were missing. The document is changed in place.
 * References inside data (examples, defaults) are values, and left alone; a reference to
 * another file or a URL that cannot be read stays an error: that is the user's setup.
 * @example mendDanglingRefs(document) // ['a $ref to nothing in the document, read as any value: #/definitions/offlineAttributes (2 times, first at #/definitions/envelope/properties/offline)']
 */
export function mendDanglingRefs(document: object): string[] {
  const restore = hideDataRefs(document);
  const missing = new Map<string, { count: number; first: string }>();
  try {
    const stack: { value: unknown; at: string }[] = [{ value: document, at: '#' }];
    const seen = new Set<object>();
    for (let top = stack.pop(); top; top = stack.pop()) {
      const { value, at } = top;
      if (typeof value !== 'object' || value === null || seen.has(value)) continue;
      seen.add(value);
      const object = value as Record<string, unknown>;
      const ref = object.$ref;
      if (typeof ref === 'string' && SCHEMA_POINTER.test(ref) && !resolves(document, ref)) {
        const known = missing.get(ref);
        if (known) known.count++;
        else missing.set(ref, { count: 1, first: at });
        delete object.$ref;
      }
      for (const [key, child] of Object.entries(object))
        stack.push({
          value: child,
          at: `${at}/${escapeToken(key)}`,
        });
    }
  } finally {
    restore();
  }
  return [...missing].map(
    ([ref, { count, first }]) =>
      `a $ref to nothing in the document, read as any value: ${ref} (${count === 1 ? 'once' : `${count} times`}, first at ${first})`,
  );
}

/**
 * A pointer to a named schema: only a schema can be read as "any value" (a response or a
 * path item to nothing stays an error).
 */
const SCHEMA_POINTER = /^#\/(components\/schemas|definitions|\$defs)\/[^/]+$/;

/**
 * Whether a local JSON pointer (`#/components/schemas/Pet`) names something in the document,
 * through the references on its way (`#/components/schemas/Alias/properties/id`).
 */
function resolves(document: object, ref: string, hops = 0): boolean {
  const path = ref.slice(1);
  // An anchor (`#pet`) is the resolver's to judge; a chain this long, a loop.
  if (!path.startsWith('/') || hops > 32) return true;
  const tokens = fragmentTokens(ref) ?? [];
  let node: unknown = document;
  for (const [index, token] of tokens.entries()) {
    if (typeof node !== 'object' || node === null) return false;
    const object = node as Record<string, unknown>;
    if (Object.hasOwn(object, token)) node = object[token];
    else if (typeof object.$ref === 'string' && object.$ref.startsWith('#/')) {
      const rest = tokens.slice(index).map(escapeToken);
      return resolves(document, `${object.$ref}/${rest.join('/')}`, hops + 1);
    } else return false;
  }
  return true;
}
