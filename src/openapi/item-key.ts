// Which property of a record an item path's parameter holds: `/users/{username}` holds the
// `username`, `/books/{bookNumber}` the `number`, `/Calls/{CallSid}.json` the `sid`, and
// `/namespaces/{namespace}/pods/{name}` the `name` within the pod's `metadata`.
import type { SchemaObject } from './load.js';
import { propertiesOf, typesOf } from './schema-parts.js';

/**
 * The words of a name, lower case: `CallSid` and `call_sid` are both `['call', 'sid']`.
 * @example wordsOf('bookNumber') // ['book', 'number']
 */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/**
 * The property of a record that an item parameter names: the property of the same name
 * (words compared, so `call_sid` is `CallSid`), else the one named by the parameter's last
 * words (`bookNumber` holds `number`, `petId` holds `id`, `domain_name` holds `name`), the
 * longest such ending first. Undefined when no property fits: the caller falls back to the id.
 * @example keyPropertyFor('username', ['id', 'username', 'email']) // 'username'
 * @example keyPropertyFor('CallSid', ['sid', 'account_sid', 'to']) // 'sid'
 */
export function keyPropertyFor(
  parameter: string,
  properties: readonly string[],
): string | undefined {
  const byWords = new Map<string, string>();
  for (const property of properties) {
    const key = wordsOf(property).join(' ');
    if (!byWords.has(key)) byWords.set(key, property);
  }
  const words = wordsOf(parameter);
  for (let start = 0; start < words.length; start++) {
    const found = byWords.get(words.slice(start).join(' '));
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The property a parameter written as one word ends in, its words run together
 * (`{variablename}` holds `name`, `{filepath}` the `path`), the longest such ending; for records
 * no other key names (a `{username}` of records with an `id` and a `name` holds the `id`).
 * @example endingPropertyFor('variablename', ['name', 'data']) // 'name'
 */
export function endingPropertyFor(
  parameter: string,
  properties: readonly string[],
): string | undefined {
  const words = wordsOf(parameter);
  const [only] = words;
  if (words.length !== 1 || only === undefined) return undefined;
  let best: { length: number; property: string } | undefined;
  for (const property of properties) {
    const joined = wordsOf(property).join('');
    if (joined.length >= 2 && joined.length < only.length && only.endsWith(joined))
      if (!best || joined.length > best.length) best = { length: joined.length, property };
  }
  return best?.property;
}

/**
 * The property a parameter naming an id names by its initials, for records with no other key
 * (`{keyId}` of a JSON Web Key is its `kid`, a `{user_id}` a `uid`): the first letter of each
 * word before the id word, then that word.
 * @example initialsPropertyFor('keyId', ['kid', 'kty', 'alg']) // 'kid'
 */
export function initialsPropertyFor(
  parameter: string,
  properties: readonly string[],
): string | undefined {
  const words = wordsOf(parameter);
  const last = words.at(-1);
  if (words.length < 2 || last !== 'id') return undefined;
  const initials = `${words
    .slice(0, -1)
    .map((word) => word[0] ?? '')
    .join('')}${last}`;
  return properties.find((property) => wordsOf(property).join('') === initials);
}

/**
 * The one property whose name is the parameter's with words before it (`{exception_id}` holds
 * an `event_exception_id`, `{hash}` a `tx_hash`), for records no other key names.
 * @example qualifiedPropertyFor('exception_id', ['event_id', 'event_exception_id']) // 'event_exception_id'
 */
export function qualifiedPropertyFor(
  parameter: string,
  properties: readonly string[],
): string | undefined {
  const words = wordsOf(parameter).join(' ');
  const found = properties.filter((property) => wordsOf(property).join(' ').endsWith(` ${words}`));
  return found.length === 1 ? found[0] : undefined;
}

/** The words that end a property holding an id: `id`, `gid`, `uuid`, `guid`, `sid`. */
export const ID_WORDS: ReadonlySet<string> = new Set(['id', 'gid', 'uuid', 'guid', 'sid']);

/**
 * The properties a parameter naming two keys (`issueIdOrKey`, `environment_name_or_uuid`,
 * `hash_or_number`) holds one of, beside `primary`: each side of its `or`, read as keyPropertyFor
 * reads a parameter. Empty for a parameter that names one key.
 * @example otherKeysFor('issueIdOrKey', 'key', ['id', 'key', 'self']) // ['id']
 */
export function otherKeysFor(
  parameter: string,
  primary: string,
  properties: readonly string[],
): string[] {
  const words = wordsOf(parameter);
  const sides: string[][] = [[]];
  for (const word of words)
    if (word === 'or') sides.push([]);
    else sides.at(-1)?.push(word);
  if (sides.length < 2) return [];
  const named = sides
    .map((side) => keyPropertyFor(side.join(' '), properties))
    .filter((name): name is string => name !== undefined && name !== primary);
  return [...new Set(named)];
}

/** Where a record holds its key when no property of its own does: see nestedKeyFor. */
export interface NestedKey {
  /** The object property that holds the key (`metadata`), as the list of names to it. */
  idWithin: string[];
  /** The key's property within it (`name`). */
  idProperty: string;
}

/**
 * Where records may hold the property an item parameter names when none of their own
 * properties does: in one of their objects, one level down (a `{name}` is the
 * `metadata.name`, a `{slug}` the `attributes.slug`). Each object that holds such a scalar is
 * one place: an event's `metadata.name` and its `involvedObject.name` are two.
 * @example nestedKeysFor('name', pod) // [{ idWithin: ['metadata'], idProperty: 'name' }]
 */
export function nestedKeysFor(parameter: string, schema: SchemaObject): NestedKey[] {
  const found: NestedKey[] = [];
  for (const [holder, property] of Object.entries(propertiesOf(schema))) {
    if (!isObjectOnly(property)) continue;
    const inner = propertiesOf(property);
    const scalars = Object.keys(inner).filter((name) => isScalar(inner[name] ?? {}));
    const named = keyPropertyFor(parameter, scalars);
    if (named !== undefined) found.push({ idWithin: [holder], idProperty: named });
  }
  return found;
}

/**
 * The one of several places a record may hold its key (nestedKeysFor) that the document keys
 * its other records by: `conventional` counts the objects the other collections hold their key
 * in (every `metadata`, say), and the place most of them use is chosen, where one is.
 * @example conventionalKey([involvedObject, metadata], new Map([['metadata', 60]])) // metadata
 */
export function conventionalKey(
  places: readonly NestedKey[],
  conventional: ReadonlyMap<string, number>,
): NestedKey | undefined {
  if (places.length === 1) return places[0];
  const uses = (place: NestedKey) => conventional.get(place.idWithin.join('/')) ?? 0;
  const ranked = [...places].sort((a, b) => uses(b) - uses(a));
  const [first, second] = ranked;
  return first && uses(first) > 0 && (!second || uses(first) > uses(second)) ? first : undefined;
}

/**
 * The schema of a property within nested objects (`['metadata']`, `name`), undefined where a
 * schema on the way does not declare it.
 * @example propertyWithin(pod, ['metadata'], 'name') // { type: 'string' }
 */
export function propertyWithin(
  schema: SchemaObject,
  within: readonly string[],
  name: string,
): SchemaObject | undefined {
  let holder: SchemaObject | undefined = schema;
  for (const outer of within) holder = holder && propertiesOf(holder)[outer];
  return holder && propertiesOf(holder)[name];
}

/**
 * Whether a schema is an object with properties of its own (not a list, not a scalar), never
 * null: an object that may be null (a reference to a user who may be gone) cannot hold a key.
 */
function isObjectOnly(schema: SchemaObject): boolean {
  const types = typesOf(schema);
  return (
    (types.length === 0 || (types.includes('object') && !types.includes('array'))) &&
    !types.includes('null') &&
    (schema as { nullable?: unknown }).nullable !== true &&
    Object.keys(propertiesOf(schema)).length > 0
  );
}

/** Whether a schema can hold a key: a text or a number. */
function isScalar(schema: SchemaObject): boolean {
  const types = typesOf(schema);
  return types.some((type) => type === 'string' || type === 'integer' || type === 'number');
}
