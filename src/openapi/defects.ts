import type { SchemaObject } from './load.js';
import { closedParts, selfClosedOverParts } from './schema-trees.js';
import { eachSchema, pointerOf, type Where } from './schema-walk.js';

/**
 * Defects of a resolved document that the mock reads leniently, one line for each kind: a
 * schema closed by `additionalProperties: false` over properties that another part of its
 * `allOf` declares (a closed base extended by `allOf`, or a closed whole of open parts), which
 * no value could meet, is read as closing the whole instead (`unevaluatedProperties: false`).
 * @example lenientReadings(spec.resolved) // ['additionalProperties: false closes a schema over properties declared in another part of its allOf, 3 times (first at #/components/schemas/Pet): ...']
 */
export function lenientReadings(resolved: object): string[] {
  const closed: Where[] = [];
  eachSchema(resolved, (schema, where) => {
    const read = schema as SchemaObject;
    if (closedParts(read).size > 0 || selfClosedOverParts(read)) closed.push(where);
  });
  if (closed.length === 0) return [];
  const count = closed.length === 1 ? 'once' : `${closed.length} times`;
  return [
    `additionalProperties: false closes a schema over properties declared in another part of its allOf, ${count} (first at ${pointerOf(closed[0] ?? [])}): no value could meet it, so it is read as closing the whole instead`,
  ];
}
