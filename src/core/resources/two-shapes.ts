import { createHash } from 'node:crypto';
import type { SchemaObject } from '../../openapi/load.js';
import type { DataGenerator } from '../../openapi/sample.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import { admittedTypes } from '../../openapi/schema-parts.js';
import type { StoredRecord } from '../../store/store.js';
import { isJsonObject } from '../../vocabulary/record.js';

/**
 * How a resource's answers show the fields two of them describe in two shapes (an object in
 * the list, an array of them in the read: Resource.twoShapes). The record holds one value;
 * an answer whose schema that value does not fit shows one of its own shape instead.
 */
export interface FieldShapes {
  /** The fields in two shapes. */
  readonly fields: ReadonlySet<string>;
  /**
   * How an answer whose schema for the field `name` is `schema` shows it: the value as it is
   * where it fits, else one of this shape (see createFieldShapes). Settled once per answer.
   */
  showerFor(name: string, schema: SchemaObject): FieldShower;
}

/**
 * The value an answer shows of a record's field, given the value (as the answer's other rules
 * already show it), the record, and how the answer shows any value of that field.
 */
export type FieldShower = (
  value: unknown,
  record: StoredRecord,
  shown: (value: unknown) => unknown,
) => unknown;

export interface FieldShapesOptions {
  /** The fields two answers describe apart (Resource.twoShapes). */
  fields: ReadonlySet<string> | undefined;
  /** The property that keys a record: a made value is seeded by its value and the field's name (and the generator's seed). */
  idProperty: string;
  compiler: SchemaCompiler;
  generator: DataGenerator;
}

/**
 * The FieldShapes of a resource; undefined when it has no field in two shapes (its answers
 * show records with nothing more to decide). A value that does not fit an answer is shown
 * as the one derived from it that fits, where that is plain: an object as the array of it,
 * an array as its first item, an object as its `id`, a number as its text and back, an id as
 * the object it names (that `id`, the rest made); else as a value made from the answer's schema, seeded by the mock's seed, the record's
 * key and the field's name, so that the same record shows the same value in the same answer
 * on every read and in every replica. The stored record is never changed.
 * @example createFieldShapes({ fields: new Set(['scope']), idProperty: 'id', compiler, generator })?.showerFor('scope', { type: 'array', items: scope })({ key: 'k' }, record, (v) => v) // [{ key: 'k' }]
 */
export function createFieldShapes(options: FieldShapesOptions): FieldShapes | undefined {
  const { fields, idProperty, compiler, generator } = options;
  if (!fields || fields.size === 0) return undefined;
  return {
    fields,
    showerFor(name, schema) {
      const check = compiler.response(schema);
      const fits = (value: unknown) => value !== undefined && check(value, name).length === 0;
      const types = admittedTypes(schema);
      return (value, record, shown) => {
        if (fits(value)) return value;
        for (const derived of derivedFrom(value, types)) {
          const candidate = shown(derived);
          if (fits(candidate)) return candidate;
        }
        const madeWith = (attempt: number) =>
          generator
            .withSeed(seedOf(generator.seed + attempt, record[idProperty], name))
            .value(schema, `the field "${name}" in its answer's shape`);
        const made = madeWith(0);
        // The object an id names: that id, the rest made. A nullable answer may make null,
        // which would lose the reference the record holds: the next seeds are tried for one.
        if (typeof value === 'string' || typeof value === 'number') {
          for (let attempt = 0; attempt < OBJECT_ATTEMPTS; attempt++) {
            const candidate = attempt === 0 ? made : madeWith(attempt);
            if (!isJsonObject(candidate)) continue;
            const named = shown({ ...candidate, id: value });
            if (fits(named)) return named;
          }
        }
        return made;
      };
    },
  };
}

/** The values plainly derived from `value` in a shape of the `types` it does not fit. */
function derivedFrom(value: unknown, types: ReadonlySet<string> | undefined): unknown[] {
  const admits = (type: string) => types === undefined || types.has(type);
  const derived: unknown[] = [];
  if (Array.isArray(value)) {
    if (value.length > 0 && !admits('array')) derived.push(value[0]);
  } else if (admits('array') && value !== null && value !== undefined) derived.push([value]);
  if (isJsonObject(value) && !admits('object') && 'id' in value) derived.push(value.id);
  if (typeof value === 'number' && !admits('number')) derived.push(String(value));
  if (typeof value === 'string' && admits('number') && NUMERIC.test(value))
    derived.push(Number(value));
  return derived;
}

/** How many seeds are tried for the object an id names, where the answer may also be null. */
const OBJECT_ATTEMPTS = 8;

/** A text that is a number as JSON writes it. */
const NUMERIC = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** A generator's seed from the mock's (`--seed`), a record's key and a field's name. */
function seedOf(seed: number, key: unknown, name: string): number {
  return createHash('sha256')
    .update(`${seed}\0${JSON.stringify(key) ?? ''}\0${name}`)
    .digest()
    .readUInt32BE(0);
}
