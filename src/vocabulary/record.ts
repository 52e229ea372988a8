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
