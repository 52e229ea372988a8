// Dependencies inferred from names, where the spec has no links: a path parameter named
// after a collection (`authorId`, `author_id`, or the collection's own item parameter) takes
// the id of a record of that collection, as RESTler infers producers from consumers.
import type { CollectionKit } from './kit.js';

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
 */
export function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/s$/.test(word) && !/ss$/.test(word)) return word.slice(0, -1);
  return word;
}
