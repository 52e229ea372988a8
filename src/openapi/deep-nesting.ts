// A document nested deeper than any reader of it can follow: what lies below a bound is read
// as any value, with a warning, before anything walks it.
import { pointerOf, type Where } from './schema-walk.js';

/**
 * How deep a parsed document may nest, in JSON levels (an object or an array each): far deeper
 * than real descriptions, well short of where the recursive readers overflow the call stack
 * (the measurements: decisions/033-comments-say-why.md).
 */
const MAX_NESTING = 256;

/**
 * Replaces every object or array of `document` nested `limit` levels deep by an empty one (a
 * schema there becomes `{}`, any value), in place, walking with a stack of its own; the line
 * that says so, or undefined when nothing was that deep.
 * @example cutDeepNesting(parsed) // 'the document nests deeper than 256 levels (first at #/components/schemas/Deep/properties/inner/...): 1 value there is read as any value'
 */
export function cutDeepNesting(document: unknown, limit = MAX_NESTING): string | undefined {
  let cut = 0;
  let first: Where | undefined;
  // A YAML alias shares one object between places: it is walked once.
  const seen = new WeakSet<object>();
  // Each node with a link to where it sits, made into a place only for the first cut: copying a
  // place for every node was most of the walk's time.
  const stack: { node: object; depth: number; at: Link | undefined }[] = [];
  if (typeof document === 'object' && document !== null)
    stack.push({ node: document, depth: 1, at: undefined });
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { node, depth, at } = next;
    if (seen.has(node)) continue;
    seen.add(node);
    const record = node as Record<string, unknown>;
    for (const key in record) {
      const value = record[key];
      if (typeof value !== 'object' || value === null) continue;
      if (depth + 1 < limit) {
        stack.push({ node: value, depth: depth + 1, at: { up: at, key } });
        continue;
      }
      if (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0) continue;
      record[key] = Array.isArray(value) ? [] : {};
      cut += 1;
      first ??= placeOf({ up: at, key });
    }
  }
  if (cut === 0 || !first) return undefined;
  // The place's first segments: the whole pointer is as long as the nesting.
  const shown = first.length > 8 ? `${pointerOf(first.slice(0, 8))}/…` : pointerOf(first);
  return `the document nests deeper than ${limit} levels (first under ${shown}): ${cut} ${cut === 1 ? 'value there is' : 'values there are'} read as any value`;
}

/** A place as a link to the one above it (see cutDeepNesting). */
interface Link {
  readonly up: Link | undefined;
  readonly key: string;
}

function placeOf(link: Link): Where {
  const keys: string[] = [];
  for (let at: Link | undefined = link; at !== undefined; at = at.up) keys.push(at.key);
  return keys.reverse();
}
