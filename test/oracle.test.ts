// The design card's validator as a differential oracle (issue 15): express with
// express-openapi-validator runs beside the mock on the same specs, and each request case goes
// to both. Where they decide alike (let in, or refused with the same status) the mock agrees
// with a well-kept implementation of OpenAPI; where they differ, the table of disagreements
// below says which is right and why (decisions/004 records it).
import { readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import cookieParser from 'cookie-parser';
import express, { type ErrorRequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSpec } from '../src/openapi/load.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { KEY, AUTH, QUICK_SHUTDOWN } from './helpers.js';
import { tempFolder } from './temp-folders.js';

const BASIC = 'ann:secret';
const BASIC_HEADER = `Basic ${Buffer.from(BASIC).toString('base64')}`;
const spec = (name: string) =>
  fileURLToPath(new URL(`./fixtures/specs/${name}.yaml`, import.meta.url));

/** One request, as both servers get it; `path` is below the spec's base path. */
interface Case {
  name: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** A body and its media type. */
  body?: string;
  type?: string;
}

/** What a server made of a request: let in (any 2xx), or the status it was refused with. */
type Decision = 'let in' | number;

interface Disagreement {
  mock: Decision;
  oracle: Decision;
  /** Which is right, by the OpenAPI specification. */
  right: 'mock' | 'oracle';
  why: string;
}

const JSON_TYPE = 'application/json';

/** The cases, by spec: every parameter style, body type and security scheme, valid and not. */
const CASES: Record<string, { basePath: string; cases: Case[] }> = {
  parameters: {
    basePath: '/api',
    cases: [
      { name: 'required query given', path: '/search?q=cats', headers: AUTH },
      { name: 'required query missing', path: '/search', headers: AUTH },
      { name: 'required query empty', path: '/search?q=', headers: AUTH },
      { name: 'allowEmptyValue query empty', path: '/search?q=a&flag=', headers: AUTH },
      { name: 'integer query', path: '/search?q=a&limit=5', headers: AUTH },
      { name: 'integer query not a number', path: '/search?q=a&limit=five', headers: AUTH },
      { name: 'integer query below minimum', path: '/search?q=a&limit=0', headers: AUTH },
      { name: 'exploded array', path: '/search?q=a&ids=1&ids=2', headers: AUTH },
      { name: 'exploded array, one item', path: '/search?q=a&ids=1', headers: AUTH },
      { name: 'exploded array, a bad item', path: '/search?q=a&ids=1&ids=x', headers: AUTH },
      { name: 'form array, comma-separated', path: '/search?q=a&tags=x,y', headers: AUTH },
      { name: 'pipe-delimited array', path: '/search?q=a&pipes=x|y', headers: AUTH },
      { name: 'space-delimited integers', path: '/search?q=a&spaces=1%202', headers: AUTH },
      { name: 'space-delimited, a bad item', path: '/search?q=a&spaces=1%20x', headers: AUTH },
      { name: 'deepObject', path: '/search?q=a&filter[name]=x', headers: AUTH },
      { name: 'deepObject nested', path: '/search?q=a&filter[age][gte]=3', headers: AUTH },
      {
        name: 'deepObject nested not an integer',
        path: '/search?q=a&filter[age][gte]=old',
        headers: AUTH,
      },
      { name: 'deepObject unknown key', path: '/search?q=a&filter[nope]=1', headers: AUTH },
      { name: 'unknown query parameter', path: '/search?q=a&zzz=1', headers: AUTH },
      { name: 'path array, simple', path: '/simple/1,2/x=1,y=2', headers: AUTH },
      { name: 'path array, a bad item', path: '/simple/1,z/x=1,y=2', headers: AUTH },
      { name: 'label path array', path: '/label/.1.2', headers: AUTH },
      { name: 'matrix path', path: '/matrix/;id=5/;ids=1;ids=2', headers: AUTH },
      { name: 'matrix path, id not an integer', path: '/matrix/;id=x/;ids=1', headers: AUTH },
      { name: 'header given', path: '/headers', headers: { ...AUTH, 'X-Trace': 'abc' } },
      {
        name: 'header array',
        path: '/headers',
        headers: { ...AUTH, 'X-Trace': 'a', 'X-Ids': '1,2' },
      },
      {
        name: 'header array, a bad item',
        path: '/headers',
        headers: { ...AUTH, 'X-Trace': 'a', 'X-Ids': '1,x' },
      },
      { name: 'required header missing', path: '/headers', headers: AUTH },
      { name: 'exploded array of three', path: '/search?q=a&ids=1&ids=2&ids=3', headers: AUTH },
      { name: 'pipe-delimited, one item', path: '/search?q=a&pipes=x', headers: AUTH },
      {
        name: 'deepObject, two keys',
        path: '/search?q=a&filter[name]=x&filter[age][lte]=9',
        headers: AUTH,
      },
      { name: 'parameters without a credential', path: '/search?q=a' },
    ],
  },
  bodies: {
    basePath: '/api',
    cases: [
      {
        name: 'JSON create',
        method: 'POST',
        path: '/pets',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"name":"Rex"}',
      },
      {
        name: 'JSON with a charset',
        method: 'POST',
        path: '/pets',
        headers: AUTH,
        type: 'application/json; charset=utf-8',
        body: '{"name":"Rex"}',
      },
      {
        name: 'JSON media type in upper case',
        method: 'POST',
        path: '/pets',
        headers: AUTH,
        type: 'APPLICATION/JSON',
        body: '{"name":"Rex"}',
      },
      {
        name: 'JSON missing a required field',
        method: 'POST',
        path: '/pets',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{}',
      },
      {
        name: 'JSON of the wrong type',
        method: 'POST',
        path: '/pets',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"name":7}',
      },
      {
        name: 'JSON not an object',
        method: 'POST',
        path: '/pets',
        headers: AUTH,
        type: JSON_TYPE,
        body: '[1]',
      },
      {
        name: 'malformed JSON',
        method: 'POST',
        path: '/pets',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"name":',
      },
      {
        name: 'form create',
        method: 'POST',
        path: '/pets',
        headers: AUTH,
        type: 'application/x-www-form-urlencoded',
        body: 'name=Rex',
      },
      {
        name: 'form missing a required field',
        method: 'POST',
        path: '/pets',
        headers: AUTH,
        type: 'application/x-www-form-urlencoded',
        body: 'nick=Rex',
      },
      {
        name: 'a media type not accepted',
        method: 'POST',
        path: '/pets',
        headers: AUTH,
        type: 'application/xml',
        body: '<pet/>',
      },
      {
        name: 'no Content-Type',
        method: 'POST',
        path: '/pets',
        headers: AUTH,
        body: '{"name":"Rex"}',
      },
      {
        name: 'required body missing',
        method: 'POST',
        path: '/pets',
        headers: AUTH,
        type: JSON_TYPE,
      },
      {
        name: 'text body',
        method: 'POST',
        path: '/notes',
        headers: AUTH,
        type: 'text/plain',
        body: 'a note',
      },
      {
        name: 'text body as a number',
        method: 'POST',
        path: '/counts',
        headers: AUTH,
        type: 'text/plain',
        body: '42',
      },
      {
        name: 'text body not a number',
        method: 'POST',
        path: '/counts',
        headers: AUTH,
        type: 'text/plain',
        body: 'many',
      },
      {
        name: '+json vendor type',
        method: 'POST',
        path: '/events',
        headers: AUTH,
        type: 'application/vnd.acme.event+json',
        body: '{"kind":"created"}',
      },
      {
        name: '+json vendor type, invalid',
        method: 'POST',
        path: '/events',
        headers: AUTH,
        type: 'application/vnd.acme.event+json',
        body: '{"kind":7}',
      },
    ],
  },
  security: {
    basePath: '/api',
    cases: [
      { name: 'bearer, one of two alternatives', path: '/alternatives', headers: AUTH },
      {
        name: 'api key header, the other alternative',
        path: '/alternatives',
        headers: { 'X-API-Key': KEY },
      },
      { name: 'alternatives, nothing sent', path: '/alternatives' },
      {
        name: 'alternatives, a wrong bearer',
        path: '/alternatives',
        headers: { Authorization: 'Bearer nope' },
      },
      { name: 'combination, both', path: '/combination', headers: { ...AUTH, 'X-API-Key': KEY } },
      { name: 'combination, one missing', path: '/combination', headers: { 'X-API-Key': KEY } },
      { name: 'basic', path: '/basic', headers: { Authorization: BASIC_HEADER } },
      {
        name: 'basic, wrong password',
        path: '/basic',
        headers: { Authorization: `Basic ${Buffer.from('ann:nope').toString('base64')}` },
      },
      { name: 'basic, a bearer instead', path: '/basic', headers: AUTH },
      {
        name: 'bearer or basic, basic',
        path: '/bearer-or-basic',
        headers: { Authorization: BASIC_HEADER },
      },
      { name: 'query key', path: `/query?api_key=${KEY}` },
      { name: 'query key, wrong', path: '/query?api_key=nope' },
      { name: 'query key, in a header instead', path: '/query', headers: { 'X-API-Key': KEY } },
      { name: 'cookie key', path: '/cookie', headers: { Cookie: `session=${KEY}` } },
      { name: 'cookie key, wrong', path: '/cookie', headers: { Cookie: 'session=nope' } },
      { name: 'cookie key, missing', path: '/cookie' },
      { name: 'oauth2 bearer token', path: '/oauth', headers: AUTH },
      { name: 'oauth2, no token', path: '/oauth' },
      { name: 'openIdConnect bearer token', path: '/oidc', headers: AUTH },
      { name: 'http Token scheme', path: '/token', headers: { Authorization: `Token ${KEY}` } },
      { name: 'optional security, nothing sent', path: '/optional' },
      { name: 'optional security, a good token', path: '/optional', headers: AUTH },
      { name: 'public operation', path: '/public' },
      { name: 'api key header, wrong', path: '/alternatives', headers: { 'X-API-Key': 'nope' } },
      { name: 'bearer or basic, bearer', path: '/bearer-or-basic', headers: AUTH },
      { name: 'openIdConnect, no token', path: '/oidc' },
      {
        name: 'http Token scheme, wrong',
        path: '/token',
        headers: { Authorization: 'Token nope' },
      },
    ],
  },
  library: {
    basePath: '/api',
    cases: [
      { name: 'list authors', path: '/authors', headers: AUTH },
      { name: 'list authors, no key', path: '/authors' },
      {
        name: 'create author',
        method: 'POST',
        path: '/authors',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"email":"ada@example.org"}',
      },
      {
        name: 'create author, bad email',
        method: 'POST',
        path: '/authors',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"email":"not an email"}',
      },
      {
        name: 'create author, unknown field',
        method: 'POST',
        path: '/authors',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"email":"a@b.co","nick":"x"}',
      },
      {
        name: 'create author, read-only id sent',
        method: 'POST',
        path: '/authors',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"email":"a@b.co","id":"3fa85f64-5717-4562-b3fc-2c963f66afa6"}',
      },
      {
        name: 'create author, a date that is not one',
        method: 'POST',
        path: '/authors',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"email":"a@b.co","born":"yesterday"}',
      },
      {
        name: 'create book',
        method: 'POST',
        path: '/books',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"isbn":"978-0000000000","title":"T","status":"draft"}',
      },
      {
        name: 'create book, bad pattern',
        method: 'POST',
        path: '/books',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"isbn":"12","title":"T","status":"draft"}',
      },
      {
        name: 'create book, not in the enum',
        method: 'POST',
        path: '/books',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"isbn":"978-0000000000","title":"T","status":"lost"}',
      },
      {
        name: 'create book, above the maximum',
        method: 'POST',
        path: '/books',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"isbn":"978-0000000000","title":"T","status":"draft","pages":9000}',
      },
      {
        name: 'create book, tags not unique',
        method: 'POST',
        path: '/books',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"isbn":"978-0000000000","title":"T","status":"draft","tags":["a","a"]}',
      },
      { name: 'author by a path id that is not a uuid', path: '/authors/12', headers: AUTH },
      { name: 'a path the spec lacks', path: '/magazines', headers: AUTH },
      {
        name: 'a method the path lacks',
        method: 'PUT',
        path: '/authors',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{}',
      },
      { name: 'health, no credential needed', path: '/health' },
    ],
  },
  // OpenAPI 3.0: nullable, boolean exclusiveMinimum/Maximum, a $ref beside nullable.
  'nullable-30': {
    basePath: '',
    cases: [
      {
        name: 'a reading',
        method: 'POST',
        path: '/readings',
        type: JSON_TYPE,
        body: '{"celsius":-12.5}',
      },
      {
        name: 'celsius null (nullable)',
        method: 'POST',
        path: '/readings',
        type: JSON_TYPE,
        body: '{"celsius":null}',
      },
      {
        name: 'celsius at the exclusive minimum',
        method: 'POST',
        path: '/readings',
        type: JSON_TYPE,
        body: '{"celsius":-90}',
      },
      {
        name: 'celsius above the exclusive minimum',
        method: 'POST',
        path: '/readings',
        type: JSON_TYPE,
        body: '{"celsius":-89}',
      },
      {
        name: 'humidity at the exclusive maximum',
        method: 'POST',
        path: '/readings',
        type: JSON_TYPE,
        body: '{"celsius":1,"humidity":100}',
      },
      {
        name: 'humidity below it',
        method: 'POST',
        path: '/readings',
        type: JSON_TYPE,
        body: '{"celsius":1,"humidity":99}',
      },
      {
        name: 'station null ($ref with nullable)',
        method: 'POST',
        path: '/readings',
        type: JSON_TYPE,
        body: '{"celsius":1,"station":null}',
      },
      {
        name: 'station without its name',
        method: 'POST',
        path: '/readings',
        type: JSON_TYPE,
        body: '{"celsius":1,"station":{}}',
      },
      {
        name: 'a note too long',
        method: 'POST',
        path: '/readings',
        type: JSON_TYPE,
        body: `{"celsius":1,"note":"${'x'.repeat(21)}"}`,
      },
      { name: 'celsius missing', method: 'POST', path: '/readings', type: JSON_TYPE, body: '{}' },
      {
        name: 'read-only id sent',
        method: 'POST',
        path: '/readings',
        type: JSON_TYPE,
        body: '{"id":3,"celsius":1}',
      },
      { name: 'a reading id that is not an integer', path: '/readings/abc' },
      { name: 'the station', path: '/station' },
    ],
  },
  // Swagger 2.0, served by upgrading it: the oracle gets the upgraded document.
  swagger2: {
    basePath: '/v2',
    cases: [
      { name: 'a dog', method: 'POST', path: '/dogs', type: JSON_TYPE, body: '{"name":"Rex"}' },
      {
        name: 'a dog with an empty name',
        method: 'POST',
        path: '/dogs',
        type: JSON_TYPE,
        body: '{"name":""}',
      },
      {
        name: 'nickname null (x-nullable)',
        method: 'POST',
        path: '/dogs',
        type: JSON_TYPE,
        body: '{"name":"Rex","nickname":null}',
      },
      {
        name: 'weight at the exclusive minimum',
        method: 'POST',
        path: '/dogs',
        type: JSON_TYPE,
        body: '{"name":"Rex","weight":0}',
      },
      {
        name: 'weight above it',
        method: 'POST',
        path: '/dogs',
        type: JSON_TYPE,
        body: '{"name":"Rex","weight":0.5}',
      },
      { name: 'tags as csv', path: '/dogs?tags=a,b' },
      { name: 'a dog id that is not an integer', path: '/dogs/rex' },
    ],
  },
  openapi: {
    basePath: '/v1',
    cases: [
      { name: 'categories list', path: '/categories', headers: AUTH },
      {
        name: 'categories list, lower-case bearer',
        path: '/categories',
        headers: { Authorization: `bearer ${KEY}` },
      },
      {
        name: 'categories list, a wrong key',
        path: '/categories',
        headers: { Authorization: 'Bearer nope' },
      },
      { name: 'categories list, no key', path: '/categories' },
      {
        name: 'categories list, two spaces after Bearer',
        path: '/categories',
        headers: { Authorization: `Bearer  ${KEY}` },
      },
      { name: 'categories list, unknown query', path: '/categories?page=2', headers: AUTH },
      {
        name: 'create category',
        method: 'POST',
        path: '/categories',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"name":"Dog"}',
      },
      {
        name: 'create category, no name',
        method: 'POST',
        path: '/categories',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"description":"x"}',
      },
      {
        name: 'create category, name not a string',
        method: 'POST',
        path: '/categories',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"name":1}',
      },
      {
        name: 'create category, id sent',
        method: 'POST',
        path: '/categories',
        headers: AUTH,
        type: JSON_TYPE,
        body: '{"id":1,"name":"Dog"}',
      },
      {
        name: 'create category, null body',
        method: 'POST',
        path: '/categories',
        headers: AUTH,
        type: JSON_TYPE,
        body: 'null',
      },
      {
        name: 'create category, no key',
        method: 'POST',
        path: '/categories',
        type: JSON_TYPE,
        body: '{"name":"Dog"}',
      },
      {
        name: 'create category, no key and no name',
        method: 'POST',
        path: '/categories',
        type: JSON_TYPE,
        body: '{}',
      },
      { name: 'deprecated pet', path: '/pets/7', headers: AUTH },
      { name: 'store orders', path: '/store/orders', headers: AUTH },
      {
        name: 'delete categories, not served',
        method: 'DELETE',
        path: '/categories',
        headers: AUTH,
      },
    ],
  },
};

/**
 * Where the two decide differently, which is right and why. Every other case must be decided
 * alike: a new disagreement fails the test until it is understood and written here.
 */
const DISAGREEMENTS: Record<string, Disagreement> = {
  'parameters: path array, simple': {
    mock: 'let in',
    oracle: 400,
    right: 'mock',
    why: 'the second path parameter is an object in style simple, exploded (`x=1,y=2`, OpenAPI 3.1 §4.8.12.4); the oracle reads it as a string ("must be object")',
  },
  'parameters: label path array': {
    mock: 'let in',
    oracle: 400,
    right: 'mock',
    why: 'style label, exploded, gives `.1.2` for [1, 2]; the oracle does not decode label style ("must be integer" on `.1.2`)',
  },
  'parameters: matrix path': {
    mock: 'let in',
    oracle: 400,
    right: 'mock',
    why: 'style matrix gives `;id=5`; the oracle does not decode matrix style ("id must be integer")',
  },
  'parameters: header given': {
    mock: 'let in',
    oracle: 400,
    right: 'mock',
    why: "a header parameter's style is simple when the spec gives none (OpenAPI 3.1 §4.8.12.4); the oracle refuses the operation (\"Parameter 'style' has incorrect value 'undefined' for [X-Ids]\"), whatever is sent",
  },
  'parameters: header array': {
    mock: 'let in',
    oracle: 400,
    right: 'mock',
    why: 'the same: the oracle refuses any request to an operation with an array header of no explicit style',
  },
  'nullable-30: station null ($ref with nullable)': {
    mock: 'let in',
    oracle: 400,
    right: 'oracle',
    why: 'by the letter of OpenAPI 3.0.3, `nullable` adds null only to a `type` in the same schema, and the `allOf` beside it still refuses null; the mock reads `nullable` beside a single `allOf` or `$ref` as "that schema or null", the idiom 3.0 documents use it for (readme, blockfrost in the corpus) and the reading of most 3.0 tools, and says so in a start-up warning (decisions/009)',
  },
  'bodies: text body as a number': {
    mock: 'let in',
    oracle: 400,
    right: 'mock',
    why: 'a text/plain body is the text of the value its schema describes: `42` is the integer 42 (as a query parameter would be); the oracle checks the string "42" against `type: integer`',
  },
};

/** express with express-openapi-validator on a spec: a route that lets in whatever it passes. */
async function oracle(path: string): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.use(express.json({ type: ['application/json', 'application/*+json'] }));
  app.use(express.urlencoded({ extended: true }));
  app.use(express.text({ type: 'text/*' }));
  app.use(cookieParser());
  const equal = (expected: string) => (value: string | undefined) => value === expected;
  const bearer = (req: express.Request) => {
    const match = /^bearer +(.+)$/i.exec(req.headers.authorization ?? '');
    return equal(KEY)(match?.[1]);
  };
  app.use(
    OpenApiValidator.middleware({
      apiSpec: path,
      validateRequests: true,
      validateResponses: false,
      validateSecurity: {
        handlers: {
          bearerAuth: bearer,
          oauth: bearer,
          oidc: bearer,
          basicAuth: (req) => req.headers.authorization === BASIC_HEADER,
          headerKey: (req) => req.headers['x-api-key'] === KEY,
          queryKey: (req) => req.query.api_key === KEY,
          cookieKey: (req) => (req.cookies as Record<string, string>).session === KEY,
          tokenAuth: (req) => req.headers.authorization === `Token ${KEY}`,
          ssws: (req) => (req.headers.authorization ?? '').endsWith(KEY),
          token: bearer,
        },
      },
    }),
  );
  app.use((_req, res) => {
    res.status(200).json({ ok: true });
  });
  const refuse: ErrorRequestHandler = (
    err: { status?: number; message?: string },
    req,
    res,
    _next,
  ) => {
    if (process.env.ORACLE_DEBUG)
      console.log('oracle', req.method, req.url, err.status, err.message);
    res.status(err.status ?? 500).json({ status: err.status });
  };
  app.use(refuse);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The document the mock's loader makes of a spec, written where the oracle can read it. */
async function upgraded(path: string): Promise<string> {
  const { document } = await loadSpec(path);
  const file = join(await tempFolder('oracle'), 'upgraded.json');
  await writeFile(file, JSON.stringify(document));
  return file;
}

/**
 * The 3.0 document with `type: object` beside its `nullable` + `allOf` property: the oracle's
 * ajv refuses a `nullable` without a `type` (and with it the whole document), where OpenAPI 3.0
 * tools read it as "that schema or null", as the mock does.
 */
async function typedNullable(path: string): Promise<string> {
  const document = parse(await readFile(path, 'utf8')) as {
    components: { schemas: { Reading: { properties: { station: Record<string, unknown> } } } };
  };
  document.components.schemas.Reading.properties.station.type = 'object';
  const file = join(await tempFolder('oracle'), 'typed.json');
  await writeFile(file, JSON.stringify(document));
  return file;
}

async function decide(origin: string, basePath: string, request: Case): Promise<Decision> {
  const res = await fetch(`${origin}${basePath}${request.path}`, {
    method: request.method ?? 'GET',
    headers: { ...request.headers, ...(request.type ? { 'Content-Type': request.type } : {}) },
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  await res.arrayBuffer();
  return res.status < 300 ? 'let in' : res.status;
}

const servers: { oracle: { url: string; close: () => Promise<void> }; mock: RunningMock }[] = [];
const decisions = new Map<string, { mock: Decision; oracle: Decision }>();

describe('express-openapi-validator as an oracle beside the mock', () => {
  beforeAll(async () => {
    for (const [name, { basePath, cases }] of Object.entries(CASES)) {
      const path =
        name === 'openapi'
          ? fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url))
          : spec(name);
      const [server, mock] = await Promise.all([
        // The oracle reads OpenAPI 3 only: it gets what the mock's loader made of a Swagger 2.0
        // document (a check of how both read the upgraded document, not of the upgrade).
        oracle(
          name === 'swagger2'
            ? await upgraded(path)
            : name === 'nullable-30'
              ? await typedNullable(path)
              : path,
        ),
        startMock({ ...QUICK_SHUTDOWN, spec: path, apiKeys: [KEY], basic: [BASIC], seedCount: 2 }),
      ]);
      servers.push({ oracle: server, mock });
      const origin = new URL(mock.url).origin;
      for (const request of cases)
        decisions.set(`${name}: ${request.name}`, {
          mock: await decide(origin, basePath, request),
          oracle: await decide(server.url, basePath, request),
        });
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.flatMap(({ oracle: o, mock }) => [o.close(), mock.close()]));
  });

  it('runs at least 100 request cases', () => {
    expect(decisions.size).toBeGreaterThanOrEqual(100);
  });

  it('decides every case as the oracle does, but for the disagreements written down', () => {
    const differing = Object.fromEntries(
      [...decisions].filter(([, { mock, oracle: o }]) => mock !== o),
    );
    const expected = Object.fromEntries(
      Object.entries(DISAGREEMENTS).map(([name, { mock, oracle: o }]) => [
        name,
        { mock, oracle: o },
      ]),
    );
    expect(differing).toEqual(expected);
    const right = Object.values(DISAGREEMENTS).filter((d) => d.right === 'mock').length;
    console.log(
      `oracle: ${decisions.size} cases over ${Object.keys(CASES).length} specs; ${decisions.size - Object.keys(differing).length} decided alike; ${Object.keys(differing).length} disagreements, the mock right in ${right}, lenient by choice in ${Object.keys(differing).length - right}`,
    );
  });
});
