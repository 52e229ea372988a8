// Where the records sit in an answer: the whole body (`[...]`, `{id, ...}`), or one property
// of a wrapper (`{data: [...], total}`, `{droplet: {...}, links}`).
import type { SchemaObject } from './load.js';
import { propertiesOf, typesOf } from './schema-parts.js';
import { wordsOf } from './item-key.js';

/** How an answer holds its record, or its list of records. */
export type Envelope =
  /** The body is the record (or the array of records). */
  | { readonly kind: 'plain'; readonly record: SchemaObject }
  /** The record (or the array) is the `property` of an object described by `wrapper`. */
  | {
      readonly kind: 'wrapped';
      readonly property: string;
      readonly wrapper: SchemaObject;
      readonly record: SchemaObject;
    };

/** Names wrappers give their records, the likeliest first. */
const LIST_WRAPPERS = [
  'data',
  'items',
  'results',
  'records',
  'entries',
  'values',
  'content',
  'elements',
  'list',
  // `{result: [...], result_info, errors: [...], messages: [...], success}`: the other arrays
  // of objects (errors, messages) leave no single one to take.
  'result',
];
const RECORD_WRAPPERS = ['data', 'item', 'result', 'record', 'resource', 'object', 'entity'];

/**
 * How a list answer holds its records: an array of objects, or an object with one array of
 * objects (the one named like a wrapper or like the collection, when there are several).
 * @param collectionWord the last word of the collection's path (`droplets`), a name wrappers use.
 * @example listEnvelopeOf({ type: 'object', properties: { data: { type: 'array', items: pet } } }, 'pets')
 * // { kind: 'wrapped', property: 'data', wrapper: ..., record: pet }
 */
export function listEnvelopeOf(
  answer: SchemaObject | undefined,
  collectionWord: string,
): Envelope | undefined {
  if (!answer) return undefined;
  if (isArray(answer)) {
    const items = itemsOf(answer);
    return items && (isObjectSchema(items) || objectArmsOf(items).length >= 2)
      ? { kind: 'plain', record: items }
      : undefined;
  }
  if (!isObjectSchema(answer)) return undefined;
  // Records of one kind, or of several (`result` a list of `oneOf` an A record, a CNAME
  // record...), as a plain list's may be.
  const arrays = Object.entries(propertiesOf(answer)).filter(([, property]) => {
    const items = isArray(property) ? itemsOf(property) : undefined;
    return items !== undefined && (isObjectSchema(items) || objectArmsOf(items).length >= 2);
  });
  const named = (name: string) =>
    LIST_WRAPPERS.includes(name.toLowerCase()) || sameWords(name, collectionWord);
  const chosen = arrays.length === 1 ? arrays[0] : arrays.find(([name]) => named(name));
  if (!chosen) return undefined;
  const [property, schema] = chosen;
  return { kind: 'wrapped', property, wrapper: answer, record: itemsOf(schema) as SchemaObject };
}

/**
 * How an answer holding one record holds it: the answer itself when it looks like the record
 * (`isRecord`), else the one object property that does, or that is named like a wrapper or
 * like one item of the collection (`droplet` in `/droplets`).
 * @example recordEnvelopeOf({ properties: { droplet: dropletSchema, links: {...} } }, 'droplets', looksLikeDroplet)
 * // { kind: 'wrapped', property: 'droplet', ... }
 */
export function recordEnvelopeOf(
  answer: SchemaObject | undefined,
  collectionWord: string,
  isRecord: (schema: SchemaObject) => boolean,
): Envelope | undefined {
  if (!answer) return undefined;
  if (!isObjectSchema(answer)) {
    // One of several shapes (one record, or a batch of them): the first that holds a record.
    const alternatives = [
      ...((answer.oneOf ?? []) as SchemaObject[]),
      ...((answer.anyOf ?? []) as SchemaObject[]),
    ];
    for (const alternative of alternatives) {
      const envelope = recordEnvelopeOf(alternative, collectionWord, isRecord);
      if (envelope && isRecord(envelope.record)) return envelope;
    }
    return undefined;
  }
  if (isRecord(answer)) return { kind: 'plain', record: answer };
  // A property holding a record of one of several kinds (`result: oneOf [A record, CNAME
  // record...]`) holds the first kind that is the record, as a union answer does above.
  const objects = Object.entries(propertiesOf(answer)).flatMap(
    ([name, property]): [string, SchemaObject][] => {
      if (isObjectSchema(property)) return [[name, property]];
      const kinds = objectArmsOf(property);
      const kind = kinds.length >= 2 ? (kinds.find(isRecord) ?? kinds[0]) : undefined;
      return kind ? [[name, kind]] : [];
    },
  );
  const singular = singularOf(collectionWord);
  const chosen =
    objects.find(([, property]) => isRecord(property)) ??
    objects.find(
      ([name]) =>
        RECORD_WRAPPERS.includes(name.toLowerCase()) ||
        sameWords(name, singular) ||
        sameWords(name, collectionWord),
    );
  if (!chosen) return { kind: 'plain', record: answer };
  return { kind: 'wrapped', property: chosen[0], wrapper: answer, record: chosen[1] };
}

/**
 * A schema of an object with properties to hold a record's fields.
 * @example isObjectSchema({ type: 'object', properties: { id: {} } }) // true
 */
export function isObjectSchema(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as SchemaObject;
  const types = typesOf(s);
  if (types.length > 0 && !types.includes('object')) return false;
  return Object.keys(propertiesOf(s)).length > 0;
}

/**
 * The object arms of a `oneOf`/`anyOf` schema (a list of records of several kinds: rules of
 * several types), its `null` arm left aside.
 * @example objectArmsOf({ oneOf: [keywordRule, spamRule, { type: 'null' }] }) // [keywordRule, spamRule]
 */
export function objectArmsOf(schema: SchemaObject): SchemaObject[] {
  if (isObjectSchema(schema)) return [];
  return [
    ...((schema.oneOf ?? []) as SchemaObject[]),
    ...((schema.anyOf ?? []) as SchemaObject[]),
  ].filter(isObjectSchema);
}

function isArray(schema: SchemaObject): boolean {
  return typesOf(schema).includes('array') || 'items' in schema;
}

function itemsOf(schema: SchemaObject): SchemaObject | undefined {
  const items = (schema as { items?: unknown }).items;
  return typeof items === 'object' && items !== null ? (items as SchemaObject) : undefined;
}

function sameWords(a: string, b: string): boolean {
  return b !== '' && wordsOf(a).join('') === wordsOf(b).join('');
}

/** `droplets` → `droplet`, `policies` → `policy`, `addresses` → `address`. */
function singularOf(word: string): string {
  if (/ies$/i.test(word)) return word.slice(0, -3) + 'y';
  if (/(ss|x|ch|sh)es$/i.test(word)) return word.slice(0, -2);
  if (/s$/i.test(word) && !/ss$/i.test(word)) return word.slice(0, -1);
  return word;
}
