// The suite pages as clients do wherever it looks for a record in a list: a correct server
// that orders or pages otherwise than the suite's own mock is never failed for it.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../contract-tests/http.js';
import { nextFromLinkHeader, nextPage } from '../contract-tests/paging.js';
import type { PlanOperation, PlanParameter } from '../contract-tests/plan.js';

const query = (name: string, type = 'string'): PlanParameter => ({
  name,
  in: 'query',
  required: false,
  schema: { type },
});
const list = (...parameters: PlanParameter[]): PlanOperation => ({
  operationId: 'listThings',
  method: 'get',
  path: '/things',
  parameters,
  responses: {},
  security: [],
  successStatus: 200,
});
const answer = (json: unknown, headers: Record<string, string> = {}): Exchange => ({
  request: { method: 'get', path: '/things', headers: {}, url: 'http://h/api/things?limit=5' },
  status: 200,
  headers,
  text: JSON.stringify(json),
  json,
  retries: [],
});

describe('the next page', () => {
  it('follows a Link header rel="next", resolved against the request', () => {
    expect(
      nextFromLinkHeader('</api/things?page=2>; rel="next", </api/things?page=9>; rel=last'),
    ).toBe('/api/things?page=2');
    expect(nextFromLinkHeader('<https://h/p?page=9>; rel="last"')).toBeUndefined();
    expect(
      nextPage(list(), answer([{ id: 1 }], { link: '</api/things?page=2>; rel="next"' }), {}, [{}]),
    ).toEqual({ kind: 'link', url: 'http://h/api/things?page=2' });
  });

  it('follows a next link or cursor in the body, the cursor to the parameter the spec declares', () => {
    expect(nextPage(list(), answer({ items: [], next: '/api/things?after=9' }), {}, [])).toEqual({
      kind: 'link',
      url: 'http://h/api/things?after=9',
    });
    expect(
      nextPage(list(query('cursor')), answer({ items: [{}], next: 'abc' }), { limit: 5 }, [{}]),
    ).toEqual({ kind: 'params', params: { limit: 5, cursor: 'abc' } });
    expect(
      nextPage(list(query('page_token')), answer({ data: [], meta: { next_cursor: 'x' } }), {}, []),
    ).toEqual({ kind: 'params', params: { page_token: 'x' } });
    expect(
      nextPage(list(), answer({ _links: { next: { href: 'http://h/api/things?p=2' } } }), {}, []),
    ).toEqual({ kind: 'link', url: 'http://h/api/things?p=2' });
  });

  it('ends at a null next, or a cursor no parameter takes', () => {
    expect(nextPage(list(query('cursor')), answer({ items: [{}], next: null }), {}, [{}])).toBe(
      undefined,
    );
    expect(nextPage(list(), answer({ items: [{}], next: 'abc' }), {}, [{}])).toBe(undefined);
  });

  it('follows `has_more` with the last id, where the spec declares `after` or `starting_after`', () => {
    // Stripe's lists: `{data, has_more}`, the next page asked with `starting_after=<last id>`.
    const stripe = list(query('limit', 'integer'), query('starting_after'));
    const data = [{ id: 'cus_1' }, { id: 'cus_2' }];
    expect(nextPage(stripe, answer({ data, has_more: true }), { limit: 2 }, data)).toEqual({
      kind: 'params',
      params: { limit: 2, starting_after: 'cus_2' },
    });
    expect(nextPage(stripe, answer({ data, has_more: false }), { limit: 2 }, data)).toBe(undefined);
    // OpenAI's: `{data, first_id, last_id, has_more}`, asked with `after=<last_id>`.
    const openai = list(query('after'), query('before'));
    expect(nextPage(openai, answer({ data, last_id: 'asst_9', has_more: true }), {}, data)).toEqual(
      { kind: 'params', params: { after: 'asst_9' } },
    );
    // A `has_more` with no parameter to take an id pages as before (here: not at all), and an
    // `after` that is a date is a filter, not a cursor.
    expect(nextPage(list(), answer({ data, has_more: true }), {}, data)).toBe(undefined);
    const dated = list({ ...query('after'), schema: { type: 'string', format: 'date-time' } });
    expect(nextPage(dated, answer({ data, has_more: true }), {}, data)).toBe(undefined);
  });

  it('counts pages and offsets the spec declares, until a page holds nothing', () => {
    const paged = list(query('page', 'integer'), query('per_page', 'integer'));
    expect(nextPage(paged, answer([{}]), {}, [{}])).toEqual({
      kind: 'params',
      params: { page: 2 },
      counted: true,
    });
    expect(nextPage(paged, answer([{}]), { page: 2 }, [{}])).toEqual({
      kind: 'params',
      params: { page: 3 },
      counted: true,
    });
    expect(nextPage(paged, answer([]), { page: 3 }, [])).toBe(undefined);
    const offset = list(query('offset', 'integer'));
    expect(nextPage(offset, answer([{}, {}]), { offset: 4 }, [{}, {}])).toEqual({
      kind: 'params',
      params: { offset: 6 },
      counted: true,
    });
    expect(nextPage(list(), answer([{}]), {}, [{}])).toBe(undefined);
  });
});
