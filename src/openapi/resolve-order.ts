// The order the `$ref` resolver meets a document's parts in. It follows each reference into its
// target at once, recursively, unless the target was resolved before: a chain of thousands of
// named schemas (each referring to the next) met at its head overflowed the call stack ("has a
// $ref that cannot be resolved: Maximum call stack size exceeded"), met at its tail it is one
// level at a time. Used only for a document whose resolving overflowed (load.ts resolveCopy).
import { isJsonObject } from '../vocabulary/record.js';
import { referencesUnder } from './schema-walk.js';
import { fragmentTokens } from './json-pointer.js';

const SCHEMA_REF = '#/components/schemas/';

/**
 * The document with its components first and its named schemas ordered so that a schema comes
 * after those it refers to (a depth-first post-order of their references; a recursion keeps its
 * first-met order). Only the order of keys changes: the same objects, in a new root and a new
 * `components` and `components.schemas`.
 * @example orderedForResolving({ paths, components: { schemas: { A: refToB, B } } }) // { components: { schemas: { B, A } }, paths }
 */
export function orderedForResolving(document: Record<string, unknown>): Record<string, unknown> {
  const components = document.components;
  if (!isJsonObject(components) || !isJsonObject(components.schemas)) return document;
  const schemas = components.schemas;
  const names = Object.keys(schemas);
  const refersTo = (name: string): string[] =>
    referencesUnder(schemas[name], SCHEMA_REF)
      .map(nameIn)
      .filter((target) => target in schemas);
  const ordered: string[] = [];
  const entered = new Set<string>();
  for (const start of names) {
    if (entered.has(start)) continue;
    // Depth-first, with a stack of its own: a schema is placed once all it refers to are.
    const stack: { name: string; next: string[] }[] = [{ name: start, next: refersTo(start) }];
    entered.add(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as (typeof stack)[number];
      const target = top.next.pop();
      if (target === undefined) {
        stack.pop();
        ordered.push(top.name);
      } else if (!entered.has(target)) {
        entered.add(target);
        stack.push({ name: target, next: refersTo(target) });
      }
    }
  }
  const sortedSchemas = Object.fromEntries(ordered.map((name) => [name, schemas[name]]));
  const otherComponents = Object.entries(components).filter(([key]) => key !== 'schemas');
  const rest = Object.entries(document).filter(([key]) => key !== 'components');
  return {
    components: { schemas: sortedSchemas, ...Object.fromEntries(otherComponents) },
    ...Object.fromEntries(rest),
  };
}

/** The schema name a pointer's first segment holds, unescaped (`a~1b` is `a/b`). */
function nameIn(pointer: string): string {
  return fragmentTokens(`#/${pointer.split('/')[0] ?? ''}`)?.[0] ?? '';
}
