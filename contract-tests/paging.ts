import type { Exchange } from './http.js';
import type { PlanOperation, Schema } from './plan.js';

/**
 * How to ask for the page after one a list answered: a link to follow, a parameter to set,
 * or nothing (the last page, or a list that does not page).
 */
export type NextPage =
  | { kind: 'link'; url: string }
  /** `counted`: the suite counted the page or offset itself, and records may shift under it. */
  | { kind: 'params'; params: Record<string, unknown>; counted?: true }
  | undefined;

/** How many pages the suite reads of one list at the most: a bound on a list that never ends. */
export const MAX_PAGES = 50;

/** Names of a body property that holds the next page's link or cursor. */
const NEXT_NAME = /^(next|next_?(cursor|page_?token|page_?url|url|link|href|token|key|page))$/i;
/** Names of a query parameter that takes a cursor (`?cursor=`, `?page_token=`, `?after=`). */
const CURSOR_PARAMETER =
  /^(cursor|page_?token|after|starting_?after|next|next_?token|continuation(_?token)?)$/i;
/**
 * Names of a body property that says whether pages follow (Stripe's and OpenAI's `has_more`),
 * of one that holds the last record's id (OpenAI's `last_id`), and of a query parameter that
 * takes the id of the last record seen (`after`, Stripe's `starting_after`).
 */
const MORE_NAME = /^(has_?more|has_?next(_?page)?|is_?truncated)$/i;
const LAST_ID_NAME = /^(last_?id)$/i;
const AFTER_PARAMETER = /^(after|starting_?after|after_?id)$/i;
/** Names of a query parameter that numbers pages, and of one that skips records. */
const PAGE_PARAMETER = /^(page|page_?number|page_?index)$/i;
const OFFSET_PARAMETER = /^(offset|skip|start)$/i;

/**
 * What the list's answer says of the next page, as clients page: a `Link: <...>; rel="next"`
 * header; a next link or cursor in the body (`next`, `nextCursor`, `links.next`,
 * `_links.next.href`), a cursor going to the parameter the spec declares for it; a `has_more`
 * with an `after` parameter, which takes the page's last id (`last_id`, or its last record's
 * `id`: Stripe's and OpenAI's lists); else, when
 * the spec declares page or offset parameters and the page held records, the page after it.
 * `sent` are the parameters this page was asked with; `items` the records it held.
 * @example nextPage(listTickets, exchange, {}, items) // { kind: 'params', params: { cursor: 'abc' } }
 */
export function nextPage(
  list: PlanOperation,
  exchange: Exchange,
  sent: Record<string, unknown>,
  items: readonly unknown[],
): NextPage {
  const linked = nextFromLinkHeader(exchange.headers.link);
  if (linked) return { kind: 'link', url: new URL(linked, exchange.request.url).href };
  const query = list.parameters.filter((parameter) => parameter.in === 'query');
  const found = nextInBody(exchange.json);
  if (found !== undefined) {
    if (found === null || found === '' || found === false) return undefined;
    if (typeof found === 'string' && /^(https?:\/\/|\/|\?)/i.test(found))
      return { kind: 'link', url: new URL(found, exchange.request.url).href };
    const cursor = query.find((parameter) => CURSOR_PARAMETER.test(parameter.name));
    return cursor ? { kind: 'params', params: { ...sent, [cursor.name]: found } } : undefined;
  }
  // An `after` that is a date filters by time (`created after`): it takes no id.
  const after = query.find(
    (parameter) =>
      AFTER_PARAMETER.test(parameter.name) && !/date/i.test(String(parameter.schema.format ?? '')),
  );
  const more = after && moreInBody(exchange.json);
  if (more !== undefined) {
    if (!more || items.length === 0) return undefined;
    const last = lastIdOf(exchange.json, items);
    return last === undefined
      ? undefined
      : { kind: 'params', params: { ...sent, [after.name]: last } };
  }
  if (items.length === 0) return undefined;
  const page = query.find((parameter) => PAGE_PARAMETER.test(parameter.name));
  if (page) {
    const first =
      numberKeyword(page.schema, 'minimum') ?? numberKeyword(page.schema, 'default') ?? 1;
    const current = typeof sent[page.name] === 'number' ? (sent[page.name] as number) : first;
    return { kind: 'params', params: { ...sent, [page.name]: current + 1 }, counted: true };
  }
  const offset = query.find((parameter) => OFFSET_PARAMETER.test(parameter.name));
  if (offset) {
    const current = typeof sent[offset.name] === 'number' ? (sent[offset.name] as number) : 0;
    return {
      kind: 'params',
      params: { ...sent, [offset.name]: current + items.length },
      counted: true,
    };
  }
  return undefined;
}

/**
 * The target of a `rel="next"` link in a Link header (RFC 8288), if it has one.
 * @example nextFromLinkHeader('</t?page=2>; rel="next", </t?page=9>; rel="last"') // '/t?page=2'
 * @internal for its tests: no part of the package's surface
 */
export function nextFromLinkHeader(header: string | undefined): string | undefined {
  for (const link of (header ?? '').split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(link);
    if (match && /;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2]!)) return match[1];
  }
  return undefined;
}

/**
 * The next link or cursor a list body holds: at its top, or one level down (`links.next`,
 * `meta.next_cursor`, `_links.next.href`). `undefined`: the body names none; `null`, `''`
 * or `false`: the last page.
 */
function nextInBody(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const holders = [json as Record<string, unknown>];
  for (const value of Object.values(json))
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      holders.push(value as Record<string, unknown>);
  for (const holder of holders)
    for (const [name, value] of Object.entries(holder)) {
      if (!NEXT_NAME.test(name)) continue;
      if (typeof value === 'object' && value !== null && 'href' in value)
        return (value as { href: unknown }).href;
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return value;
    }
  return undefined;
}

/** Whether the body says more pages follow (`has_more`), at its top; undefined: it does not say. */
function moreInBody(json: unknown): boolean | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  for (const [name, value] of Object.entries(json))
    if (MORE_NAME.test(name) && typeof value === 'boolean') return value;
  return undefined;
}

/**
 * The id a page's next one starts after: the body's `last_id`, else the `id` of its last
 * record (Stripe's lists say `has_more` and nothing else). Undefined: neither is there.
 */
function lastIdOf(json: unknown, items: readonly unknown[]): unknown {
  if (typeof json === 'object' && json !== null && !Array.isArray(json))
    for (const [name, value] of Object.entries(json))
      if (LAST_ID_NAME.test(name) && (typeof value === 'string' || typeof value === 'number'))
        return value;
  const last = items.at(-1);
  const id = typeof last === 'object' && last !== null ? (last as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

function numberKeyword(schema: Schema, name: string): number | undefined {
  const value = schema[name];
  return typeof value === 'number' ? value : undefined;
}
