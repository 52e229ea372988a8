// Every parameter style, read as OpenAPI writes it and checked against its schema: form
// (exploded and not), spaceDelimited, pipeDelimited, deepObject and JSON `content` in the
// query; simple, label and matrix in the path; headers; cookies. The operations answer what
// the mock read, converted to the schema's types, so each case shows what a handler gets.
import { fileURLToPath } from 'node:url';
import { request, type InProcessAnswer } from './in-process-request.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HandlerRequest } from '../src/core/handler.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp } from '../src/wiring/create-app.js';

const PARAMETERS = fileURLToPath(new URL('./fixtures/specs/parameters.yaml', import.meta.url));

let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  const echo = ({ params, query, headers, cookies }: HandlerRequest) => ({
    status: 200,
    body: { params, query, headers, cookies },
  });
  app = createApp({
    spec: await loadSpec(PARAMETERS),
    handlers: Object.fromEntries(
      ['search', 'simplePath', 'labelPath', 'matrixPath', 'headers', 'cookies', 'readOnlyPath'].map(
        (id) => [id, echo],
      ),
    ),
  });
});

/** Asserts a 400 listing a problem that matches `problem`. */
function expectRefused(res: InProcessAnswer, problem: RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe('validation_failed');
  expect(res.body.message).toMatch(problem);
}

describe('query parameters, each style', () => {
  it.each([
    { style: 'a plain value', query: 'q=dog', read: { q: 'dog' } },
    {
      style: 'form, exploded: repeated keys',
      query: 'q=d&ids=1&ids=2',
      read: { q: 'd', ids: [1, 2] },
    },
    { style: 'form, exploded: one key of a list', query: 'q=d&ids=3', read: { q: 'd', ids: [3] } },
    {
      style: 'form, not exploded: commas',
      query: 'q=d&tags=a,b,c',
      read: { q: 'd', tags: ['a', 'b', 'c'] },
    },
    { style: 'pipeDelimited', query: 'q=d&pipes=a%7Cb', read: { q: 'd', pipes: ['a', 'b'] } },
    { style: 'spaceDelimited, %20', query: 'q=d&spaces=1%202', read: { q: 'd', spaces: [1, 2] } },
    { style: 'spaceDelimited, +', query: 'q=d&spaces=1+2', read: { q: 'd', spaces: [1, 2] } },
    {
      style: 'deepObject, nested',
      query: 'q=d&filter[name]=Rex&filter[age][gte]=3',
      read: { q: 'd', filter: { name: 'Rex', age: { gte: 3 } } },
    },
    {
      style: 'deepObject, brackets percent-encoded',
      query: 'q=d&filter%5Bname%5D=Rex',
      read: { q: 'd', filter: { name: 'Rex' } },
    },
    {
      style: 'form object, exploded: its properties as keys',
      query: 'q=d&R=100&G=200',
      read: { q: 'd', color: { R: 100, G: 200 } },
    },
    {
      style: 'form object, not exploded',
      query: 'q=d&point=x,1.5,y,2',
      read: { q: 'd', point: { x: 1.5, y: 2 } },
    },
    {
      style: 'JSON content',
      query: `q=d&where=${encodeURIComponent('{"field":"name"}')}`,
      read: { q: 'd', where: { field: 'name' } },
    },
    {
      style: 'empty, where allowEmptyValue allows it',
      query: 'q=d&flag=',
      read: { q: 'd', flag: '' },
    },
    // Issue 44: converted to a list first, one value matched both arms and oneOf refused it.
    { style: 'oneOf string or list: one value', query: 'q=d&tag=a', read: { q: 'd', tag: 'a' } },
    {
      style: 'oneOf string or list: a list',
      query: 'q=d&tag=a&tag=b',
      read: { q: 'd', tag: ['a', 'b'] },
    },
  ])('$style: ?$query', async ({ query, read }) => {
    const res = await request(app).get(`/api/search?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.query).toEqual(read);
  });

  it.each([
    {
      rule: 'a required parameter missing',
      query: 'limit=2',
      problem: /\/query must have required property 'q'/,
    },
    { rule: 'a required parameter sent empty', query: 'q=', problem: /\/query\/q is empty/ },
    { rule: 'a required parameter sent as a bare key', query: 'q', problem: /\/query\/q is empty/ },
    {
      rule: 'an optional parameter sent empty',
      query: 'q=d&limit=',
      problem: /\/query\/limit is empty/,
    },
    { rule: 'below its minimum', query: 'q=d&limit=0', problem: /\/query\/limit must be >= 1/ },
    {
      rule: 'a list item of the wrong type',
      query: 'q=d&ids=1&ids=x',
      problem: /\/query\/ids\/1 must be an integer/,
    },
    {
      rule: 'a spaceDelimited item of the wrong type',
      query: 'q=d&spaces=1%20x',
      problem: /\/query\/spaces\/1 must be an integer/,
    },
    { rule: 'one value sent twice', query: 'q=d&q=e', problem: /\/query\/q must be a string/ },
    {
      rule: 'a deepObject property it does not have',
      query: 'q=d&filter[nick]=x',
      problem: /\/query\/filter\/nick is not a known property/,
    },
    {
      rule: 'a nested deepObject value of the wrong type',
      query: 'q=d&filter[age][gte]=old',
      problem: /\/query\/filter\/age\/gte must be an integer/,
    },
    {
      rule: 'a deepObject sent as one value',
      query: 'q=d&filter=x',
      problem: /\/query\/filter must be an object/,
    },
    {
      rule: 'an exploded object property of the wrong type',
      query: 'q=d&R=red',
      problem: /\/query\/color\/R must be an integer/,
    },
    {
      rule: 'JSON content that is not JSON',
      query: 'q=d&where=nope',
      problem: /\/query\/where is not valid JSON/,
    },
    {
      rule: 'JSON content that breaks its schema',
      query: 'q=d&where=%7B%7D',
      problem: /\/query\/where must have required property 'field'/,
    },
    {
      rule: 'an unknown parameter',
      query: 'q=d&page=2',
      problem: /\/query\/page is not a known property/,
    },
  ])('$rule -> 400', async ({ query, problem }) => {
    expectRefused(await request(app).get(`/api/search?${query}`), problem);
  });
});

describe('path parameters, each style', () => {
  it.each([
    {
      style: 'simple: a list, and an exploded object',
      path: '/simple/1,2,3/x=1,y=2',
      read: { ids: [1, 2, 3], point: { x: 1, y: 2 } },
    },
    { style: 'label, exploded', path: '/label/.3.4.5', read: { ids: [3, 4, 5] } },
    {
      style: 'matrix: a value, and an exploded list',
      path: '/matrix/;id=5/;ids=3;ids=4',
      read: { id: 5, ids: [3, 4] },
    },
  ])('$style: $path', async ({ path, read }) => {
    const res = await request(app).get(`/api${path}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.params).toEqual(read);
  });

  it('takes a parameter whose schema is readOnly: the service sets it, a client names it (Cloudflare’s account ids were refused)', async () => {
    const id = '023e105f4ecef8ad9ca31a8372d0c353';
    const res = await request(app).get(`/api/accounts/${id}/zones?zone=${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.params).toEqual({ account_id: id });
    expect(res.body.query).toEqual({ zone: id });
    expectRefused(
      await request(app).get(`/api/accounts/${id}${id}/zones`),
      /\/path\/account_id must NOT have more than 32 characters/,
    );
  });

  it.each([
    {
      rule: 'a simple list item of the wrong type',
      path: '/simple/1,x/x=1',
      problem: /\/path\/ids\/1 must be an integer/,
    },
    {
      rule: 'a matrix value of the wrong type',
      path: '/matrix/;id=x/;ids=3',
      problem: /\/path\/id must be an integer/,
    },
    {
      rule: 'a label list item of the wrong type',
      path: '/label/.3.x',
      problem: /\/path\/ids\/1 must be an integer/,
    },
  ])('$rule -> 400', async ({ path, problem }) => {
    expectRefused(await request(app).get(`/api${path}`), problem);
  });
});

describe('header parameters', () => {
  it('reads a list and an exploded object, and ignores a documented Accept (as OpenAPI says)', async () => {
    const res = await request(app)
      .get('/api/headers')
      .set('X-Trace', 'abc123')
      .set('X-Ids', '1, 2')
      .set('X-Point', 'x=1,y=2')
      .set('Accept', 'application/json');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.headers).toEqual({
      'x-trace': 'abc123',
      'x-ids': [1, 2],
      'x-point': { x: 1, y: 2 },
    });
  });

  it.each([
    {
      rule: 'a required header missing',
      headers: {},
      problem: /\/headers must have required property 'x-trace'/,
    },
    {
      rule: 'a pattern broken',
      headers: { 'X-Trace': 'XYZ' },
      problem: /\/headers\/x-trace must match pattern/,
    },
    {
      rule: 'a list item of the wrong type',
      headers: { 'X-Trace': 'ab', 'X-Ids': '1,a' },
      problem: /\/headers\/x-ids\/1 must be an integer/,
    },
  ])('$rule -> 400', async ({ headers, problem }) => {
    expectRefused(await request(app).get('/api/headers').set(headers), problem);
  });
});

describe('cookie parameters', () => {
  it('reads them from the Cookie header, decoded, beside cookies the spec does not name', async () => {
    const res = await request(app)
      .get('/api/cookies')
      .set('Cookie', 'other=x; theme=dark; ids=1%2C2; visits=3');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.cookies).toEqual({ theme: 'dark', ids: [1, 2], visits: 3 });
  });

  it.each([
    {
      rule: 'a required cookie missing',
      cookie: 'visits=3',
      problem: /\/cookies must have required property 'theme'/,
    },
    {
      rule: 'no Cookie header at all',
      cookie: undefined,
      problem: /\/cookies must have required property 'theme'/,
    },
    {
      rule: 'a value its enum lacks',
      cookie: 'theme=blue',
      problem: /\/cookies\/theme must be one of \["dark","light"\]/,
    },
    {
      rule: 'a value of the wrong type',
      cookie: 'theme=dark; visits=many',
      problem: /\/cookies\/visits must be an integer/,
    },
    {
      rule: 'one cookie sent twice',
      cookie: 'theme=dark; theme=light',
      problem: /\/cookies\/theme must be a string/,
    },
  ])('$rule -> 400', async ({ cookie, problem }) => {
    const pending = request(app).get('/api/cookies');
    if (cookie) pending.set('Cookie', cookie);
    expectRefused(await pending, problem);
  });
});
