// Dependencies inferred from names, where the spec has no links: a path parameter or a body
// field named after a collection (`authorId`, `author_id`, or the collection's own item
// parameter) takes the id of a record of that collection, as RESTler infers producers from
// consumers.
import type { CollectionKit } from './kit.js';
import type { Schema } from './plan.js';
import { propertiesOf } from './schema-parts.js';

/**
 * The top-level collection whose records a parameter names, if one does.
 * @example producerOf(kit.collections, 'authorId')?.plan.name // 'authors'
 */
export function producerOf(
  collections: readonly CollectionKit[],
  parameter: string,
): CollectionKit | undefined {
  const wanted = parameter.toLowerCase();
  const topLevel = collections.filter((collection) => !collection.plan.parent);
  return (
    topLevel.find((collection) => collection.plan.itemParameter?.toLowerCase() === wanted) ??
    topLevel.find((collection) => idNamesOf(collection.plan.name).some((name) => name === wanted))
  );
}

/** `authors` → `authorid`, `author_id`, `author-id`; `categories` → `categoryid`... */
function idNamesOf(collectionName: string): string[] {
  const single = singular(collectionName.toLowerCase());
  return [`${single}id`, `${single}_id`, `${single}-id`];
}

/**
 * An English plural made singular, as collection names are written.
 * @example singular('categories') // 'category'
 * @internal for its tests: no part of the package's surface
 */
export function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/s$/.test(word) && !/ss$/.test(word)) return word.slice(0, -1);
  return word;
}

/** A body field named after a collection, and that collection. */
export interface FieldProducer {
  field: string;
  collection: CollectionKit;
}

/**
 * The top-level properties of a request body named after a collection other than `own`
 * (`authorId`, `category_id`): a valid body gives them the id of a record of it.
 * @example fieldProducers(kit.collections, bookSchema, books) // [{ field: 'authorId', collection: authors }]
 */
export function fieldProducers(
  collections: readonly CollectionKit[],
  schema: Schema,
  own?: CollectionKit,
): FieldProducer[] {
  return Object.keys(propertiesOf(schema)).flatMap((field) => {
    const collection = producerOf(collections, field);
    return collection && collection !== own ? [{ field, collection }] : [];
  });
}

/**
 * Whether an id fits the schema of the field it goes in: by JSON type only (a format or
 * pattern the deployment's ids break is the deployment's to explain).
 */
export function idFits(id: unknown, schema: Schema): boolean {
  const types =
    schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length === 0) return true;
  if (typeof id === 'string') return types.includes('string');
  if (Number.isInteger(id)) return types.includes('integer') || types.includes('number');
  if (typeof id === 'number') return types.includes('number');
  return false;
}
