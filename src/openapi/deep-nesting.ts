// A document nested deeper than any reader of it can follow: what lies below a bound is read
// as any value, with a warning, before anything walks it.
import { type Where } from './schema-walk.js';
import { fragmentOf } from './json-pointer.js';

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
  if (typeof document !== 'object' || document === null) return undefined;
  let cut = 0;
  let first: { parent: object; key: string } | undefined;
  // A YAML alias shares one object between places: it is walked once. Nodes and their depths
  // are two stacks, and the place of the first cut is found afterwards: an object for every
  // node was most of the walk's time.
  const seen = new Set<object>();
  const nodes: object[] = [document];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop() as object;
    const depth = depths.pop() as number;
    if (seen.has(node)) continue;
    seen.add(node);
    const record = node as Record<string, unknown>;
    for (const key in record) {
      const value = record[key];
      if (typeof value !== 'object' || value === null) continue;
      if (depth + 1 < limit) {
        nodes.push(value);
        depths.push(depth + 1);
        continue;
      }
      if (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0) continue;
      record[key] = Array.isArray(value) ? [] : {};
      cut += 1;
      first ??= { parent: node, key };
    }
  }
  if (cut === 0 || !first) return undefined;
  const place = [...placeOf(document, first.parent), first.key];
  // The place's first segments: the whole pointer is as long as the nesting.
  const shown = place.length > 8 ? `${fragmentOf(place.slice(0, 8))}/…` : fragmentOf(place);
  return `the document nests deeper than ${limit} levels (first under ${shown}): ${cut} ${cut === 1 ? 'value there is' : 'values there are'} read as any value`;
}

/** Where the walk of cutDeepNesting met an object: the same walk, each node with its place. */
function placeOf(document: object, wanted: object): Where {
  const seen = new Set<object>();
  const stack: { node: object; at: string[] }[] = [{ node: document, at: [] }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { node, at } = next;
    if (node === wanted) return at;
    if (seen.has(node)) continue;
    seen.add(node);
    const record = node as Record<string, unknown>;
    for (const key in record) {
      const value = record[key];
      if (typeof value === 'object' && value !== null)
        stack.push({ node: value, at: [...at, key] });
    }
  }
  return [];
}
