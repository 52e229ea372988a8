import type { SchemaObject } from './load.js';
import { formatRuledOut } from './format-patterns.js';
import { carries, propertiesOf, requiredOf } from './schema-parts.js';
import { isJsonObject } from '../vocabulary/record.js';

/**
 * A resolved schema is a graph: the target of many `$ref`s is one object, and a recursive
 * schema contains itself. JSON Schema tools (ajv, json-schema-faker) walk trees. schemaTree
 * copies a schema into a tree: where a schema is met inside itself (and, when asked, in place
 * of schemas kept on their own) it puts a `$ref`, or copies it once more, or leaves it out
 * where the schema allows, as `refer` says; and it hides the properties marked `readOnly` or
 * `writeOnly` as a direction asks.
 */

/** Leave the schema out: an optional property, an array's items (then empty), a union's arm. */
export const CUT = Symbol('cut');

/**
 * What to put in place of a schema met below the root: a `$ref`, CUT, or undefined to copy it
 * here. `depth` counts how many times it is already being copied around this place (0 when it
 * is not met inside itself): a recursive schema needs a `$ref` or CUT in the end. `lazily`
 * says that a reference here is the lazy keyword (see `lazyRef`), whose target is needed only
 * when a check reaches it, where a `$ref`'s is needed when the tree is compiled.
 */
type Refer = (schema: object, depth: number, lazily: boolean) => string | typeof CUT | undefined;

export type Hidden = 'readOnly' | 'writeOnly';

export interface TreeOptions {
  refer: Refer;
  /**
   * Properties carrying this marker, in the schema or its `allOf` parts, are taken out of
   * `required` and refused (with `forbidden` as their schema) or, without it, left out: a
   * client never sends a `readOnly` property, a server never sends a `writeOnly` one.
   */
  hide?: { marker: Hidden; forbidden?: object };
  /**
   * `oneOf` written as `anyOf`, for json-schema-faker, which answers `{}` for a `oneOf` whose
   * arms are `$ref`s: its values are checked against the real schema anyway.
   */
  oneOfAsAnyOf?: boolean;
  /**
   * Called on every copy once it is made, to change it in place (a generator narrows the
   * bounds it would otherwise fill, see sample.ts), or to leave it out where the schema allows
   * (CUT), as a recursion is. The original schema is never changed.
   */
  adjust?: (copy: Record<string, unknown>) => typeof CUT | undefined;
  /**
   * A keyword to put in place of `$ref` where no keyword can need to see inside the schema
   * referred to: `{ [lazyRef]: id }`, whose check compiles that schema on its first use (see
   * schemas.ts). A `$ref` is kept where an `unevaluatedProperties` or `unevaluatedItems` of the
   * same value may need to know what the referred schema evaluates, and, in a tree whose root
   * may itself be referred to (`rootReferred`), on its root's own value.
   */
  lazyRef?: string;
  /** Whether the tree's root is referred to by other trees: see `lazyRef`. @default false */
  rootReferred?: boolean;
  /**
   * How many subschemas deep a copy goes: below, a schema is left out where it may be (CUT), as
   * a recursion is. For a generator, whose trees must end: a chain of thousands of distinct
   * schemas (each `$ref` to the next, resolved) is no recursion, and copied whole it overflowed
   * the call stack. Undefined: no bound (a check's trees, whose named schemas are kept apart).
   */
  maxDepth?: number;
}

/**
 * Keywords dropped from copies: identifiers (every `$ref` is resolved already), definitions
 * only `$ref`s used, and examples, which neither checks nor generation read. Extensions
 * (`x-...`) are dropped too (see isDropped). Examples and extensions are data that may hold
 * anything: ajv reads every key of a schema for `$id`s, so an example whose value carries a
 * `$id` would make two schemas claim one id and move the base of every reference below it.
 */
const DROPPED = new Set([
  '$id',
  '$schema',
  '$anchor',
  '$dynamicAnchor',
  '$defs',
  'definitions',
  'example',
  'examples',
]);

/** Whether a key of a schema is left out of its copies (DROPPED, and every extension). */
const isDropped = (key: string): boolean => DROPPED.has(key) || key.startsWith('x-');
/** Subschemas that may be left out (loosening the copy, which only a generator asks for). */
const OPTIONAL_SCHEMA = new Set(['not', 'if', 'then', 'else', 'contains', 'propertyNames']);
/** Subschemas of what an object may have beyond its properties: left out, it has none. */
const EXTRA_PROPERTIES = new Set(['additionalProperties', 'unevaluatedProperties']);
const ITEMS = new Set(['items', 'additionalItems', 'unevaluatedItems']);
const UNIONS = new Set(['anyOf', 'oneOf']);
const SCHEMA_MAPS = new Set(['patternProperties', 'dependentSchemas', 'dependencies']);

type Copy = Record<string, unknown> | typeof CUT;

/**
 * The schema as a tree (see above).
 * @example schemaTree(node, { refer: (s, depth) => (depth > 0 ? '#/$defs/node' : undefined) })
 */
export function schemaTree(root: SchemaObject, options: TreeOptions): Record<string, unknown> {
  const path = new Map<object, number>();
  // Whether the value being described now may need what a `$ref` here evaluates: it is the
  // root's own value in a tree others refer to, or a schema on it has an `unevaluated*`.
  let evaluating = options.rootReferred ?? false;

  /** Whether a reference here is the lazy keyword: nothing on this value needs to see through it. */
  const lazily = (): boolean => options.lazyRef !== undefined && !evaluating;
  /** `$ref`, or the lazy keyword where `lazily`. */
  const reference = (id: string): Record<string, unknown> =>
    options.lazyRef !== undefined && !evaluating ? { [options.lazyRef]: id } : { $ref: id };

  /** How many copies deep the walk is now (see `maxDepth`). */
  let level = 0;

  /** A subschema; `ofItsOwn` when it describes another value (a property's, an item's). */
  const sub = (value: unknown, ofItsOwn = false): unknown => {
    if (!isJsonObject(value)) return value;
    if (options.maxDepth !== undefined && level >= options.maxDepth) return CUT;
    const outer = evaluating;
    if (ofItsOwn) evaluating = false;
    try {
      const ref = options.refer(value, path.get(value) ?? 0, lazily());
      if (ref === CUT) return CUT;
      if (ref !== undefined) return reference(ref);
      return copy(value as SchemaObject, hiddenOf(value as SchemaObject));
    } finally {
      evaluating = outer;
    }
  };

  /**
   * A part of an `allOf`, read with the properties its whole hides; `reopen` drops its
   * `additionalProperties: false` (see closedParts).
   */
  const part = (value: unknown, hidden: ReadonlySet<string>, reopen: boolean): unknown => {
    if (!isJsonObject(value)) return value;
    const depth = path.get(value) ?? 0;
    if (depth > 0) {
      const ref = options.refer(value, depth, lazily());
      if (ref !== undefined) return ref === CUT ? CUT : reference(ref);
    }
    // A part that the whole hides nothing more of reads the same on its own: it may be a
    // `$ref` (a named schema, compiled once), rather than a copy for each schema using it.
    if (!reopen && !hidesMore(value as SchemaObject, hidden)) return sub(value);
    return copy(value as SchemaObject, hidden, reopen);
  };

  const hidesMore = (schema: SchemaObject, hidden: ReadonlySet<string>): boolean => {
    if (hidden.size === 0) return false;
    const own = hiddenOf(schema);
    const names = [...Object.keys(propertiesOf(schema)), ...requiredOf(schema)];
    return names.some((name) => hidden.has(name) && !own.has(name));
  };

  const hiddenOf = (schema: SchemaObject): ReadonlySet<string> => {
    const hidden = new Set<string>();
    if (options.hide) {
      collectHidden(schema, options.hide.marker, hidden, new Set());
      for (const name of hiddenInEveryKind(schema, options.hide.marker)) hidden.add(name);
    }
    if (options.hide?.marker === 'readOnly') {
      if (isReference(schema, hidden)) return NONE;
      for (const name of requiredWritable(schema, new Set())) hidden.delete(name);
    }
    return hidden;
  };

  const copy = (schema: SchemaObject, hidden: ReadonlySet<string>, reopen = false): Copy => {
    path.set(schema, (path.get(schema) ?? 0) + 1);
    const outer = evaluating;
    evaluating ||= evaluatesOthers(schema);
    level += 1;
    try {
      return copyOf(schema, hidden, reopen);
    } finally {
      level -= 1;
      evaluating = outer;
      const depth = (path.get(schema) ?? 1) - 1;
      if (depth === 0) path.delete(schema);
      else path.set(schema, depth);
    }
  };

  const copyOf = (schema: SchemaObject, hidden: ReadonlySet<string>, reopen: boolean): Copy => {
    const out: Record<string, unknown> = {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const unions: object[] = [];
    // Closed over properties only its parts declare: the whole is closed instead (closedParts).
    const closedOverParts = !reopen && selfClosedOverParts(schema);
    if (closedOverParts) out.unevaluatedProperties = false;
    // A format its pattern rules out is an annotation: its pattern is checked alone.
    const annotatedFormat = formatRuledOut(schema);
    for (const [key, value] of Object.entries(schema)) {
      if (isDropped(key) || (key === 'format' && annotatedFormat)) continue;
      if (key === 'additionalProperties' && (reopen || closedOverParts)) continue;
      if (key === 'properties' && isJsonObject(value)) {
        const properties: Record<string, unknown> = {};
        for (const [name, property] of Object.entries(value)) {
          if (hidden.has(name) && options.hide) {
            if (options.hide.forbidden) properties[name] = options.hide.forbidden;
            continue;
          }
          const tree = sub(property, true);
          if (tree !== CUT) properties[name] = tree;
          else if (required.has(name)) return CUT;
        }
        out.properties = properties;
      } else if (key === 'required' && Array.isArray(value)) {
        out.required = value.filter((name) => !hidden.has(name as string));
      } else if (key === 'allOf' && Array.isArray(value)) {
        const closed = closedParts(schema);
        const parts = value.map((item) => part(item, hidden, closed.has(item)));
        if (parts.includes(CUT)) return CUT;
        out.allOf = parts;
        // The whole is closed instead, as its author meant: unevaluatedProperties sees
        // every property any part declares.
        if (closed.size > 0 && schema.additionalProperties === undefined)
          out.unevaluatedProperties ??= false;
      } else if (UNIONS.has(key) && Array.isArray(value)) {
        const arms = value.map((arm) => sub(arm)).filter((arm) => arm !== CUT);
        if (arms.length === 0) return CUT;
        if (key === 'oneOf' && options.oneOfAsAnyOf) {
          // Beside an anyOf of its own, it is one more condition on the whole.
          if (Array.isArray(schema.anyOf)) unions.push({ anyOf: arms });
          else out.anyOf = arms;
        } else out[key] = arms;
      } else if (key === 'prefixItems' && Array.isArray(value)) {
        const items = value.map((item) => sub(item, true));
        if (items.includes(CUT)) return CUT;
        out[key] = items;
      } else if (key === 'items' && Array.isArray(value)) {
        // A tuple, as drafts before 2020-12 wrote it.
        const items = value.map((item) => sub(item, true));
        if (items.includes(CUT)) return CUT;
        out[key] = items;
      } else if (ITEMS.has(key) && isJsonObject(value)) {
        const items = sub(value, true);
        if (items === CUT) {
          if ((schema.minItems ?? 0) > 0) return CUT;
          out.maxItems = 0;
        } else out[key] = items;
      } else if (EXTRA_PROPERTIES.has(key) && isJsonObject(value)) {
        const extra = sub(value, true);
        out[key] = extra === CUT ? false : extra;
      } else if (OPTIONAL_SCHEMA.has(key) && isJsonObject(value)) {
        const tree = sub(value, key === 'contains' || key === 'propertyNames');
        if (tree !== CUT) out[key] = tree;
      } else if (key === 'contentSchema' && isJsonObject(value)) {
        const tree = sub(value, true);
        if (tree !== CUT) out[key] = tree;
      } else if (SCHEMA_MAPS.has(key) && isJsonObject(value)) {
        const entries: Record<string, unknown> = {};
        for (const [name, item] of Object.entries(value)) {
          const tree = Array.isArray(item) ? item : sub(item, key === 'patternProperties');
          if (tree !== CUT) entries[name] = tree;
        }
        out[key] = entries;
      } else {
        out[key] = value;
      }
    }
    // Required by a closed schema and declared nowhere: read as declared, of any value.
    const undeclared = requiredUndeclared(schema);
    if (undeclared.length > 0)
      out.properties = {
        ...Object.fromEntries(undeclared.map((name) => [name, {}])),
        ...((out.properties as Record<string, unknown> | undefined) ?? {}),
      };
    if (unions.length > 0) out.allOf = [...((out.allOf as unknown[] | undefined) ?? []), ...unions];
    return options.adjust?.(out) ?? out;
  };

  if (!isJsonObject(root)) return root as Record<string, unknown>;
  const tree = copy(root, hiddenOf(root));
  if (tree === CUT) throw new Error('a schema cannot leave itself out');
  return tree;
}

/**
 * Whether a schema's copy has an `unevaluatedProperties` or `unevaluatedItems`, which must see
 * what every schema applied to the same value evaluates (copyOf adds the first for closed parts).
 */
function evaluatesOthers(schema: SchemaObject): boolean {
  return (
    'unevaluatedProperties' in schema ||
    'unevaluatedItems' in schema ||
    selfClosedOverParts(schema) ||
    (schema.additionalProperties === undefined && closedParts(schema).size > 0)
  );
}

/** How the schemas below a root refer to each other (see schemaGraph). */
export interface SchemaGraph {
  /**
   * The schemas met again inside themselves: every recursion passes through one of them, so
   * a tree that puts a `$ref` (or CUT) in place of each is finite.
   */
  readonly points: ReadonlySet<object>;
  /** The schemas held in more than one place: copied into each, a tree can grow exponentially. */
  readonly shared: ReadonlySet<object>;
  /** The schemas from which a recursion point can be reached (the points included). */
  readonly reaching: ReadonlySet<object>;
}

/**
 * @example schemaGraph(node).points // Set { node }
 */
export function schemaGraph(
  root: SchemaObject,
  children: WeakMap<object, readonly object[]> = new WeakMap(),
): SchemaGraph {
  const points = new Set<object>();
  const seen = new Set<object>();
  const shared = new Set<object>();
  const reaching = new Set<object>();
  const open = new Set<object>();
  // Depth-first with an explicit stack: schemas can be deep.
  const stack: { schema: object; children: readonly object[]; next: number }[] = [];
  const enter = (schema: object) => {
    seen.add(schema);
    open.add(schema);
    let below = children.get(schema);
    if (!below) children.set(schema, (below = subschemasOf(schema)));
    stack.push({ schema, children: below, next: 0 });
  };
  if (isJsonObject(root)) enter(root);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as (typeof stack)[number];
    if (top.next >= top.children.length) {
      stack.pop();
      open.delete(top.schema);
      if (points.has(top.schema)) reaching.add(top.schema);
      const parent = stack[stack.length - 1];
      if (parent && reaching.has(top.schema)) reaching.add(parent.schema);
      continue;
    }
    const child = top.children[top.next++] as object;
    if (!seen.has(child)) {
      enter(child);
      continue;
    }
    shared.add(child);
    if (open.has(child)) points.add(child);
    if (open.has(child) || reaching.has(child)) reaching.add(top.schema);
  }
  return { points, shared, reaching };
}

/**
 * The schemas of `among` that the roots are or hold, at any depth, in the order of `among`.
 * @example schemasReached([{ items: pet }], [pet, error]) // [pet]
 */
export function schemasReached(roots: Iterable<unknown>, among: readonly unknown[]): unknown[] {
  const seen = new Set<object>();
  // With a stack of its own: a chain of thousands of schemas would overflow the call stack.
  const stack: object[] = [...roots].filter(isJsonObject);
  while (stack.length > 0) {
    const schema = stack.pop() as object;
    if (seen.has(schema)) continue;
    seen.add(schema);
    for (const child of subschemasOf(schema)) if (!seen.has(child)) stack.push(child);
  }
  return among.filter((schema) => isJsonObject(schema) && seen.has(schema));
}

/** The schemas directly inside a schema, at every keyword that holds schemas. */
function subschemasOf(schema: object): object[] {
  const found: object[] = [];
  for (const key in schema) {
    if (isDropped(key)) continue;
    const value = (schema as Record<string, unknown>)[key];
    if (key === 'properties' || SCHEMA_MAPS.has(key)) {
      if (isJsonObject(value))
        for (const inner of Object.values(value)) if (isJsonObject(inner)) found.push(inner);
    } else if (Array.isArray(value)) {
      if (key === 'allOf' || UNIONS.has(key) || key === 'prefixItems' || key === 'items')
        for (const inner of value) if (isJsonObject(inner)) found.push(inner);
    } else if (
      ITEMS.has(key) ||
      EXTRA_PROPERTIES.has(key) ||
      OPTIONAL_SCHEMA.has(key) ||
      key === 'contentSchema'
    ) {
      if (isJsonObject(value)) found.push(value);
    }
  }
  return found;
}

/**
 * The `allOf` parts closed with `additionalProperties: false` that leave out properties the
 * whole declares elsewhere: read strictly, no value could have both, which is never what the
 * author meant (a common defect: a base schema closed, then extended by `allOf`).
 * @example closedParts({ allOf: [{ properties: { a: {} }, additionalProperties: false }, { properties: { b: {} } }] }).size // 1
 */
export function closedParts(schema: SchemaObject): Set<unknown> {
  const parts = Array.isArray(schema.allOf) ? (schema.allOf as unknown[]) : [];
  const closed = parts.filter(
    (part) => isJsonObject(part) && (part as SchemaObject).additionalProperties === false,
  );
  if (closed.length === 0) return new Set();
  // With the names the whole requires and declares nowhere, read as declared (requiredUndeclared).
  const declared = new Set([...Object.keys(propertiesOf(schema)), ...requiredUndeclared(schema)]);
  return new Set(
    closed.filter((part) => {
      const own = new Set(Object.keys(propertiesOf(part as SchemaObject)));
      return [...declared].some((name) => !own.has(name));
    }),
  );
}

/**
 * Whether a schema closed with `additionalProperties: false` leaves out properties its own
 * `allOf` parts declare: the same defect, from the other side.
 * @example selfClosedOverParts({ additionalProperties: false, allOf: [{ properties: { a: {} } }] }) // true
 */
export function selfClosedOverParts(schema: SchemaObject): boolean {
  if (schema.additionalProperties !== false || !Array.isArray(schema.allOf)) return false;
  const own = new Set(Object.keys(schema.properties ?? {}));
  return Object.keys(propertiesOf(schema)).some((name) => !own.has(name));
}

/**
 * The names a schema closed by `additionalProperties: false` requires that neither it nor its
 * `allOf` parts declare (an update answer requiring a `has_errors` only the create answer
 * declares): no value could meet it, so they are read as declared, of any value.
 * @example requiredUndeclared({ additionalProperties: false, required: ['a'], allOf: [{ properties: { b: {} } }] }) // ['a']
 */
export function requiredUndeclared(schema: SchemaObject): string[] {
  if (schema.additionalProperties !== false || !Array.isArray(schema.required)) return [];
  const declared = new Set<string>();
  collectDeclared(schema, declared, new Set());
  return (schema.required as unknown[]).filter(
    (name): name is string => typeof name === 'string' && !declared.has(name),
  );
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Whether an object a client sends is a reference to another record: every property it declares
 * is the service's (`readOnly`), so its own values are what name that record: a create that
 * names a related record as `{"id": "P1", "type": "service_reference"}`, both read-only, could
 * not be sent were they refused. JSON Schema says a read-only value is one a
 * client cannot change, and a reference changes none: it names. An object with any property a
 * client writes (the record itself, a nested line) keeps its read-only fields refused.
 */
function isReference(schema: SchemaObject, readOnly: ReadonlySet<string>): boolean {
  if (readOnly.size === 0) return false;
  const declared = new Set<string>();
  collectDeclared(schema, declared, new Set());
  // A schema that declares nothing itself (its kinds do: hiddenInEveryKind) names nothing.
  return declared.size > 0 && [...declared].every((name) => readOnly.has(name));
}

/**
 * Names a schema, or one of its `allOf` parts, both requires and declares without `readOnly`:
 * the client's to send, though a base the part extends marks them read-only (a base of
 * read-only fields extended with a `type` the create requires and lists).
 */
function requiredWritable(schema: SchemaObject, seen: Set<object>): string[] {
  if (!isJsonObject(schema) || seen.has(schema)) return [];
  seen.add(schema);
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>;
  const own = (Array.isArray(schema.required) ? (schema.required as string[]) : []).filter(
    (name) => name in properties && !carries(properties[name] as SchemaObject, 'readOnly'),
  );
  const parts = ((schema.allOf ?? []) as SchemaObject[]).flatMap((part) =>
    requiredWritable(part, seen),
  );
  return [...own, ...parts];
}

/**
 * Names a schema requires beside its `oneOf`/`anyOf` without declaring them itself, where every
 * arm that declares one marks it: a record that requires `id` and `created_on` atop a `oneOf`
 * of kinds, each of which marks them read-only, where the same schema is the create's body. Kept required, no documented create could be sent. Each arm
 * still refuses the marked property where it declares it; a name some arm leaves unmarked, or
 * that no arm declares, stays required.
 * @example hiddenInEveryKind({ required: ['id'], oneOf: [{ properties: { id: { readOnly: true } } }] }, 'readOnly') // ['id']
 */
function hiddenInEveryKind(schema: SchemaObject, marker: Hidden): string[] {
  // Cheapest first: it runs for every copy of a large document's schemas.
  const arms = [...((schema.oneOf ?? []) as unknown[]), ...((schema.anyOf ?? []) as unknown[])];
  if (arms.length === 0) return [];
  const named = requiredOf(schema);
  if (named.size === 0) return [];
  const declared = new Set<string>();
  collectDeclared(schema, declared, new Set());
  const required = [...named].filter((name) => !declared.has(name));
  if (required.length === 0) return [];
  const kinds = arms.filter(isJsonObject).map((arm) => {
    const names = new Set<string>();
    const marked = new Set<string>();
    collectDeclared(arm as SchemaObject, names, new Set());
    collectHidden(arm as SchemaObject, marker, marked, new Set());
    return { names, marked };
  });
  return required.filter((name) => {
    const declaring = kinds.filter((kind) => kind.names.has(name));
    return declaring.length > 0 && declaring.every((kind) => kind.marked.has(name));
  });
}

/** Names of the properties this schema or its `allOf` parts declare. */
function collectDeclared(schema: SchemaObject, into: Set<string>, seen: Set<object>): void {
  if (!isJsonObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  for (const name of Object.keys(schema.properties ?? {})) into.add(name);
  for (const part of (schema.allOf ?? []) as SchemaObject[]) collectDeclared(part, into, seen);
}

/** Names of the properties, of this schema or of its `allOf` parts, that carry the marker. */
function collectHidden(
  schema: SchemaObject,
  marker: Hidden,
  into: Set<string>,
  seen: Set<object>,
): void {
  if (!isJsonObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (carries(property as SchemaObject, marker)) into.add(name);
  }
  for (const part of (schema.allOf ?? []) as SchemaObject[])
    collectHidden(part, marker, into, seen);
}
