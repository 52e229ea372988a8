// Records keyed by their own link: a record with no `video_id` and no `id`, only
// `uri: "/videos/258684937"`, which a client reads at `/videos/{video_id}` with the link's last
// segment. HAL and JSON:API-like descriptions do the same with `self` and `href`.
import type { SchemaObject } from './load.js';
import { wordsOf } from './item-key.js';
import { isNumeric } from './schema-parts.js';

/**
 * How a record's link makes its key: the link is the item path with its parameters filled
 * (the collection's scope, then the record's own value), so that the link a record shows is
 * the path it is read at.
 */
export interface LinkKey {
  /** The item path the link is made of, e.g. `/videos/{video_id}/comments/{comment_id}`. */
  readonly template: string;
  /** What the record's own value (the link's last parameter) looks like. */
  readonly value: SchemaObject;
}

/** The words a property naming a record's own link has: `uri`, `self`, `href`, `self_link`. */
const LINK_NAMES = new Set(['uri', 'self', 'href', 'self link', 'self uri', 'self href']);

/**
 * The property among `candidates` (scalar properties of a record) that holds the record's own
 * link, by its name; undefined when none does.
 * @example linkPropertyOf(['name', 'uri', 'link']) // 'uri'
 */
export function linkPropertyOf(candidates: readonly string[]): string | undefined {
  return candidates.find((name) => LINK_NAMES.has(wordsOf(name).join(' ')));
}

/**
 * A key's link made from its template: each parameter in turn takes the next value (encoded
 * as a path segment); parameters beyond the values are left as they are.
 * @example linkOf('/videos/{video_id}/comments/{comment_id}', ['7', '12']) // '/videos/7/comments/12'
 */
export function linkOf(template: string, values: readonly string[]): string {
  let index = 0;
  return template.replace(/\{[^{}]+\}/g, (parameter) => {
    const value = values[index++];
    return value === undefined ? parameter : encodeURIComponent(value);
  });
}

/**
 * The value a link holds at its template's last parameter (the record's own), decoded;
 * undefined when the link is not of the template's shape.
 * @example lastValueOf('/videos/{video_id}', '/videos/258684937') // '258684937'
 */
export function lastValueOf(template: string, link: string): string | undefined {
  const match = shapeOf(template).exec(link);
  const value = match?.at(-1);
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * What a link key must satisfy: the template's shape, its parameters any segment but the last,
 * which is digits where the item parameter takes a number.
 * @example linkSchemaOf({ template: '/videos/{video_id}', value: { type: 'integer', minimum: 1 } }) // { type: 'string', pattern: '^/videos/[1-9][0-9]{0,8}$' }
 */
export function linkSchemaOf(link: LinkKey): SchemaObject {
  const numeric = isNumeric(link.value);
  let pattern = '';
  const parts = link.template.split(/(\{[^{}]+\})/);
  const last = parts.findLastIndex((part) => /^\{[^{}]+\}$/.test(part));
  parts.forEach((part, index) => {
    if (index === last) pattern += numeric ? '[1-9][0-9]{0,8}' : '[^/]+';
    else if (/^\{[^{}]+\}$/.test(part)) pattern += '[^/]+';
    else pattern += escaped(part);
  });
  return { type: 'string', pattern: `^${pattern}$` } as SchemaObject;
}

/**
 * The schema a link key's own value is made from: a positive number where the item parameter
 * takes one in any of its operations (ids no real service gives are not made: `-982`; a
 * `GET /me/categories/{category}` may take a text where its `PUT` takes a number), else a short word.
 */
export function linkValueSchemaOf(parameters: readonly SchemaObject[]): SchemaObject {
  return parameters.some(isNumeric)
    ? ({ type: 'integer', minimum: 1, maximum: 999_999_999 } as SchemaObject)
    : ({ type: 'string', pattern: '^[a-z0-9]{6,12}$' } as SchemaObject);
}

/** The template as a regular expression, each parameter a captured segment. */
function shapeOf(template: string): RegExp {
  const source = template
    .split(/(\{[^{}]+\})/)
    .map((part) => (/^\{[^{}]+\}$/.test(part) ? '([^/]+)' : escaped(part)))
    .join('');
  return new RegExp(`^${source}$`);
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
