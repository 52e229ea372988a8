// Records as every layer speaks of them: what OpenAPI reading infers, stores keep and the core
// serves.

/** A record: a JSON object. Stored ones are frozen, so that cached serializations stay true. */
export type JsonRecord = Readonly<Record<string, unknown>>;

export type RecordId = number | string;

/** How a collection's ids are made. */
export type IdKind =
  /** Integers counting up from 1, never reused (not even after a delete or a restart). */
  | 'integer'
  /** Random UUIDs (version 4). */
  | 'uuid'
  /** Other unique strings. */
  | 'string';

/**
 * Whether a JSON value is an object (not null, not an array): a record, a body, a schema.
 * @example isJsonObject({ id: 1 }) // true; isJsonObject([1]) // false
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sets a field of a JSON object: a field named `__proto__` stays a field (defined, not assigned,
 * which would set the object's prototype); every other is assigned, the fast way.
 * @example setField(record, '__proto__', { polluted: true }) // an own field, no prototype changed
 */
export function setField(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(target, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else target[name] = value;
}

/**
 * Where a collection's records hold their key: a property of the record itself, or of an object
 * nested in it (a `name` within `metadata`).
 */
export interface KeyPlace {
  /** The property that holds the key, e.g. `id`, `name`. */
  readonly idProperty: string;
  /** The objects, outermost first, that hold `idProperty` (`['metadata']`); absent: the record. */
  readonly idWithin?: readonly string[];
}

/**
 * The key a record holds where its collection keeps it; undefined when it holds none there.
 * @example keyIn({ metadata: { name: 'web' } }, { idProperty: 'name', idWithin: ['metadata'] }) // 'web'
 */
export function keyIn(record: Readonly<Record<string, unknown>>, place: KeyPlace): unknown {
  let holder: unknown = record;
  for (const name of place.idWithin ?? []) {
    if (!isJsonObject(holder) || !Object.hasOwn(holder, name)) return undefined;
    holder = holder[name];
  }
  return isJsonObject(holder) && Object.hasOwn(holder, place.idProperty)
    ? holder[place.idProperty]
    : undefined;
}

/**
 * A copy of `fields` holding `key` where the collection keeps it: first in its object (the
 * record, or the nested object made where absent), any other key there replaced; the rest of
 * the fields in their order. The objects on the way are copied, never changed.
 * @example withKeyIn({ kind: 'Pod', metadata: { labels: {} } }, { idProperty: 'name', idWithin: ['metadata'] }, 'web') // { kind: 'Pod', metadata: { name: 'web', labels: {} } }
 */
export function withKeyIn(
  fields: Readonly<Record<string, unknown>>,
  place: KeyPlace,
  key: unknown,
): Record<string, unknown> {
  const [outer, ...inner] = place.idWithin ?? [];
  if (outer === undefined) {
    const record: Record<string, unknown> = { [place.idProperty]: key };
    for (const name of Object.keys(fields))
      if (name !== place.idProperty) setField(record, name, fields[name]);
    return record;
  }
  const record: Record<string, unknown> = {};
  for (const name of Object.keys(fields)) setField(record, name, fields[name]);
  const holder = fields[outer];
  setField(
    record,
    outer,
    withKeyIn(isJsonObject(holder) ? holder : {}, { ...place, idWithin: inner }, key),
  );
  return record;
}
