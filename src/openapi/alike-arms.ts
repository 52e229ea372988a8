import { type SchemaVisitor } from './schema-walk.js';
import { fragmentOf } from './json-pointer.js';

/** Keywords that describe a schema without constraining its values. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'example',
  'examples',
  '$comment',
  'deprecated',
  'externalDocs',
  'xml',
  'default',
]);

/** Keywords whose keys are names the author chose (a property named `title`), never annotations. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
/** Keywords whose values are data, read whole. */
const DATA = new Set(['enum', 'const']);

/** The most nodes read of one arm to tell it from another; a larger arm is kept as it is. */
const NODE_BUDGET = 2_000;

/**
 * mergeAlikeArms as a visitor, for a walk of the schemas made for other reasons too (each walk
 * of a large document is a tenth of a second): `visit` each schema, then ask for the warnings.
 */
export function alikeArmsMerger(): { visit: SchemaVisitor; warnings: () => string[] } {
  const places: string[] = [];
  // An arm is usually a named schema, met in many unions: read once.
  const keys = new Map<unknown, string | undefined>();
  const keyOfArm = (arm: unknown) => {
    if (!keys.has(arm)) keys.set(arm, keyOf(arm));
    return keys.get(arm);
  };
  const visit: SchemaVisitor = (schema, where) => {
    const arms = schema.oneOf;
    if (!Array.isArray(arms) || arms.length < 2) return;
    const seen = new Set<string>();
    const kept = arms.filter((arm) => {
      const key = keyOfArm(arm);
      if (key === undefined) return true;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (kept.length === arms.length) return;
    schema.oneOf = kept;
    places.push(fragmentOf(where()));
  };
  const warnings = () => {
    if (places.length === 0) return [];
    const count = places.length === 1 ? 'once' : `${places.length} times`;
    return [
      `a oneOf listing the same schema twice (but for its examples or descriptions), which no value can match exactly once: each read once, ${count} (first at ${places[0]})`,
    ];
  };
  return { visit, warnings };
}

/**
 * A text that is the same for two schemas exactly when they constrain values alike (their
 * annotations and extensions left out); undefined when the schema is too large to read within
 * the budget. A cycle is written as the depth it returns to.
 */
function keyOf(schema: unknown): string | undefined {
  let nodes = 0;
  const stack: object[] = [];
  /** `kind`: a schema (whose annotations are left out), a map of names, or data (read whole). */
  const write = (value: unknown, kind: 'schema' | 'names' | 'data'): string | undefined => {
    if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
    if (++nodes > NODE_BUDGET) return undefined;
    const back = stack.indexOf(value);
    if (back >= 0) return `^${stack.length - back}`;
    stack.push(value);
    try {
      const parts: string[] = [];
      if (Array.isArray(value)) {
        for (const item of value) {
          const part = write(item, kind === 'data' ? 'data' : 'schema');
          if (part === undefined) return undefined;
          parts.push(part);
        }
        return `[${parts.join(',')}]`;
      }
      for (const key of Object.keys(value).sort()) {
        if (kind === 'schema' && (ANNOTATIONS.has(key) || key.startsWith('x-'))) continue;
        const inner =
          kind !== 'schema'
            ? kind === 'data'
              ? 'data'
              : 'schema'
            : NAME_MAPS.has(key)
              ? 'names'
              : DATA.has(key)
                ? 'data'
                : 'schema';
        const part = write((value as Record<string, unknown>)[key], inner);
        if (part === undefined) return undefined;
        parts.push(`${JSON.stringify(key)}:${part}`);
      }
      return `{${parts.join(',')}}`;
    } finally {
      stack.pop();
    }
  };
  return write(schema, 'schema');
}
