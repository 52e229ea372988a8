// The links to a list's next and previous pages, as a client follows it: the path it asked for and its own
// query, with the paging parameter the list documents moved on (`/planets?limit=10&offset=10`).
import type { Paging } from '../../openapi/list-parameters.js';
import type { Page } from './list-page.js';

/** Where a page lies in its list: what its links are made from. */
type PagePosition = Pick<Page, 'next' | 'offset' | 'limit' | 'page'> & {
  readonly records: { readonly length: number };
};

/**
 * The next page's path and query, or undefined on the last page, or when the list documents
 * no parameter that reaches it (a limit alone).
 * @example nextPageLink('/planets', { limit: 10 }, { limit: 'limit', offset: 'offset' }, page) // '/planets?limit=10&offset=10'
 */
export function nextPageLink(
  pathname: string,
  query: Readonly<Record<string, unknown>>,
  paging: Paging,
  page: PagePosition,
): string | undefined {
  if (page.next === undefined) return undefined;
  let moved: [string, string];
  if (paging.cursor !== undefined) moved = [paging.cursor, page.next];
  else if (paging.offset !== undefined)
    moved = [paging.offset, String(page.offset + page.records.length)];
  else if (paging.page !== undefined && page.page !== undefined)
    moved = [paging.page.name, String(page.page + 1)];
  else return undefined;
  return withMoved(pathname, query, moved);
}

/**
 * The previous page's path and query, or undefined on the first page and for a list paged by
 * cursor (a cursor leads forward only).
 * @example previousPageLink('/planets', { limit: 10, offset: 20 }, paging, page) // '/planets?limit=10&offset=10'
 */
function previousPageLink(
  pathname: string,
  query: Readonly<Record<string, unknown>>,
  paging: Paging,
  page: PagePosition,
): string | undefined {
  if (paging.cursor !== undefined) return undefined;
  if (paging.offset !== undefined) {
    if (page.offset <= 0) return undefined;
    const size = page.limit ?? page.records.length;
    return withMoved(pathname, query, [paging.offset, String(Math.max(0, page.offset - size))]);
  }
  if (paging.page === undefined || page.page === undefined || page.page <= paging.page.first)
    return undefined;
  return withMoved(pathname, query, [paging.page.name, String(page.page - 1)]);
}

/**
 * The `Link` field (RFC 8288) of a page: its next and previous pages, as far as the list's
 * paging reaches them; undefined when there is neither.
 * @example pageLinks('/planets', { limit: 10, offset: 10 }, paging, page) // '</planets?limit=10&offset=20>; rel="next", </planets?limit=10&offset=0>; rel="prev"'
 */
export function pageLinks(
  pathname: string,
  query: Readonly<Record<string, unknown>>,
  paging: Paging,
  page: PagePosition,
): string | undefined {
  const links: string[] = [];
  const next = nextPageLink(pathname, query, paging, page);
  if (next !== undefined) links.push(`<${next}>; rel="next"`);
  const previous = previousPageLink(pathname, query, paging, page);
  if (previous !== undefined) links.push(`<${previous}>; rel="prev"`);
  return links.length > 0 ? links.join(', ') : undefined;
}

/** The path with the request's query, one parameter moved to another value. */
function withMoved(
  pathname: string,
  query: Readonly<Record<string, unknown>>,
  moved: [string, string],
): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (name === moved[0]) continue;
    for (const one of Array.isArray(value) ? (value as unknown[]) : [value])
      if (typeof one === 'string' || typeof one === 'number' || typeof one === 'boolean')
        search.append(name, String(one));
  }
  search.append(...moved);
  return `${pathname}?${search.toString()}`;
}
