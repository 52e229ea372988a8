import type { SchemaObject } from '../openapi/load.js';
import { carries, propertiesOf, requiredOf } from '../openapi/schema-parts.js';
import { inside, report, type DiffRun, type Where } from './change.js';
import { messageRuleId, readerOf, type MessageKind, type Part } from './rules.js';

/**
 * Comparing two resolved schemas (OpenAPI 3.1 semantics, `$ref`s replaced by their targets) of
 * one message. Only what constrains a value is read: descriptions, examples, titles and the
 * names of components are not changes.
 */

/** The JSON types; `integer` is counted as a kind of `number`. */
const ALL_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'string', 'integer'] as const;

/** Lower bounds, upper bounds: a larger lower bound or a smaller upper one accepts less. */
const LOWER_BOUNDS = ['minLength', 'minItems', 'minProperties'] as const;
const UPPER_BOUNDS = ['maxLength', 'maxItems', 'maxProperties'] as const;

type Schema = SchemaObject | boolean;

/**
 * Reports what changed from `old` to `now`, the schemas of one message of `part`, at `where`.
 * Within the message, a pair of schemas is compared once: a recursive schema ends there, and
 * a schema used in many places of a large one is not compared again and again. Another
 * message compares it anew, so that each operation it changes is reported.
 */
export function diffSchemas(
  run: DiffRun,
  part: Part,
  where: Where,
  old: Schema | undefined,
  now: Schema | undefined,
): void {
  compareSchemas({ run, part, seen: new Map() }, where, old, now);
}

/** One comparison of a message's schemas: the (old, new) pairs it has seen. */
interface Walk {
  readonly run: DiffRun;
  readonly part: Part;
  readonly seen: Map<object, Set<object>>;
}

/**
 * Compares a pair and what it contains; true when they were found alike, whole. A pair cut
 * short (met again below itself) is not known alike, nor is any pair above it.
 */
function compareSchemas(
  walk: Walk,
  where: Where,
  old: Schema | undefined,
  now: Schema | undefined,
): boolean {
  const { run, part } = walk;
  const before = asObject(old);
  const after = asObject(now);
  const alike = run.alike[readerOf(part)];
  if (alike.get(before)?.has(after)) return true;
  let pairs = walk.seen.get(before);
  if (pairs?.has(after)) return false;
  if (!pairs) walk.seen.set(before, (pairs = new Set()));
  pairs.add(after);
  const found = run.changes.length;

  const say = (kind: MessageKind, at: Where, message: string) =>
    report(run, messageRuleId(part, kind), at, message);

  compareTypes(say, where, before, after);
  compareEnums(say, where, before, after);
  compareBounds(say, where, before, after);
  compareStrings(say, where, before, after);
  let whole = compareObjects(walk, say, where, before, after);
  const oldItems = firstOf(before, 'items');
  const newItems = firstOf(after, 'items');
  if (isSchema(oldItems) && isSchema(newItems))
    whole = compareSchemas(walk, inside(where, 'items'), oldItems, newItems) && whole;
  whole = compareVariants(walk, say, where, before, after) && whole;
  if (!whole || run.changes.length > found) return false;
  let known = alike.get(before);
  if (!known) alike.set(before, (known = new Set()));
  known.add(after);
  return true;
}

type Say = (kind: MessageKind, where: Where, message: string) => void;

/** `true` is the schema that allows anything, `false` the one that allows nothing. */
function asObject(schema: Schema | undefined): SchemaObject {
  if (schema === false) return { not: {} };
  if (schema === true || schema === undefined || schema === null) return {};
  return schema;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'boolean' || (typeof value === 'object' && value !== null);
}

/** A keyword's value in the schema or, failing that, in one of its `allOf` parts. */
function firstOf(schema: SchemaObject, keyword: string): unknown {
  const own = (schema as Record<string, unknown>)[keyword];
  if (own !== undefined) return own;
  for (const part of (schema.allOf ?? []) as Schema[]) {
    const found = firstOf(asObject(part), keyword);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The types a schema allows, or undefined for any. A schema without `type` that gives
 * properties is read as an object and one that gives items as an array, as their authors mean;
 * one with an enum allows the types of its values; a `oneOf`/`anyOf` the types of its arms.
 */
function typesOf(schema: SchemaObject): Set<string> | undefined {
  let types: Set<string> | undefined;
  for (const part of [schema, ...((schema.allOf ?? []) as Schema[]).map(asObject)]) {
    const declared = part.type === undefined ? [] : [part.type].flat();
    if (declared.length === 0) continue;
    // The parts of an allOf each narrow the value: what they all allow.
    const own = new Set<string>(declared);
    types = types ? new Set([...types].filter((type) => covers(own, type))) : own;
  }
  if (types) return types;
  const values = enumOf(schema);
  if (values) return new Set(values.map((value) => jsonTypeOf(JSON.parse(value) as unknown)));
  const arms = armsOf(schema);
  if (arms) {
    const union = new Set<string>();
    for (const arm of arms) {
      const armTypes = typesOf(asObject(arm));
      if (!armTypes) return undefined;
      for (const type of armTypes) union.add(type);
    }
    return union;
  }
  if (firstOf(schema, 'properties') !== undefined) return new Set(['object']);
  if (firstOf(schema, 'items') !== undefined) return new Set(['array']);
  return undefined;
}

function covers(types: Set<string> | undefined, type: string): boolean {
  return !types || types.has(type) || (type === 'integer' && types.has('number'));
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function describeTypes(types: Set<string> | undefined): string {
  return types ? [...types].sort().join(' or ') || 'nothing' : 'any type';
}

function compareTypes(say: Say, where: Where, before: SchemaObject, after: SchemaObject): void {
  // Types read from the arms of a oneOf/anyOf on both sides: compareVariants tells of those.
  if (armsOf(before) && armsOf(after) && before.type === undefined && after.type === undefined)
    return;
  const old = typesOf(before);
  const now = typesOf(after);
  const from = describeTypes(old);
  const to = describeTypes(now);
  const notNull = (type: string) => type !== 'null';
  const lost = ALL_TYPES.filter((type) => notNull(type) && covers(old, type) && !covers(now, type));
  const gained = ALL_TYPES.filter(
    (type) => notNull(type) && covers(now, type) && !covers(old, type),
  );
  if (lost.length > 0 && gained.length > 0)
    say('type-changed', where, `type changed from ${from} to ${to}`);
  else if (lost.length > 0) say('type-narrowed', where, `type narrowed from ${from} to ${to}`);
  else if (gained.length > 0) say('type-widened', where, `type widened from ${from} to ${to}`);
  // "Any type" already says whether null is allowed.
  if (!old || !now) return;
  if (!covers(old, 'null') && covers(now, 'null'))
    say('nullable-added', where, `may now be null (was ${from})`);
  else if (covers(old, 'null') && !covers(now, 'null'))
    say('nullable-removed', where, `may no longer be null (now ${to})`);
}

/** The values a schema's `enum` or `const` allows, as JSON, null left out (its type says it). */
function enumOf(schema: SchemaObject): string[] | undefined {
  const values = firstOf(schema, 'enum');
  const constant = firstOf(schema, 'const');
  const list = Array.isArray(values) ? values : constant !== undefined ? [constant] : undefined;
  return list?.filter((value) => value !== null).map((value) => JSON.stringify(value));
}

function compareEnums(say: Say, where: Where, before: SchemaObject, after: SchemaObject): void {
  const old = enumOf(before);
  const now = enumOf(after);
  if (!old) {
    if (now) say('enum-added', where, `now only ${now.join(', ')}`);
    return;
  }
  if (!now) return say('enum-removed', where, `no longer limited to ${old.join(', ')}`);
  const removed = old.filter((value) => !now.includes(value));
  const added = now.filter((value) => !old.includes(value));
  if (removed.length > 0)
    say('enum-value-removed', inside(where, 'enum'), `enum value ${removed.join(', ')} removed`);
  if (added.length > 0)
    say('enum-value-added', inside(where, 'enum'), `enum value ${added.join(', ')} added`);
}

/** A number's lower or upper bound: its value and whether the value itself is allowed. */
interface Bound {
  value: number;
  exclusive: boolean;
}

function numericBound(schema: SchemaObject, side: 'lower' | 'upper'): Bound | undefined {
  const inclusive = firstOf(schema, side === 'lower' ? 'minimum' : 'maximum');
  const exclusive = firstOf(schema, side === 'lower' ? 'exclusiveMinimum' : 'exclusiveMaximum');
  const bounds: Bound[] = [];
  if (typeof inclusive === 'number') bounds.push({ value: inclusive, exclusive: false });
  if (typeof exclusive === 'number') bounds.push({ value: exclusive, exclusive: true });
  const sign = side === 'lower' ? 1 : -1;
  // The tighter of the two counts.
  return bounds.sort(
    (a, b) => sign * (b.value - a.value) || Number(b.exclusive) - Number(a.exclusive),
  )[0];
}

/** Whether bound `a` allows less than bound `b` (undefined: no bound). */
function tighter(a: Bound | undefined, b: Bound | undefined, side: 'lower' | 'upper'): boolean {
  if (!a) return false;
  if (!b) return true;
  const sign = side === 'lower' ? 1 : -1;
  return sign * (a.value - b.value) > 0 || (a.value === b.value && a.exclusive && !b.exclusive);
}

function showBound(bound: Bound | undefined, side: 'lower' | 'upper'): string {
  if (!bound) return 'none';
  return `${side === 'lower' ? '>' : '<'}${bound.exclusive ? '' : '='} ${bound.value}`;
}

function compareBounds(say: Say, where: Where, before: SchemaObject, after: SchemaObject): void {
  for (const side of ['lower', 'upper'] as const) {
    const old = numericBound(before, side);
    const now = numericBound(after, side);
    const change = `${side === 'lower' ? 'minimum' : 'maximum'} ${showBound(old, side)} -> ${showBound(now, side)}`;
    if (tighter(now, old, side)) say('bound-tightened', where, `bound tightened: ${change}`);
    else if (tighter(old, now, side)) say('bound-loosened', where, `bound loosened: ${change}`);
  }
  for (const [keywords, side] of [
    [LOWER_BOUNDS, 'lower'],
    [UPPER_BOUNDS, 'upper'],
  ] as const) {
    for (const keyword of keywords) {
      const value = (schema: SchemaObject): Bound | undefined => {
        const found = firstOf(schema, keyword);
        return typeof found === 'number' ? { value: found, exclusive: false } : undefined;
      };
      const old = value(before);
      const now = value(after);
      const change = `${keyword} ${old?.value ?? 'none'} -> ${now?.value ?? 'none'}`;
      if (tighter(now, old, side)) say('bound-tightened', where, `bound tightened: ${change}`);
      else if (tighter(old, now, side)) say('bound-loosened', where, `bound loosened: ${change}`);
    }
  }
  const oldStep = firstOf(before, 'multipleOf');
  const newStep = firstOf(after, 'multipleOf');
  if (oldStep !== newStep) {
    const change = `multipleOf ${String(oldStep ?? 'none')} -> ${String(newStep ?? 'none')}`;
    // Every multiple of the new step must have been a multiple of the old one, and back.
    const divides = (a: unknown, b: unknown) =>
      typeof b !== 'number' || (typeof a === 'number' && a % b === 0);
    if (!divides(newStep, oldStep)) say('bound-tightened', where, `bound tightened: ${change}`);
    else if (!divides(oldStep, newStep)) say('bound-loosened', where, `bound loosened: ${change}`);
  }
  const oldUnique = firstOf(before, 'uniqueItems') === true;
  const newUnique = firstOf(after, 'uniqueItems') === true;
  if (!oldUnique && newUnique) say('bound-tightened', where, 'items must now be unique');
  if (oldUnique && !newUnique) say('bound-loosened', where, 'items need no longer be unique');
}

function compareStrings(say: Say, where: Where, before: SchemaObject, after: SchemaObject): void {
  const old = firstOf(before, 'pattern');
  const now = firstOf(after, 'pattern');
  if (old === undefined && now !== undefined)
    say('pattern-added', inside(where, 'pattern'), `pattern ${String(now)} added`);
  else if (old !== undefined && now === undefined)
    say('pattern-removed', where, `pattern ${String(old)} removed`);
  else if (old !== now)
    say('pattern-changed', inside(where, 'pattern'), `pattern ${String(old)} -> ${String(now)}`);
  const oldFormat = firstOf(before, 'format');
  const newFormat = firstOf(after, 'format');
  if (oldFormat !== newFormat)
    say(
      'format-changed',
      where,
      `format ${String(oldFormat ?? 'none')} -> ${String(newFormat ?? 'none')}`,
    );
}

/** Whether an object schema refuses properties it does not name. */
function closed(schema: SchemaObject): boolean {
  return (
    firstOf(schema, 'additionalProperties') === false ||
    firstOf(schema, 'unevaluatedProperties') === false
  );
}

function compareObjects(
  walk: Walk,
  say: Say,
  where: Where,
  before: SchemaObject,
  after: SchemaObject,
): boolean {
  // The API never reads a readOnly property, and the client never a writeOnly one.
  const unread = readerOf(walk.part) === 'api' ? 'readOnly' : 'writeOnly';
  const read = (schema: SchemaObject) => {
    const properties = propertiesOf(schema);
    const required = requiredOf(schema);
    const names = new Set([...Object.keys(properties), ...required]);
    for (const name of names) {
      const property = properties[name];
      if (property !== undefined && carries(asObject(property), unread)) names.delete(name);
    }
    return { properties, required, names };
  };
  const old = read(before);
  const now = read(after);
  let whole = true;
  for (const name of new Set([...old.names, ...now.names])) {
    const at = inside(where, 'properties', name);
    const wasRequired = old.required.has(name);
    const isRequired = now.required.has(name);
    if (!now.names.has(name)) {
      say(
        wasRequired ? 'required-property-removed' : 'optional-property-removed',
        at,
        `${wasRequired ? 'required' : 'optional'} property ${name} removed`,
      );
      continue;
    }
    if (!old.names.has(name)) {
      if (isRequired) say('required-property-added', at, `required property ${name} added`);
      else say('property-added', at, `optional property ${name} added`);
      continue;
    }
    if (!wasRequired && isRequired)
      say('required-property-added', at, `property ${name} became required`);
    if (wasRequired && !isRequired)
      say('property-became-optional', at, `property ${name} became optional`);
    const oldProperty = old.properties[name];
    const newProperty = now.properties[name];
    if (oldProperty !== undefined || newProperty !== undefined)
      whole = compareSchemas(walk, at, oldProperty, newProperty) && whole;
  }

  const oldOpen = !closed(before);
  const newOpen = !closed(after);
  if (oldOpen && !newOpen)
    say('additional-properties-closed', where, 'properties it does not name are now refused');
  if (!oldOpen && newOpen)
    say('additional-properties-opened', where, 'properties it does not name are now allowed');
  const oldExtra = firstOf(before, 'additionalProperties');
  const newExtra = firstOf(after, 'additionalProperties');
  if (typeof oldExtra === 'object' && typeof newExtra === 'object')
    whole =
      compareSchemas(
        walk,
        inside(where, 'additionalProperties'),
        oldExtra as Schema,
        newExtra as Schema,
      ) && whole;
  return whole;
}

function armsOf(schema: SchemaObject): Schema[] | undefined {
  return (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
}

/**
 * Arms of a `oneOf`/`anyOf` on both sides: compared in order when there are as many, else
 * matched by what they allow, the unmatched ones removed or added.
 */
function compareVariants(
  walk: Walk,
  say: Say,
  where: Where,
  before: SchemaObject,
  after: SchemaObject,
): boolean {
  const old = armsOf(before);
  const now = armsOf(after);
  if (!old || !now) return true;
  const keyword = before.oneOf ? 'oneOf' : 'anyOf';
  if (old.length === now.length)
    return old
      .map((arm, index) => compareSchemas(walk, inside(where, keyword, index), arm, now[index]))
      .every(Boolean);
  const oldPrints = old.map(fingerprint);
  const newPrints = now.map(fingerprint);
  oldPrints.forEach((print, index) => {
    if (!newPrints.includes(print))
      say('variant-removed', inside(where, keyword, index), `${keyword} arm ${index} removed`);
  });
  newPrints.forEach((print, index) => {
    if (!oldPrints.includes(print))
      say('variant-added', inside(where, keyword, index), `${keyword} arm ${index} added`);
  });
  return true;
}

/** Words that do not constrain a value. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'example',
  'examples',
  'default',
  'deprecated',
  'externalDocs',
  'xml',
  '$comment',
]);

/** What a schema allows, as text, annotations and key order left out; cycles cut. */
function fingerprint(schema: Schema): string {
  const path = new Set<object>();
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    if (path.has(value) || depth > 12) return '<cycle>';
    path.add(value);
    const out = Array.isArray(value)
      ? value.map((item) => walk(item, depth + 1))
      : Object.fromEntries(
          Object.keys(value)
            .filter((key) => !ANNOTATIONS.has(key) && !key.startsWith('x-'))
            .sort()
            .map((key) => [key, walk((value as Record<string, unknown>)[key], depth + 1)]),
        );
    path.delete(value);
    return out;
  };
  return JSON.stringify(walk(schema, 0));
}
