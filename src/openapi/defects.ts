import { fullFormats } from 'ajv-formats/dist/formats.js';
import { URI_FORMATS } from './formats.js';
import { alikeArmsMerger } from './alike-arms.js';
import { formatRuledOut } from './format-patterns.js';
import { openArmsReader } from './open-arms.js';
import type { SchemaObject } from './load.js';
import { closedParts, requiredUndeclared, selfClosedOverParts } from './schema-trees.js';
import { eachSchema, type Where } from './schema-walk.js';
import { fragmentOf } from './json-pointer.js';

/**
 * What of a resolved document the mock reads leniently or leaves out, one line for each kind:
 * a schema closed by `additionalProperties: false` over properties that another part of its
 * `allOf` declares (a closed base extended by `allOf`, or a closed whole of open parts), which
 * no value could meet, is read as closing the whole instead (`unevaluatedProperties: false`);
 * the arms of a `oneOf` that differ only by annotations are read once (see mergeAlikeArms);
 * a `oneOf` of objects that require nothing is read as `anyOf` (see openArmsReader).
 * @example lenientReadings(spec.resolved) // ['additionalProperties: false closes a schema over properties declared in another part of its allOf, 3 times (first at #/components/schemas/Pet): ...']
 */
export function lenientReadings(resolved: object): string[] {
  // One walk for both kinds of schema: a walk of a large document's schemas is costly.
  const counts = new Map<string, number>();
  const closed: Where[] = [];
  const ruledOut: Where[] = [];
  const undeclared: Where[] = [];
  const alike = alikeArmsMerger();
  const open = openArmsReader();
  eachSchema(resolved, (schema, where) => {
    alike.visit(schema, where);
    open.visit(schema, where);
    const read = schema as SchemaObject;
    const { format } = read as { format?: unknown };
    if (typeof format === 'string' && !CHECKED_FORMATS.has(format))
      counts.set(format, (counts.get(format) ?? 0) + 1);
    if (closedParts(read).size > 0 || selfClosedOverParts(read)) closed.push(where());
    if (formatRuledOut(read)) ruledOut.push(where());
    if (requiredUndeclared(read).length > 0) undeclared.push(where());
  });
  return [
    ...alike.warnings(),
    ...open.warnings(),
    ...closedOverParts(closed),
    ...formatsRuledOut(ruledOut),
    ...requiredButUndeclared(undeclared),
    ...uncheckedFormats(counts),
  ];
}

/** The formats the mock checks (ajv-formats' and OpenAPI's own, as schemas.ts adds them). */
const CHECKED_FORMATS = new Set([
  ...Object.keys(fullFormats),
  ...Object.keys(URI_FORMATS),
  'int32',
  'int64',
  'float',
  'double',
]);

/**
 * Formats no check knows (`unixtime`, a vendor's own, `int32` on a string): one line
 * naming them, with how often each is used; values of them are checked by their type alone.
 */
function uncheckedFormats(counts: ReadonlyMap<string, number>): string[] {
  if (counts.size === 0) return [];
  const named = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([format, count]) => `${format} (${count})`);
  return [
    `${counts.size === 1 ? 'a format' : `${counts.size} formats`} the mock does not check: ${named.join(', ')}${counts.size > 5 ? ', ...' : ''}: their values are checked by their type alone`,
  ];
}

function closedOverParts(closed: readonly Where[]): string[] {
  if (closed.length === 0) return [];
  const count = closed.length === 1 ? 'once' : `${closed.length} times`;
  return [
    `additionalProperties: false closes a schema over properties declared in another part of its allOf, ${count} (first at ${fragmentOf(closed[0] ?? [])}): no value could meet it, so it is read as closing the whole instead`,
  ];
}

function formatsRuledOut(places: readonly Where[]): string[] {
  if (places.length === 0) return [];
  const count = places.length === 1 ? 'once' : `${places.length} times`;
  return [
    `a format that its pattern rules out, ${count} (first at ${fragmentOf(places[0] ?? [])}): no value could meet both, so the format is read as an annotation and the pattern checked alone`,
  ];
}

function requiredButUndeclared(places: readonly Where[]): string[] {
  if (places.length === 0) return [];
  const count = places.length === 1 ? 'once' : `${places.length} times`;
  return [
    `additionalProperties: false closes a schema over properties it requires and declares nowhere, ${count} (first at ${fragmentOf(places[0] ?? [])}): no value could meet it, so they are read as declared, of any value`,
  ];
}
