// The link to a list's next page, as a client follows it: the path it asked for and its own
// query, with the paging parameter the list documents moved on (`/planets?limit=10&offset=10`).
import type { Paging } from '../../openapi/list-parameters.js';
import type { Page } from './list-page.js';

/**
 * The next page's path and query, or undefined on the last page, or when the list documents
 * no parameter that reaches it (a limit alone).
 * @example nextPageLink('/planets', { limit: 10 }, { limit: 'limit', offset: 'offset' }, page) // '/planets?limit=10&offset=10'
 */
export function nextPageLink(
  pathname: string,
  query: Readonly<Record<string, unknown>>,
  paging: Paging,
  page: Page,
): string | undefined {
  if (page.next === undefined) return undefined;
  let moved: [string, string];
  if (paging.cursor !== undefined) moved = [paging.cursor, page.next];
  else if (paging.offset !== undefined)
    moved = [paging.offset, String(page.offset + page.records.length)];
  else if (paging.page !== undefined && page.page !== undefined)
    moved = [paging.page.name, String(page.page + 1)];
  else return undefined;
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
