// State inferred from the shapes real APIs have (test/fixtures/specs/real-world.yaml reproduces
// them, small), served with no code: routes by specificity, item paths by username, slug, uuid
// and sid, records made of everything the spec says of them, wrapped lists with their counts,
// nested collections, paging and filters.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createRouter } from '../src/core/stages/route.js';
import { selectPage } from '../src/core/resources/list-page.js';
import { madeUpKey } from '../src/core/resources/record-maker.js';
import { projectionFor } from '../src/core/resources/record-serializer.js';
import type { SchemaObject } from '../src/openapi/load.js';
import { mergeRecordSchemas } from '../src/openapi/record-schema.js';
import { keyPropertyFor } from '../src/openapi/item-key.js';
import { loadSpec, SpecError } from '../src/openapi/load.js';
import { listOperations, type Operation } from '../src/openapi/operations.js';
import { inferResources, type ListParameters } from '../src/openapi/resources.js';
import { KEY, specFileOf } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';
import { tempFolder } from './temp-folders.js';

const SHAPES = fileURLToPath(new URL('./fixtures/specs/real-world.yaml', import.meta.url));

const mocks: InProcessMock[] = [];
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
});

async function shapes(seedCount = 3): Promise<InProcessMock> {
  const mock = await inProcessMock({ spec: SHAPES, apiKeys: [KEY], seed: 1, seedCount });
  mocks.push(mock);
  return mock;
}

/** An answer of this JSON schema, for specs written in a test. */
const ok = (schema: object) => ({ description: 'ok', content: { 'application/json': { schema } } });
/** A JSON request body of this schema. */
const body = (schema: object) => ({ content: { 'application/json': { schema } } });
/** A path parameter, a string unless a schema is given. */
const inPath = (name: string, schema: object = { type: 'string' }) => ({
  name,
  in: 'path',
  required: true,
  schema,
});

/** The mock of a spec written in a test, closed after it. */
async function mockOf(spec: object, seedCount?: number): Promise<InProcessMock> {
  const mock = await inProcessMock({
    spec: await specFileOf(spec),
    apiKeys: [KEY],
    seed: 1,
    ...(seedCount === undefined ? {} : { seedCount }),
  });
  mocks.push(mock);
  return mock;
}

interface Answer {
  status: number;
  location: string | null;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers of many shapes, read by the tests
}

async function call(
  mock: InProcessMock,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const res = await mock.fetch(`${mock.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${KEY}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    location: res.headers.get('location'),
    body: text === '' ? undefined : JSON.parse(text),
  };
}

describe('routing by specificity', () => {
  it('tries a literal segment before a parameter, and a suffixed parameter before a bare one, whatever the spec order', async () => {
    const router = createRouter(listOperations((await loadSpec(SHAPES)).resolved));
    const uuid = '6f1c2a9e-1d2b-4c3d-8e4f-5a6b7c8d9e0f';
    expect(router.match('GET', `/projects/${uuid}/environments`)).toMatchObject({
      kind: 'operation',
      operation: { operationId: 'listEnvironments' },
    });
    expect(router.match('GET', `/projects/${uuid}/staging`)).toMatchObject({
      operation: { operationId: 'getProjectSetting' },
      params: { uuid, name: 'staging' },
    });
    const sid = `AC${'0'.repeat(32)}`;
    expect(router.match('GET', `/Accounts/${sid}.json`)).toMatchObject({
      operation: { operationId: 'getAccount' },
      params: { Sid: sid },
    });
    expect(router.match('GET', `/Accounts/${sid}`)).toMatchObject({
      operation: { operationId: 'getAccountPage' },
    });
  });

  it('serves the methods of two templates alike but for their parameter names (Jira)', () => {
    const operation = (method: string, path: string) =>
      ({ operationId: `${method} ${path}`, method, path }) as unknown as Operation;
    const router = createRouter([
      operation('put', '/field/{fieldId}'),
      operation('delete', '/field/{id}'),
    ]);
    expect(router.match('DELETE', '/field/f1')).toMatchObject({
      operation: { operationId: 'delete /field/{id}' },
      params: { id: 'f1' },
    });
    expect(router.match('PUT', '/field/f1')).toMatchObject({ params: { fieldId: 'f1' } });
    expect(router.match('POST', '/field/f1')).toEqual({
      kind: 'method-not-allowed',
      allow: ['PUT', 'DELETE', 'OPTIONS'],
    });
  });

  it('serves a path the spec writes with a trailing slash (Kubernetes `/api/`), with or without it', () => {
    const operation = (path: string) =>
      ({ operationId: path, method: 'get', path }) as unknown as Operation;
    const router = createRouter([operation('/api/'), operation('/apis/{group}/')]);
    for (const path of ['/api/', '/api'])
      expect(router.match('GET', path)).toMatchObject({ operation: { operationId: '/api/' } });
    expect(router.match('GET', '/apis/apps/')).toMatchObject({
      operation: { operationId: '/apis/{group}/' },
      params: { group: 'apps' },
    });
  });
});

describe('what is inferred from the shapes', () => {
  it('maps each item parameter to the property it names, scopes nested collections and reads envelopes', async () => {
    const resources = inferResources(listOperations((await loadSpec(SHAPES)).resolved));
    expect(
      resources.map((r) => ({
        name: r.name,
        key: [r.itemParameter, r.idProperty, r.idKind, r.clientChosenId],
        scope: [r.scope, r.parent],
        envelopes: [...r.envelopes].map(([op, e]) =>
          e.kind === 'wrapped' ? `${op.operationId}:${e.property}` : op.operationId,
        ),
      })),
    ).toEqual([
      {
        name: 'users',
        key: ['username', 'username', 'string', true],
        scope: [[], undefined],
        envelopes: ['listUsers:data', 'createUser', 'getUser', 'replaceUser'],
      },
      {
        name: 'users/{username}/posts',
        key: ['postId', 'id', 'integer', false],
        scope: [['username'], 'users'],
        envelopes: ['listPosts', 'createPost', 'getPost'],
      },
      {
        name: 'articles',
        key: ['slug', 'slug', 'string', false],
        scope: [[], undefined],
        envelopes: ['listArticles:items', 'createArticle', 'getArticle'],
      },
      {
        name: 'projects',
        key: ['uuid', 'uuid', 'uuid', false],
        scope: [[], undefined],
        envelopes: ['createProject:project', 'getProject:project'],
      },
      {
        name: 'Accounts.json',
        key: ['Sid', 'sid', 'string', false],
        scope: [[], undefined],
        envelopes: ['createAccount', 'getAccount'],
      },
      {
        name: 'tags',
        key: ['ref', 'label', 'string', true],
        scope: [[], undefined],
        envelopes: ['listTags', 'createTag', 'getTag'],
      },
    ]);
  });

  it('refuses an x-mock key its records do not have, naming it', async () => {
    const document = structuredClone((await loadSpec(SHAPES)).resolved);
    const getTag = document.paths?.['/tags/{ref}']?.get as { 'x-mock'?: unknown };
    getTag['x-mock'] = { key: 'colour' };
    expect(() => inferResources(listOperations(document))).toThrow(SpecError);
    expect(() => inferResources(listOperations(document))).toThrow(/"colour"/);
  });

  it('reads paging and filters from the list parameters', async () => {
    const resources = inferResources(listOperations((await loadSpec(SHAPES)).resolved));
    const listing = (name: string) =>
      [...(resources.find((r) => r.name === name)?.listing.values() ?? [])][0];
    expect(listing('users')).toEqual({
      paging: { limit: 'per_page', page: { name: 'page', first: 1 }, defaultLimit: 20 },
      filters: new Map([['role', 'role']]),
    });
    expect(listing('users/{username}/posts')?.paging).toEqual({ limit: 'limit', offset: 'offset' });
    expect(listing('articles')?.paging).toEqual({ limit: 'limit', cursor: 'cursor' });
  });

  it.each([
    ['username', ['id', 'username'], 'username'],
    ['bookNumber', ['number', 'isbn'], 'number'],
    ['petId', ['id', 'name'], 'id'],
    ['CallSid', ['sid', 'account_sid'], 'sid'],
    ['call_sid', ['CallSid', 'sid'], 'CallSid'],
    ['domain_name', ['name', 'ttl'], 'name'],
    ['username', ['id', 'name'], undefined],
  ])('item parameter %s on properties %j holds %s', (parameter, properties, expected) => {
    expect(keyPropertyFor(parameter, properties)).toBe(expected);
  });
});

describe('records made of everything the spec says of them', () => {
  it('a create fills the required fields the service sets, not readOnly ones included, and is found by username', async () => {
    const mock = await shapes();
    const created = await call(mock, 'POST', '/users', {
      username: 'ada',
      email: 'ada@example.org',
      nickname: 'Countess',
    });
    expect(created.status).toBe(201);
    expect(created.location).toBe('/api/users/ada');
    // The nickname only the create body documents is the record's too.
    expect(created.body).toMatchObject({
      username: 'ada',
      email: 'ada@example.org',
      nickname: 'Countess',
    });
    expect(['active', 'suspended']).toContain(created.body.status);
    expect(['admin', 'member', 'guest']).toContain(created.body.role);
    expect(Date.parse(created.body.created_at)).not.toBeNaN();
    expect(Number.isInteger(created.body.id)).toBe(true);
    expect((await call(mock, 'GET', '/users/ada')).body).toEqual(created.body);
  });

  it('a username taken is a 409, and a put that changes it moves the record', async () => {
    const mock = await shapes();
    await call(mock, 'POST', '/users', { username: 'ada', email: 'ada@example.org' });
    expect(
      (await call(mock, 'POST', '/users', { username: 'ada', email: 'b@example.org' })).body,
    ).toMatchObject({ code: 'conflict', status: 409 });
    const moved = await call(mock, 'PUT', '/users/ada', {
      username: 'lovelace',
      email: 'ada@example.org',
    });
    expect(moved).toMatchObject({ status: 200, body: { username: 'lovelace' } });
    expect((await call(mock, 'GET', '/users/ada')).status).toBe(404);
    expect((await call(mock, 'GET', '/users/lovelace')).body.id).toBe(moved.body.id);
  });

  it('a create answered with the id alone keeps what the item answer documents, under a slug made from its pattern', async () => {
    const mock = await shapes();
    const created = await call(mock, 'POST', '/articles', { title: 'Hello', body: 'Text' });
    expect(created.status).toBe(201);
    const slug = decodeURIComponent(created.location?.split('/').at(-1) ?? '');
    expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const read = await call(mock, 'GET', `/articles/${encodeURIComponent(slug)}`);
    expect(read).toMatchObject({
      status: 200,
      body: { slug, title: 'Hello', body: 'Text', id: created.body.id },
    });
    expect(typeof read.body.tag).toBe('string');
  });

  it('an integer id beside the uuid the path names; the record in the wrapper its answers document', async () => {
    const mock = await shapes();
    const created = await call(mock, 'POST', '/projects', { name: 'Apollo' });
    expect(created.status).toBe(201);
    expect(created.body.project).toMatchObject({
      name: 'Apollo',
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(typeof created.body.links.self).toBe('string');
    expect(created.location).toBe(`/api/projects/${created.body.project.uuid}`);
    expect((await call(mock, 'GET', `/projects/${created.body.project.uuid}`)).body).toEqual({
      project: created.body.project,
    });
  });

  it('a suffixed item path finds the record by its sid, and a body in PascalCase fills snake_case fields', async () => {
    const mock = await shapes();
    const created = await call(mock, 'POST', '/Accounts.json', { FriendlyName: 'Main' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      sid: expect.stringMatching(/^AC[0-9a-f]{32}$/),
      friendly_name: 'Main',
    });
    expect(created.location).toBe(`/api/Accounts/${created.body.sid}.json`);
    expect((await call(mock, 'GET', `/Accounts/${created.body.sid}.json`)).body).toEqual(
      created.body,
    );
  });

  it('x-mock names the property an item parameter holds', async () => {
    const mock = await shapes();
    expect((await call(mock, 'POST', '/tags', { label: 'news' })).status).toBe(201);
    expect((await call(mock, 'GET', '/tags/news')).body).toMatchObject({ label: 'news' });
  });
});

describe('one record, answered in the terms of each answer', () => {
  it('keeps the numeric definition of an id two answers type differently, and shows it as each answer says', () => {
    const item = {
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: 'string' } },
    };
    const created = {
      type: 'object',
      properties: { id: { type: 'string' }, self: { type: 'string' } },
    };
    const record = mergeRecordSchemas([item, created] as SchemaObject[]);
    expect(record.properties?.id).toEqual({ type: 'integer' });
    expect(projectionFor(created as SchemaObject)({ id: 7, name: 'x' })).toEqual({
      id: '7',
      name: 'x',
    });
    const stored = { id: 7, name: 'x' };
    expect(projectionFor(item as SchemaObject)(stored)).toBe(stored);
  });

  it('never shows a field an answer marks writeOnly, nor one a closed answer does not declare', () => {
    const answer = {
      type: 'object',
      properties: { id: { type: 'integer' }, password: { type: 'string', writeOnly: true } },
      additionalProperties: false,
    } as SchemaObject;
    expect(projectionFor(answer)({ id: 1, password: 'p', bio: 'b' })).toEqual({ id: 1 });
  });

  it('shows a nested object, or a list of them, as a closed answer declares it there (ReadMe: upload)', () => {
    // The record holds the union of its schemas at every depth; the update answer of ReadMe's
    // API definitions closes `upload` over `status` alone, and answered 500 with the rest.
    const upload = {
      type: 'object',
      properties: { status: { type: 'string' } },
      additionalProperties: false,
    };
    const answer = {
      type: 'object',
      properties: { upload, attempts: { type: 'array', items: upload }, meta: { type: 'object' } },
    } as SchemaObject;
    const stored = {
      upload: { status: 'done', reason: 'r', warnings: ['w'] },
      attempts: [{ status: 'failed', reason: 'r' }],
      meta: { any: 'thing' },
    };
    expect(projectionFor(answer)(stored)).toEqual({
      upload: { status: 'done' },
      attempts: [{ status: 'failed' }],
      meta: { any: 'thing' },
    });
    // What fits already is shown as it is: the same object, and so the store's own JSON.
    const fitting = { upload: { status: 'done' }, attempts: [], meta: {} };
    expect(projectionFor(answer)(fitting)).toBe(fitting);
    // What is shown stays frozen, as stored records are: what was checked stays true.
    expect(Object.isFrozen((projectionFor(answer)(stored) as typeof stored).attempts)).toBe(true);
  });

  it('keeps what a closed nested schema admits beyond its properties, and ends at a recursive array', () => {
    const answer = {
      type: 'object',
      properties: {
        // Names by pattern are the schema's too.
        meta: {
          type: 'object',
          properties: { name: { type: 'string' } },
          patternProperties: { '^x-': {} },
          additionalProperties: false,
        },
        // Names a oneOf branch declares: shown whole, for the answer check to judge.
        shape: {
          type: 'object',
          properties: { kind: { type: 'string' } },
          oneOf: [
            { properties: { radius: { type: 'number' } }, required: ['radius'] },
            { properties: { side: { type: 'number' } }, required: ['side'] },
          ],
          unevaluatedProperties: false,
        },
      },
    } as SchemaObject;
    const stored = {
      meta: { name: 'n', 'x-trace': 't', other: 'o' },
      shape: { kind: 'circle', radius: 2 },
    };
    expect(projectionFor(answer)(stored)).toEqual({
      meta: { name: 'n', 'x-trace': 't' },
      shape: { kind: 'circle', radius: 2 },
    });

    // An array of itself, as a document resolved with its cycles makes it.
    const grid = { type: 'array' } as { type: 'array'; items?: unknown };
    grid.items = grid;
    const withGrid = { type: 'object', properties: { grid } } as SchemaObject;
    const record = { grid: [[], [[]]] };
    expect(projectionFor(withGrid)(record)).toBe(record);
  });
});

describe('wrapped lists, paging and filters', () => {
  it('a create shows in the wrapped list and its total counts it; pages and filters are honoured', async () => {
    const mock = await shapes(3);
    const before = await call(mock, 'GET', '/users');
    expect(before.body).toMatchObject({ total: 3, page: 1, per_page: 20 });
    expect(before.body.data).toHaveLength(3);
    // Seeds are made of the whole record, the nickname only the create body documents included.
    expect(before.body.data.some((user: object) => 'nickname' in user)).toBe(true);
    await call(mock, 'POST', '/users', {
      username: 'ada',
      email: 'ada@example.org',
      role: 'guest',
    });
    const after = await call(mock, 'GET', '/users');
    expect(after.body.total).toBe(4);
    expect(after.body.data.map((user: { username: string }) => user.username)).toContain('ada');

    const second = await call(mock, 'GET', '/users?per_page=2&page=2');
    expect(second.body).toMatchObject({ total: 4, page: 2, per_page: 2 });
    expect(second.body.data).toEqual(after.body.data.slice(2, 4));

    const guests = await call(mock, 'GET', '/users?role=guest');
    expect(guests.body.data.length).toBe(guests.body.total);
    expect(guests.body.data.every((user: { role: string }) => user.role === 'guest')).toBe(true);
    expect(guests.body.data.map((user: { username: string }) => user.username)).toContain('ada');
  });

  it('a cursor walks the list page by page, and one the mock did not hand out is a 400', async () => {
    const mock = await shapes(0);
    for (const title of ['a', 'b', 'c']) await call(mock, 'POST', '/articles', { title });
    const first = await call(mock, 'GET', '/articles?limit=2');
    expect(first.body.items.map((a: { title: string }) => a.title)).toEqual(['a', 'b']);
    // The list's schema is a closed summary: it shows no more than it declares.
    expect(Object.keys(first.body.items[0]).sort()).toEqual(['id', 'slug', 'title']);
    const next = await call(mock, 'GET', `/articles?limit=2&cursor=${first.body.next_cursor}`);
    expect(next.body).toEqual({
      items: [expect.objectContaining({ title: 'c' })],
      next_cursor: null,
    });
    expect((await call(mock, 'GET', '/articles?cursor=nonsense')).body).toMatchObject({
      code: 'invalid_cursor',
      status: 400,
    });
  });

  it('keeps a page within its bounds whatever the offset', () => {
    const records = [1, 2, 3, 4, 5].map((id) => ({ id, even: id % 2 === 0 }));
    const listing: ListParameters = {
      paging: { limit: 'limit', offset: 'offset' },
      filters: new Map([['even', 'even']]),
    };
    const key = {
      fieldsOf: (record: Readonly<Record<string, unknown>>) => record,
      keyOf: (record: Readonly<Record<string, unknown>>) => record.id as number,
    };
    expect(selectPage(records, { limit: 2, offset: 3 }, listing, key)).toMatchObject({
      records: [records[3], records[4]],
      total: 5,
      next: undefined,
    });
    expect(selectPage(records, { offset: 9 }, listing, key)).toMatchObject({
      records: [],
      total: 5,
      offset: 5,
    });
    expect(selectPage(records, { even: true, limit: 1 }, listing, key)).toMatchObject({
      records: [records[1]],
      total: 2,
      next: expect.any(String),
    });
  });
});

describe('keys made up for records', () => {
  it('come from one key schema per collection, so that what compiles it does so once', async () => {
    // A new schema object per create made ajv compile it again, and keep every copy.
    const spec = await loadSpec(SHAPES);
    const users = inferResources(listOperations(spec.resolved)).find(
      (resource) => resource.idProperty === 'username',
    )!;
    const seen = new Set<unknown>();
    const generator = {
      compiler: undefined as never,
      seed: 1,
      value(schema: SchemaObject) {
        seen.add(schema);
        return `user_${seen.size}_${Math.random().toString(36).slice(2, 8)}`;
      },
      withSeed: () => generator,
    };
    for (let i = 0; i < 3; i++) await madeUpKey(users, generator, async () => false);
    expect(seen.size).toBe(1);
  });
});

describe('views of a collection', () => {
  const PETSTORE = fileURLToPath(
    new URL('./fixtures/corpus/petstore-openapi30/petstore.json', import.meta.url),
  );

  it('a list below a collection lists its records by its filters: a created pet is found by status', async () => {
    const mock = await inProcessMock({ spec: PETSTORE, apiKeys: [KEY], seed: 1, seedCount: 3 });
    mocks.push(mock);
    const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
    const byStatus = async (query: string) =>
      (await (await mock.fetch(`${mock.url}/pet/findByStatus?${query}`, { headers })).json()) as {
        id: number;
        status?: string;
      }[];
    const before = await byStatus('status=available');
    expect(before.every((pet) => pet.status === 'available')).toBe(true);

    const created = await mock.fetch(`${mock.url}/pet`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Rex', photoUrls: [], status: 'available' }),
    });
    const id = Number(created.headers.get('location')?.split('/').at(-1));
    expect((await byStatus('status=available')).map((pet) => pet.id)).toEqual([
      ...before.map((pet) => pet.id),
      id,
    ]);
    // Several values (explode): any of them.
    expect((await byStatus('status=available&status=sold')).map((pet) => pet.id)).toContain(id);
    expect((await byStatus('status=sold')).map((pet) => pet.id)).not.toContain(id);
  });

  it('a view with a query the mock cannot honour keeps its examples', async () => {
    const spec = await loadSpec(PETSTORE);
    const [pets] = inferResources(listOperations(spec.resolved)).filter(
      (resource) => resource.collectionPath === '/pet',
    );
    const lists = [...(pets?.actions ?? [])]
      .filter(([, action]) => action === 'list')
      .map(([operation]) => operation.path);
    // findByTags filters on tags, which records hold as objects: not a filter the mock reads.
    expect(lists).toEqual(['/pet/findByStatus']);
  });
  it('a list below a collection whose items require what its records lack is not a view of it: it answers its own schema', async () => {
    // Discord's description: `/commands/permissions` lists each command's permissions, keyed
    // by the command's id; served as a view of the commands, it answered 500 (its items lack
    // the required `permissions`).
    const id = { type: 'string', pattern: '^[0-9]+$' };
    const command = {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { ...id, readOnly: true }, name: { type: 'string' } },
    };
    const permissions = {
      type: 'object',
      required: ['id', 'permissions'],
      properties: {
        id,
        permissions: { type: 'array', items: { type: 'boolean' } },
      },
    };
    const spec = {
      openapi: '3.1.0',
      info: { title: 'commands', version: '1' },
      paths: {
        '/commands': {
          get: { responses: { '200': ok({ type: 'array', items: command }) } },
          post: {
            requestBody: { content: { 'application/json': { schema: command } } },
            responses: { '201': ok(command) },
          },
        },
        '/commands/permissions': {
          get: { responses: { '200': ok({ type: 'array', items: permissions }) } },
        },
        '/commands/{command_id}': {
          get: {
            parameters: [inPath('command_id', id)],
            responses: { '200': ok(command) },
          },
        },
      },
    };
    const mock = await mockOf(spec);
    await call(mock, 'POST', '/commands', { name: 'hello' });
    const listed = await call(mock, 'GET', '/commands/permissions');
    expect(listed.status).toBe(200);
    expect(listed.body.length).toBeGreaterThan(0);
    for (const item of listed.body)
      expect(item).toEqual(expect.objectContaining({ permissions: expect.any(Array) }));
  });
});

describe('collections of several kinds of record', () => {
  it('keeps the kind the client sent, makes the fields that kind requires, lists every kind and keeps it on update', async () => {
    // Discord's moderation rules: the create takes and answers one of several kinds, each
    // with its own `trigger_type` and metadata. The mock made every record of the first kind,
    // turning the client's `trigger_type: 1` into 4, or answered 500.
    const id = { type: 'string', pattern: '^[0-9]+$', readOnly: true };
    const kind = (trigger: number, metadata: object) => ({
      request: {
        type: 'object',
        required: ['name', 'trigger_type'],
        properties: {
          name: { type: 'string' },
          trigger_type: { type: 'integer', enum: [trigger] },
        },
      },
      record: {
        type: 'object',
        required: ['id', 'name', 'trigger_type', 'trigger_metadata'],
        properties: {
          id,
          name: { type: 'string' },
          trigger_type: { type: 'integer', enum: [trigger] },
          trigger_metadata: metadata,
        },
      },
    });
    const keyword = kind(1, {
      type: 'object',
      required: ['keywords'],
      properties: { keywords: { type: 'array', items: { type: 'string' } } },
    });
    const spam = kind(3, {
      type: 'object',
      required: ['limit'],
      properties: { limit: { type: 'integer', minimum: 1 } },
    });
    const preset = kind(4, {
      type: 'object',
      required: ['presets'],
      properties: { presets: { type: 'array', items: { type: 'integer' } } },
    });
    const kinds = [preset, keyword, spam];
    const one = { oneOf: kinds.map((k) => k.record) };
    const spec = {
      openapi: '3.1.0',
      info: { title: 'rules', version: '1' },
      paths: {
        '/rules': {
          get: {
            responses: {
              '200': ok({
                type: ['array', 'null'],
                items: { oneOf: [...one.oneOf, { type: 'null' }] },
              }),
            },
          },
          post: {
            requestBody: body({ oneOf: kinds.map((k) => k.request) }),
            responses: { '200': ok(one) },
          },
        },
        '/rules/{rule_id}': {
          parameters: [inPath('rule_id')],
          get: { responses: { '200': ok(one) } },
          patch: {
            requestBody: body({ type: 'object', properties: { name: { type: 'string' } } }),
            responses: { '200': ok(one) },
          },
        },
      },
    };
    const mock = await mockOf(spec, 0);
    const made = await call(mock, 'POST', '/rules', { name: 'words', trigger_type: 1 });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ name: 'words', trigger_type: 1 });
    expect(made.body.trigger_metadata.keywords).toEqual(expect.any(Array));
    const other = await call(mock, 'POST', '/rules', { name: 'spam', trigger_type: 3 });
    expect(other.body).toMatchObject({
      trigger_type: 3,
      trigger_metadata: { limit: expect.any(Number) },
    });

    const listed = await call(mock, 'GET', '/rules');
    expect(listed.status).toBe(200);
    expect(
      listed.body.map((rule: { name: string; trigger_type: number }) => [
        rule.name,
        rule.trigger_type,
      ]),
    ).toEqual([
      ['words', 1],
      ['spam', 3],
    ]);
    const renamed = await call(mock, 'PATCH', `/rules/${made.body.id}`, { name: 'renamed' });
    expect(renamed.body).toEqual({ ...made.body, name: 'renamed' });
    expect((await call(mock, 'GET', `/rules/${other.body.id}`)).body).toEqual(other.body);
  });
});

describe('records whose schema requires a name it never describes', () => {
  it('seeds and makes them with that field, so that lists and creates answer 200 (PagerDuty’s custom fields)', async () => {
    const field = {
      allOf: [
        {
          type: 'object',
          properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } },
        },
      ],
      required: ['id', 'name', 'namespace'],
    };
    const spec = {
      openapi: '3.0.3',
      info: { title: 'fields', version: '1' },
      paths: {
        '/fields': {
          get: {
            responses: {
              '200': ok({
                type: 'object',
                required: ['fields'],
                properties: { fields: { type: 'array', items: field } },
              }),
            },
          },
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { name: { type: 'string' } } },
                },
              },
            },
            responses: {
              '201': ok({ type: 'object', required: ['field'], properties: { field } }),
            },
          },
        },
      },
    };
    const mock = await mockOf(spec, 3);
    const seeded = await call(mock, 'GET', '/fields');
    expect(seeded.status).toBe(200);
    expect(seeded.body.fields).toHaveLength(3);
    const made = await call(mock, 'POST', '/fields', { name: 'severity' });
    expect(made.status).toBe(201);
    expect(made.body.field).toHaveProperty('namespace');
    const listed = await call(mock, 'GET', '/fields');
    expect(listed.status).toBe(200);
    expect(listed.body.fields.map((f: { name: string }) => f.name)).toContain('severity');
  });
});

describe('lists whose array has a maxItems', () => {
  it('never hold more records than it allows, whatever the limit asked (PagerDuty’s IP allow lists answered 500)', async () => {
    const list = {
      type: 'object',
      properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } },
      required: ['id', 'name'],
    };
    const spec = {
      openapi: '3.1.0',
      info: { title: 'lists', version: '1' },
      paths: {
        '/allow_lists': {
          get: {
            parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }],
            responses: {
              '200': ok({
                type: 'object',
                required: ['allow_lists'],
                properties: { allow_lists: { type: 'array', maxItems: 2, items: list } },
              }),
            },
          },
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { name: { type: 'string' } } },
                },
              },
            },
            responses: { '201': ok(list) },
          },
        },
      },
    };
    const mock = await mockOf(spec, 5);
    for (const query of ['', '?limit=10', '?limit=1']) {
      const listed = await call(mock, 'GET', `/allow_lists${query}`);
      expect(listed.status).toBe(200);
      expect(listed.body.allow_lists).toHaveLength(query === '?limit=1' ? 1 : 2);
    }
  });
});

describe('a patch that sends null', () => {
  it('empties a field the record requires, where the request allows null (Discord’s message edit clears embeds)', async () => {
    const message = {
      type: 'object',
      required: ['id', 'content', 'embeds', 'topic'],
      properties: {
        id: { type: 'string', readOnly: true },
        content: { type: 'string' },
        embeds: { type: 'array', items: { type: 'string' } },
        topic: { type: ['string', 'null'] },
        pinned: { type: 'boolean' },
      },
    };
    const edit = {
      type: 'object',
      properties: {
        content: { type: 'string' },
        embeds: { type: ['array', 'null'], items: { type: 'string' } },
        topic: { type: ['string', 'null'] },
        pinned: { type: ['boolean', 'null'] },
      },
    };
    const spec = {
      openapi: '3.1.0',
      info: { title: 'messages', version: '1' },
      paths: {
        '/messages': {
          post: { requestBody: body(edit), responses: { '201': ok(message) } },
          get: { responses: { '200': ok({ type: 'array', items: message }) } },
        },
        '/messages/{message_id}': {
          parameters: [inPath('message_id')],
          patch: { requestBody: body(edit), responses: { '200': ok(message) } },
        },
      },
    };
    const mock = await mockOf(spec, 0);
    const made = await call(mock, 'POST', '/messages', {
      content: 'hello',
      embeds: ['a'],
      topic: 'news',
      pinned: true,
    });
    expect(made.status).toBe(201);
    const edited = await call(mock, 'PATCH', `/messages/${made.body.id}`, {
      embeds: null,
      topic: null,
      pinned: null,
    });
    expect(edited.status).toBe(200);
    // Required: emptied (a list), or null where the record allows it; optional: removed.
    expect(edited.body).toEqual({ id: made.body.id, content: 'hello', embeds: [], topic: null });
  });
});

describe('nested collections', () => {
  it('keeps records per parent, sets the reference to it, and refuses a parent that does not exist', async () => {
    const mock = await shapes(2);
    await call(mock, 'POST', '/users', { username: 'ada', email: 'ada@example.org' });
    await call(mock, 'POST', '/users', { username: 'bob', email: 'bob@example.org' });
    // Seeded under each parent the first time they are asked for.
    const seeded = (await call(mock, 'GET', '/users/ada/posts')).body;
    expect(seeded).toHaveLength(2);
    expect(seeded.every((post: { username: string }) => post.username === 'ada')).toBe(true);

    const created = await call(mock, 'POST', '/users/ada/posts', {
      title: 'First',
      published: true,
    });
    expect(created).toMatchObject({
      status: 201,
      body: { username: 'ada', title: 'First', published: true },
    });
    expect(created.location).toBe(`/api/users/ada/posts/${created.body.id}`);
    expect((await call(mock, 'GET', `/users/ada/posts/${created.body.id}`)).body).toEqual(
      created.body,
    );
    const adas = (await call(mock, 'GET', '/users/ada/posts')).body;
    expect(adas).toContainEqual(created.body);
    expect((await call(mock, 'GET', '/users/bob/posts')).body).not.toContainEqual(created.body);
    expect((await call(mock, 'GET', '/users/ada/posts?limit=1&offset=2')).body).toEqual([
      created.body,
    ]);

    const missing = await call(mock, 'GET', '/users/nobody/posts');
    expect(missing).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(missing.body.message).toMatch(/users/);
  });

  it('keeps what was written under a parent in the data file, across a restart', async () => {
    const data = join(await tempFolder('nested'), 'mock.jsonl');
    const first = await inProcessMock({ spec: SHAPES, apiKeys: [KEY], seedCount: 1, data });
    await call(first, 'POST', '/users', { username: 'ada', email: 'ada@example.org' });
    const post = (await call(first, 'POST', '/users/ada/posts', { title: 'Kept' })).body;
    const before = (await call(first, 'GET', '/users/ada/posts')).body;
    await first.close();
    const second = await inProcessMock({ spec: SHAPES, apiKeys: [KEY], seedCount: 1, data });
    mocks.push(second);
    expect((await call(second, 'GET', `/users/ada/posts/${post.id}`)).body).toEqual(post);
    expect((await call(second, 'GET', '/users/ada/posts')).body).toEqual(before);
  });

  it('a reset forgets what the nested collections were given, and seeds them again', async () => {
    const mock = await shapes(2);
    const [first] = (await call(mock, 'GET', '/users')).body.data;
    const path = `/users/${first.username}/posts`;
    const before = (await call(mock, 'GET', path)).body;
    expect(before.map((post: { username: string }) => post.username)).toEqual([
      first.username,
      first.username,
    ]);
    const extra = (await call(mock, 'POST', path, { title: 'Extra' })).body;
    expect((await call(mock, 'GET', path)).body).toEqual([...before, extra]);
    await mock.reset();
    expect((await call(mock, 'GET', path)).body).toEqual(before);
  });
});

describe('references to the path a record is listed under', () => {
  it('are only properties that can hold the path’s value (GitHub’s events have repo and owner objects)', async () => {
    const repository = {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'integer' }, name: { type: 'string' } },
    };
    const spec = {
      openapi: '3.0.3',
      info: { title: 'events', version: '1' },
      paths: {
        '/repos/{owner}/{repo}/events': {
          parameters: [inPath('owner'), inPath('repo')],
          get: {
            operationId: 'listRepoEvents',
            responses: {
              '200': {
                description: 'events',
                content: {
                  'application/json': {
                    schema: { type: 'array', items: { $ref: '#/components/schemas/Event' } },
                  },
                },
              },
            },
          },
          post: {
            operationId: 'createRepoEvent',
            requestBody: {
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { type: { type: 'string' } } },
                },
              },
            },
            responses: {
              '201': {
                description: 'created',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Event: {
            type: 'object',
            required: ['id', 'type', 'repo', 'owner'],
            properties: {
              id: { type: 'string' },
              type: { type: 'string' },
              repo: repository,
              owner: { anyOf: [{ type: 'null' }, repository] },
            },
          },
        },
      },
    };
    const mock = await inProcessMock({
      spec: await specFileOf(spec),
      apiKeys: [KEY],
      seedCount: 2,
    });
    mocks.push(mock);
    const created = await call(mock, 'POST', '/repos/octo/hello/events', { type: 'PushEvent' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.repo).toEqual({ id: expect.any(Number), name: expect.any(String) });
    const listed = await call(mock, 'GET', '/repos/octo/hello/events');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body).toContainEqual(created.body);
  });
});

describe('seeded records', () => {
  it('leave the ids the spec’s examples use to the documented requests (the Pet Store’s create of id 10 was a 409)', async () => {
    const pet = {
      type: 'object',
      required: ['name'],
      properties: {
        id: { type: 'integer', format: 'int64', example: 10 },
        name: { type: 'string', example: 'doggie' },
      },
    };
    const spec = {
      openapi: '3.0.3',
      info: { title: 'pets', version: '1' },
      paths: {
        '/pet': {
          get: {
            operationId: 'listPets',
            responses: {
              '200': {
                description: 'pets',
                content: {
                  'application/json': {
                    schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
                  },
                },
              },
            },
          },
          post: {
            operationId: 'addPet',
            requestBody: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
            },
            responses: {
              '200': {
                description: 'added',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
              },
            },
          },
        },
      },
      components: { schemas: { Pet: pet } },
    };
    const mock = await inProcessMock({
      spec: await specFileOf(spec),
      apiKeys: [KEY],
      seedCount: 12,
    });
    mocks.push(mock);
    const seeded = (await call(mock, 'GET', '/pet')).body as { id: number }[];
    expect(seeded.map((record) => record.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13]);
    const documented = await call(mock, 'POST', '/pet', { id: 10, name: 'doggie' });
    expect(documented.status, JSON.stringify(documented.body)).toBe(200);
    expect(documented.body).toEqual({ id: 10, name: 'doggie' });
    const next = await call(mock, 'POST', '/pet', { name: 'rex' });
    expect(next.body.id).toBe(14);
  });
});

describe('references to other records in a request body', () => {
  it('are taken with the id the referenced schema marks read-only, while the record’s own server-set id is refused (PagerDuty’s incidents name their service)', async () => {
    // PagerDuty's shape: every reference is its base object (each property read-only),
    // requiring its `id` and `type`; a client names the service by them.
    const base = {
      type: 'object',
      properties: {
        id: { type: 'string', readOnly: true },
        type: { type: 'string', readOnly: true },
        summary: { type: 'string', readOnly: true },
        self: { type: 'string', readOnly: true },
      },
    };
    const reference = { allOf: [base, { type: 'object', required: ['type', 'id'] }] };
    const serviceReference = {
      allOf: [reference, { type: 'object', properties: { type: { enum: ['service_reference'] } } }],
    };
    const incident = {
      type: 'object',
      required: ['title', 'service'],
      properties: {
        id: { type: 'string', readOnly: true },
        title: { type: 'string' },
        service: serviceReference,
      },
    };
    const spec = {
      openapi: '3.0.3',
      info: { title: 'incidents', version: '1' },
      components: { schemas: { Tag: base, Reference: reference, Incident: incident } },
      paths: {
        '/incidents': {
          get: {
            responses: {
              '200': ok({
                type: 'object',
                properties: { incidents: { type: 'array', items: incident } },
              }),
            },
          },
          post: {
            requestBody: body({
              type: 'object',
              required: ['incident'],
              properties: { incident },
            }),
            responses: { '201': ok({ type: 'object', properties: { incident } }) },
          },
        },
        '/incidents/{id}': {
          parameters: [inPath('id')],
          get: { responses: { '200': ok({ type: 'object', properties: { incident } }) } },
        },
      },
    };
    const mock = await mockOf(spec, 0);
    const service = { id: 'PWIXJZS', type: 'service_reference' };
    const made = await call(mock, 'POST', '/incidents', { incident: { title: 'Down', service } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.incident.service).toMatchObject(service);
    const read = await call(mock, 'GET', `/incidents/${made.body.incident.id}`);
    expect(read.body.incident.service).toMatchObject(service);
    // A reference still needs what names the record: its id.
    const unnamed = await call(mock, 'POST', '/incidents', {
      incident: { title: 'Down', service: { type: 'service_reference' } },
    });
    expect(unnamed.status).toBe(400);
    expect(JSON.stringify(unnamed.body)).toContain("must have required property 'id'");
    // The incident's own id is the service's to set.
    const own = await call(mock, 'POST', '/incidents', {
      incident: { id: 'P1', title: 'Down', service },
    });
    expect(own.status).toBe(400);
    expect(JSON.stringify(own.body)).toContain('/body/incident/id is read-only');
  });
});

describe('records keyed by their own link', () => {
  it('are read, changed and deleted at the path their `uri` names, seeded ones and nested ones too (Vimeo’s videos have no id)', async () => {
    const video = {
      type: 'object',
      required: ['uri', 'name'],
      properties: {
        uri: { type: 'string', example: '/videos/258684937' },
        name: { type: 'string' },
        link: { type: 'string', example: 'https://vimeo.com/258684937' },
      },
    };
    const comment = {
      type: 'object',
      required: ['uri', 'text'],
      // An example of another video's comment: never the link of a comment under this one.
      properties: {
        uri: { type: 'string', example: '/videos/258684937/comments/12345' },
        text: { type: 'string' },
      },
    };
    const id = (name: string) => inPath(name, { type: 'number' });
    const spec = {
      openapi: '3.0.3',
      info: { title: 'videos', version: '1' },
      paths: {
        '/videos': {
          get: { responses: { '200': ok({ type: 'array', items: video }) } },
          post: {
            requestBody: body({
              type: 'object',
              required: ['name'],
              properties: { name: { type: 'string' } },
            }),
            responses: { '201': ok(video) },
          },
        },
        '/videos/{video_id}': {
          parameters: [id('video_id')],
          get: { responses: { '200': ok(video) } },
          patch: {
            requestBody: body({ type: 'object', properties: { name: { type: 'string' } } }),
            responses: { '200': ok(video) },
          },
          delete: { responses: { '204': { description: 'gone' } } },
        },
        '/videos/{video_id}/comments': {
          parameters: [id('video_id')],
          get: { responses: { '200': ok({ type: 'array', items: comment }) } },
          post: {
            requestBody: body({
              type: 'object',
              required: ['text'],
              properties: { text: { type: 'string' } },
            }),
            responses: { '201': ok(comment) },
          },
        },
        '/videos/{video_id}/comments/{comment_id}': {
          parameters: [id('video_id'), id('comment_id')],
          get: { responses: { '200': ok(comment) } },
        },
      },
    };
    const mock = await mockOf(spec, 2);
    const seeded = await call(mock, 'GET', '/videos');
    expect(seeded.body).toHaveLength(2);
    for (const one of seeded.body as { uri: string }[]) {
      expect(one.uri).toMatch(/^\/videos\/[1-9][0-9]*$/);
      expect((await call(mock, 'GET', one.uri)).body).toEqual(one);
    }

    const made = await call(mock, 'POST', '/videos', { name: 'Sunrise' });
    expect(made.status).toBe(201);
    expect(made.body.uri).toMatch(/^\/videos\/[1-9][0-9]*$/);
    expect(made.location).toBe(made.body.uri);
    expect((await call(mock, 'GET', made.body.uri)).body).toEqual(made.body);
    const renamed = await call(mock, 'PATCH', made.body.uri, { name: 'Sunset' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...made.body, name: 'Sunset' });

    // Under a video, a comment's link is the path it is read at, its video's value in it.
    const comments = await call(mock, 'GET', `${made.body.uri}/comments`);
    expect(comments.body).toHaveLength(2);
    for (const one of comments.body as { uri: string }[]) {
      expect(one.uri).toMatch(new RegExp(`^${made.body.uri}/comments/[1-9][0-9]*$`));
      expect((await call(mock, 'GET', one.uri)).body).toEqual(one);
    }
    const said = await call(mock, 'POST', `${made.body.uri}/comments`, { text: 'Lovely' });
    expect(said.status).toBe(201);
    expect(said.body.uri).toMatch(new RegExp(`^${made.body.uri}/comments/[1-9][0-9]*$`));
    expect((await call(mock, 'GET', said.body.uri)).body).toEqual(said.body);

    expect((await call(mock, 'DELETE', made.body.uri)).status).toBe(204);
    expect((await call(mock, 'GET', made.body.uri)).status).toBe(404);
  });
});

describe('collections under a parent no client can create', () => {
  it('answer under the documentation’s parent id, not 404 (Adyen’s companies are listed, never made)', async () => {
    const company = {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } },
    };
    const hook = {
      type: 'object',
      required: ['id', 'url'],
      properties: { id: { type: 'string', readOnly: true }, url: { type: 'string' } },
    };
    const companyId = {
      name: 'companyId',
      in: 'path',
      required: true,
      schema: { type: 'string' },
      example: 'YOUR_COMPANY_ACCOUNT',
    };
    const spec = {
      openapi: '3.1.0',
      info: { title: 'companies', version: '1' },
      paths: {
        '/companies': { get: { responses: { '200': ok({ type: 'array', items: company }) } } },
        '/companies/{companyId}': {
          parameters: [companyId],
          get: { responses: { '200': ok(company) } },
        },
        '/companies/{companyId}/webhooks': {
          parameters: [companyId],
          get: { responses: { '200': ok({ type: 'array', items: hook }) } },
          post: {
            requestBody: body({
              type: 'object',
              required: ['url'],
              properties: { url: { type: 'string' } },
            }),
            responses: { '201': ok(hook) },
          },
        },
        '/companies/{companyId}/webhooks/{webhookId}': {
          parameters: [companyId, inPath('webhookId')],
          get: { responses: { '200': ok(hook) } },
          delete: { responses: { '204': { description: 'gone' } } },
        },
      },
    };
    const mock = await mockOf(spec, 2);
    const made = await call(mock, 'POST', '/companies/YOUR_COMPANY_ACCOUNT/webhooks', {
      url: 'https://example.org/hook',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const listed = await call(mock, 'GET', '/companies/YOUR_COMPANY_ACCOUNT/webhooks');
    expect(listed.status).toBe(200);
    expect(listed.body).toContainEqual(made.body);
    expect(
      (await call(mock, 'GET', `/companies/YOUR_COMPANY_ACCOUNT/webhooks/${made.body.id}`)).body,
    ).toEqual(made.body);
    // Kept per parent all the same.
    expect((await call(mock, 'GET', '/companies/OTHER/webhooks')).body).not.toContainEqual(
      made.body,
    );
  });
});

describe('a field no value of the record’s schema fits', () => {
  it('is left out of the record when sent, not a 500, where the record does not require it (Vimeo’s user content filters)', async () => {
    // The answer's schema is an array whose `enum` lists strings: no array fits it.
    const user = {
      type: 'object',
      required: ['id', 'name'],
      properties: {
        id: { type: 'integer', readOnly: true },
        name: { type: 'string' },
        content_filter: { type: 'array', items: { type: 'string' }, enum: ['drugs', 'safe'] },
      },
    };
    const edit = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        content_filter: { type: 'array', items: { type: 'string' } },
      },
    };
    const spec = {
      openapi: '3.0.3',
      info: { title: 'users', version: '1' },
      paths: {
        '/users': {
          get: { responses: { '200': ok({ type: 'array', items: user }) } },
          post: { requestBody: body(edit), responses: { '201': ok(user) } },
        },
        '/users/{id}': {
          parameters: [inPath('id', { type: 'integer' })],
          get: { responses: { '200': ok(user) } },
          patch: { requestBody: body(edit), responses: { '200': ok(user) } },
        },
      },
    };
    const mock = await mockOf(spec, 0);
    const made = await call(mock, 'POST', '/users', { name: 'Ada', content_filter: ['safe'] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).not.toHaveProperty('content_filter');
    const changed = await call(mock, 'PATCH', `/users/${made.body.id}`, {
      name: 'Bob',
      content_filter: ['drugs'],
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toEqual({ id: made.body.id, name: 'Bob' });
  });
});

describe('a put to a record of a collection that has no create', () => {
  it('makes the record at the key its path names, as HTTP’s PUT does (Vimeo’s likes, Discord’s guild members)', async () => {
    const like = {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'integer' }, name: { type: 'string' } },
    };
    const spec = {
      openapi: '3.0.3',
      info: { title: 'likes', version: '1' },
      paths: {
        '/me/likes': { get: { responses: { '200': ok({ type: 'array', items: like }) } } },
        '/me/likes/{video_id}': {
          parameters: [inPath('video_id', { type: 'integer' })],
          get: { responses: { '200': ok(like) } },
          put: { responses: { '204': { description: 'liked' } } },
          delete: { responses: { '204': { description: 'unliked' } } },
        },
      },
    };
    const mock = await mockOf(spec, 0);
    expect((await call(mock, 'GET', '/me/likes/42')).status).toBe(404);
    expect((await call(mock, 'PUT', '/me/likes/42')).status).toBe(204);
    const liked = await call(mock, 'GET', '/me/likes/42');
    expect(liked.status).toBe(200);
    expect(liked.body).toMatchObject({ id: 42, name: expect.any(String) });
    expect((await call(mock, 'GET', '/me/likes')).body).toEqual([liked.body]);
    // Again: the same record, kept.
    expect((await call(mock, 'PUT', '/me/likes/42')).status).toBe(204);
    expect((await call(mock, 'GET', '/me/likes')).body).toEqual([liked.body]);
    expect((await call(mock, 'DELETE', '/me/likes/42')).status).toBe(204);
    expect((await call(mock, 'GET', '/me/likes/42')).status).toBe(404);
  });
});

describe('a field a base marks read-only that the extending schema requires and lists', () => {
  it('is the client’s to send (PagerDuty’s add-ons choose their type)', async () => {
    const base = {
      type: 'object',
      properties: {
        id: { type: 'string', readOnly: true },
        type: { type: 'string', readOnly: true },
        summary: { type: 'string', readOnly: true },
      },
    };
    const addon = {
      allOf: [
        base,
        {
          type: 'object',
          required: ['type', 'name'],
          properties: {
            type: { type: 'string', enum: ['full_page_addon', 'incident_show_addon'] },
            name: { type: 'string' },
          },
        },
      ],
    };
    const wrapped = { type: 'object', required: ['addon'], properties: { addon } };
    const spec = {
      openapi: '3.0.3',
      info: { title: 'addons', version: '1' },
      components: { schemas: { Tag: base, Addon: addon } },
      paths: {
        '/addons': {
          get: {
            responses: {
              '200': ok({
                type: 'object',
                properties: { addons: { type: 'array', items: addon } },
              }),
            },
          },
          post: { requestBody: body(wrapped), responses: { '201': ok(wrapped) } },
        },
        '/addons/{id}': {
          parameters: [inPath('id')],
          get: { responses: { '200': ok(wrapped) } },
        },
      },
    };
    const mock = await mockOf(spec, 0);
    const sent = { type: 'incident_show_addon', name: 'Status' };
    const made = await call(mock, 'POST', '/addons', { addon: sent });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.addon).toMatchObject(sent);
    expect((await call(mock, 'GET', `/addons/${made.body.addon.id}`)).body.addon).toMatchObject(
      sent,
    );
    const own = await call(mock, 'POST', '/addons', { addon: { ...sent, id: 'P1' } });
    expect(own.status).toBe(400);
    expect(JSON.stringify(own.body)).toContain('/body/addon/id is read-only');
  });
});

describe('a create whose body wraps one record of several kinds', () => {
  it('makes the record, read afterwards at its id (PagerDuty’s automation runners: {runner: oneOf [sidecar, runbook]})', async () => {
    const runner = {
      type: 'object',
      required: ['id', 'name', 'runner_type'],
      properties: {
        id: { type: 'string', readOnly: true },
        name: { type: 'string' },
        runner_type: { type: 'string', enum: ['sidecar', 'runbook'] },
        runbook_base_uri: { type: 'string' },
      },
    };
    const sidecar = {
      type: 'object',
      required: ['name', 'runner_type'],
      properties: { name: { type: 'string' }, runner_type: { type: 'string', enum: ['sidecar'] } },
    };
    const runbook = {
      type: 'object',
      required: ['name', 'runner_type', 'runbook_base_uri'],
      properties: {
        name: { type: 'string' },
        runner_type: { type: 'string', enum: ['runbook'] },
        runbook_base_uri: { type: 'string' },
      },
    };
    const wrapped = { type: 'object', required: ['runner'], properties: { runner } };
    const spec = {
      openapi: '3.0.3',
      info: { title: 'runners', version: '1' },
      paths: {
        '/runners': {
          get: {
            responses: {
              '200': ok({
                type: 'object',
                properties: { runners: { type: 'array', items: runner } },
              }),
            },
          },
          post: {
            requestBody: body({
              type: 'object',
              required: ['runner'],
              properties: {
                runner: {
                  oneOf: [sidecar, runbook],
                  discriminator: { propertyName: 'runner_type' },
                },
              },
            }),
            responses: { '201': ok(wrapped) },
          },
        },
        '/runners/{id}': {
          parameters: [inPath('id')],
          get: { responses: { '200': ok(wrapped) } },
        },
      },
    };
    const mock = await mockOf(spec, 0);
    const sent = { name: 'prod', runner_type: 'runbook', runbook_base_uri: 'acme.runbook.io' };
    const made = await call(mock, 'POST', '/runners', { runner: sent });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.runner).toMatchObject(sent);
    const read = await call(mock, 'GET', `/runners/${made.body.runner.id}`);
    expect(read.status).toBe(200);
    expect(read.body.runner).toEqual(made.body.runner);
    expect((await call(mock, 'GET', '/runners')).body.runners).toEqual([made.body.runner]);
  });
});

describe('a field each answer fixes to its own value', () => {
  it('is shown as each answer fixes it: a list of references, a read of the record (PagerDuty’s schedules)', async () => {
    const reference = {
      type: 'object',
      required: ['id', 'type'],
      properties: {
        id: { type: 'string', readOnly: true },
        type: { type: 'string', enum: ['schedule_v3_reference'] },
        summary: { type: 'string' },
      },
    };
    const schedule = {
      type: 'object',
      required: ['id', 'type', 'name'],
      properties: {
        id: { type: 'string', readOnly: true },
        type: { type: 'string', enum: ['schedule_v3'] },
        name: { type: 'string' },
      },
    };
    const wrapped = { type: 'object', required: ['schedule'], properties: { schedule } };
    const spec = {
      openapi: '3.0.3',
      info: { title: 'schedules', version: '1' },
      paths: {
        '/schedules': {
          get: {
            responses: {
              '200': ok({
                type: 'object',
                required: ['schedules'],
                properties: { schedules: { type: 'array', items: reference } },
              }),
            },
          },
          post: {
            requestBody: body({
              type: 'object',
              properties: {
                schedule: { type: 'object', properties: { name: { type: 'string' } } },
              },
            }),
            responses: { '201': ok(wrapped) },
          },
        },
        '/schedules/{id}': {
          parameters: [inPath('id')],
          get: { responses: { '200': ok(wrapped) } },
          put: {
            requestBody: body({
              type: 'object',
              properties: {
                schedule: { type: 'object', properties: { name: { type: 'string' } } },
              },
            }),
            responses: { '200': ok(wrapped) },
          },
        },
      },
    };
    const mock = await mockOf(spec, 2);
    const made = await call(mock, 'POST', '/schedules', { schedule: { name: 'On-call' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.schedule).toMatchObject({ type: 'schedule_v3', name: 'On-call' });
    const listed = await call(mock, 'GET', '/schedules');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.schedules).toHaveLength(3);
    for (const one of listed.body.schedules)
      expect(one.type, JSON.stringify(one)).toBe('schedule_v3_reference');
    const changed = await call(mock, 'PUT', `/schedules/${made.body.schedule.id}`, {
      schedule: { name: 'Primary' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.schedule).toMatchObject({ type: 'schedule_v3', name: 'Primary' });
  });
});

describe('a put whose body cannot express a field the create set', () => {
  it('keeps that field, and removes one it declares and leaves out (Intercom’s attributes keep their data type)', async () => {
    const attribute = {
      type: 'object',
      required: ['id', 'name'],
      properties: {
        id: { type: 'integer', readOnly: true },
        name: { type: 'string' },
        description: { type: 'string' },
        data_type: { type: 'string', enum: ['string', 'list'] },
      },
    };
    const spec = {
      openapi: '3.0.3',
      info: { title: 'attributes', version: '1' },
      paths: {
        '/attributes': {
          get: { responses: { '200': ok({ type: 'array', items: attribute }) } },
          post: {
            requestBody: body({
              type: 'object',
              required: ['name', 'data_type'],
              properties: {
                name: { type: 'string' },
                description: { type: 'string' },
                data_type: { type: 'string', enum: ['string', 'list'] },
              },
            }),
            responses: { '201': ok(attribute) },
          },
        },
        '/attributes/{id}': {
          parameters: [inPath('id', { type: 'integer' })],
          get: { responses: { '200': ok(attribute) } },
          put: {
            requestBody: body({
              type: 'object',
              properties: { name: { type: 'string' }, description: { type: 'string' } },
            }),
            responses: { '200': ok(attribute) },
          },
        },
      },
    };
    const mock = await mockOf(spec, 0);
    const made = await call(mock, 'POST', '/attributes', {
      name: 'tier',
      description: 'Customer tier',
      data_type: 'list',
    });
    expect(made.status).toBe(201);
    const put = await call(mock, 'PUT', `/attributes/${made.body.id}`, { name: 'level' });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ id: made.body.id, name: 'level', data_type: 'list' });
  });
});

describe('a field listed as references to the record’s own values', () => {
  it('is shown in a list as the value that names the record’s (PagerDuty’s add-on references)', async () => {
    const reference = {
      type: 'object',
      required: ['id', 'type'],
      properties: {
        id: { type: 'string', readOnly: true },
        type: {
          type: 'string',
          enum: ['full_page_addon_reference', 'incident_show_addon_reference'],
        },
      },
    };
    const addon = {
      type: 'object',
      required: ['id', 'type', 'name'],
      properties: {
        id: { type: 'string', readOnly: true },
        type: { type: 'string', enum: ['full_page_addon', 'incident_show_addon'] },
        name: { type: 'string' },
      },
    };
    const wrapped = { type: 'object', required: ['addon'], properties: { addon } };
    const spec = {
      openapi: '3.0.3',
      info: { title: 'addons', version: '1' },
      paths: {
        '/addons': {
          get: {
            responses: {
              '200': ok({
                type: 'object',
                required: ['addons'],
                properties: { addons: { type: 'array', items: reference } },
              }),
            },
          },
          post: {
            requestBody: body({
              type: 'object',
              properties: {
                addon: {
                  type: 'object',
                  required: ['type', 'name'],
                  properties: {
                    type: { type: 'string', enum: ['full_page_addon', 'incident_show_addon'] },
                    name: { type: 'string' },
                  },
                },
              },
            }),
            responses: { '201': ok(wrapped) },
          },
        },
        '/addons/{id}': {
          parameters: [inPath('id')],
          get: { responses: { '200': ok(wrapped) } },
        },
      },
    };
    const mock = await mockOf(spec, 0);
    const made = await call(mock, 'POST', '/addons', {
      addon: { type: 'incident_show_addon', name: 'Status' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.addon.type).toBe('incident_show_addon');
    const listed = await call(mock, 'GET', '/addons');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.addons).toEqual([
      { id: made.body.addon.id, type: 'incident_show_addon_reference', name: 'Status' },
    ]);
    expect((await call(mock, 'GET', `/addons/${made.body.addon.id}`)).body.addon.type).toBe(
      'incident_show_addon',
    );
  });
});

describe('records keyed by their own link, whose item operations type the parameter apart', () => {
  it('make link values every operation takes (Vimeo’s GET of a followed category takes a text, its PUT a number)', async () => {
    const category = {
      type: 'object',
      required: ['uri', 'name'],
      properties: { uri: { type: 'string' }, name: { type: 'string' } },
    };
    const parameter = (type: string) => inPath('category', { type });
    const spec = {
      openapi: '3.0.3',
      info: { title: 'categories', version: '1' },
      paths: {
        '/me/categories': { get: { responses: { '200': ok({ type: 'array', items: category }) } } },
        '/me/categories/{category}': {
          get: { parameters: [parameter('string')], responses: { '200': ok(category) } },
          put: {
            parameters: [parameter('number')],
            requestBody: body({ type: 'object', properties: { name: { type: 'string' } } }),
            responses: { '200': ok(category) },
          },
        },
      },
    };
    const mock = await mockOf(spec, 2);
    const seeded = (await call(mock, 'GET', '/me/categories')).body as { uri: string }[];
    expect(seeded).toHaveLength(2);
    for (const one of seeded) {
      expect(one.uri).toMatch(/^\/me\/categories\/[1-9][0-9]*$/);
      const put = await call(mock, 'PUT', one.uri, { name: 'Animation' });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body).toEqual({ uri: one.uri, name: 'Animation' });
    }
  });
});

describe('a link key', () => {
  it('is read only where the path takes a number and the link says nothing of its own shape (ReadMe’s links end in a slug)', () => {
    const specWith = (parameter: object, uri: object) => ({
      openapi: '3.1.0',
      info: { title: 'links', version: '1' },
      paths: {
        '/changelogs': {
          get: {
            responses: {
              '200': ok({
                type: 'array',
                items: { type: 'object', properties: { uri, title: { type: 'string' } } },
              }),
            },
          },
        },
        '/changelogs/{identifier}': {
          parameters: [inPath('identifier', parameter)],
          get: { responses: { '200': ok({ type: 'object', properties: { uri } }) } },
        },
      },
    });
    const keyOf = (spec: object) =>
      inferResources(listOperations(spec as never)).map((one) => [one.idProperty, one.keyLink])[0];
    const text = { type: 'string' };
    expect(keyOf(specWith({ type: 'integer' }, text))).toEqual([
      'uri',
      expect.objectContaining({ template: '/changelogs/{identifier}' }),
    ]);
    expect(keyOf(specWith({ type: 'string' }, text))).toBeUndefined();
    expect(
      keyOf(specWith({ type: 'integer' }, { type: 'string', pattern: '^/changelogs/[a-z]+$' })),
    ).toBeUndefined();
  });
});

describe('the records the documentation reads', () => {
  // Vimeo documents `GET /channels/{channel_id}` with `channel_id: 927`, and its nested calls
  // under that channel: the service holds channel 927, a fresh mock answered 404 to each.
  const channel = {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } },
  };
  const member = {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: { type: 'integer' }, name: { type: 'string' } },
  };
  const spec = {
    openapi: '3.1.0',
    info: { title: 'documented keys', version: '1' },
    paths: {
      '/channels': {
        get: { responses: { '200': ok({ type: 'array', items: channel }) } },
        post: { requestBody: body(channel), responses: { '201': ok(channel) } },
      },
      '/channels/{channel_id}': {
        get: {
          parameters: [inPath('channel_id', { type: 'integer', example: 927 })],
          responses: { '200': ok(channel) },
        },
      },
      '/members': {
        get: { responses: { '200': ok({ type: 'array', items: member }) } },
        post: { requestBody: body(member), responses: { '201': ok(member) } },
      },
      '/members/{id}': {
        get: {
          parameters: [
            { name: 'id', in: 'path', required: true, example: 10, schema: { type: 'integer' } },
          ],
          responses: { '200': ok(member) },
        },
      },
    },
  };

  it('seeds a record at the key an item path is documented with, where the service chooses keys', async () => {
    const mock = await mockOf(spec, 3);
    const read = await call(mock, 'GET', '/channels/927');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: 927 });
    expect((await call(mock, 'GET', '/channels')).body).toHaveLength(3);
    // A create still gets a key of its own.
    const made = await call(mock, 'POST', '/channels', { name: 'news' });
    expect(made.status).toBe(201);
    expect(made.body.id).not.toBe(927);
  });

  it('seeds a record keyed by its link at the link the documented key makes', async () => {
    const video = {
      type: 'object',
      required: ['uri', 'name'],
      properties: { uri: { type: 'string' }, name: { type: 'string' } },
    };
    const videos = {
      openapi: '3.0.3',
      info: { title: 'videos', version: '1' },
      paths: {
        '/videos': {
          get: { responses: { '200': ok({ type: 'array', items: video }) } },
          post: {
            requestBody: body({ type: 'object', properties: { name: { type: 'string' } } }),
            responses: { '201': ok(video) },
          },
        },
        '/videos/{video_id}': {
          get: {
            parameters: [inPath('video_id', { type: 'number', example: 258684937 })],
            responses: { '200': ok(video) },
          },
        },
      },
    };
    const mock = await mockOf(videos, 2);
    const read = await call(mock, 'GET', '/videos/258684937');
    expect(read.status).toBe(200);
    expect(read.body.uri).toBe('/videos/258684937');
  });

  it('leaves the key free where the client chooses it: the documented create sends it', async () => {
    const mock = await mockOf(spec, 3);
    expect((await call(mock, 'GET', '/members/10')).status).toBe(404);
    expect((await call(mock, 'POST', '/members', { id: 10, name: 'Ada' })).status).toBe(201);
  });
});

describe('answers about a record, not the record', () => {
  const model = {
    type: 'object',
    required: ['id', 'object', 'owned_by'],
    properties: {
      id: { type: 'string', readOnly: true },
      object: { type: 'string', enum: ['model'] },
      owned_by: { type: 'string' },
    },
  };
  const deleted = {
    type: 'object',
    required: ['id', 'object', 'deleted'],
    properties: {
      id: { type: 'string' },
      object: { type: 'string' },
      deleted: { type: 'boolean' },
    },
  };
  const run = {
    type: 'object',
    required: ['id', 'workflow_id'],
    properties: { id: { type: 'integer', readOnly: true }, workflow_id: { type: 'integer' } },
  };
  const invitation = {
    type: 'object',
    required: ['id', 'invitee'],
    properties: { id: { type: 'integer' }, invitee: { type: 'string' } },
  };
  const member = {
    type: 'object',
    required: ['login'],
    properties: { login: { type: 'string' }, role: { type: 'string' } },
  };
  const spec = {
    openapi: '3.1.0',
    info: { title: 'about records', version: '1' },
    paths: {
      '/models': { get: { responses: { '200': ok({ type: 'array', items: model }) } } },
      '/models/{model}': {
        parameters: [
          {
            name: 'model',
            in: 'path',
            required: true,
            schema: { type: 'string' },
            example: 'gpt-x',
          },
        ],
        get: { responses: { '200': ok(model) } },
        delete: { responses: { '200': ok(deleted) } },
      },
      // Workflows no client creates, named by an id or a file name.
      '/workflows': {
        get: {
          responses: {
            '200': ok({
              type: 'array',
              items: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
            }),
          },
        },
      },
      '/workflows/{workflow_id}/runs': {
        parameters: [inPath('workflow_id')],
        get: { responses: { '200': ok({ type: 'array', items: run }) } },
      },
      '/members': { get: { responses: { '200': ok({ type: 'array', items: member }) } } },
      '/members/{login}': {
        parameters: [inPath('login')],
        get: { responses: { '200': ok(member) } },
        put: {
          requestBody: body({ type: 'object', properties: { role: { type: 'string' } } }),
          responses: { '201': ok(invitation) },
        },
      },
    },
  };

  it('answers a delete documented as a confirmation with one, holding the record’s id', async () => {
    const mock = await mockOf(spec, 2);
    const gone = await call(mock, 'DELETE', '/models/gpt-x');
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ id: 'gpt-x', deleted: expect.any(Boolean) });
    expect((await call(mock, 'GET', '/models/gpt-x')).status).toBe(404);
  });

  it('leaves a numeric field as made where the path names its parent by a word', async () => {
    const mock = await mockOf(spec, 2);
    const runs = await call(mock, 'GET', '/workflows/main.yaml/runs');
    expect(runs.status).toBe(200);
    for (const one of runs.body) expect(one.workflow_id).toEqual(expect.any(Number));
  });

  it('answers a put that makes a record with what the put documents', async () => {
    const mock = await mockOf(spec, 2);
    const put = await call(mock, 'PUT', '/members/ada', { role: 'admin' });
    expect(put.status).toBe(201);
    expect(put.body).toMatchObject({ id: expect.any(Number), invitee: expect.any(String) });
    expect((await call(mock, 'GET', '/members/ada')).status).toBe(200);
  });
});

describe('paths that end in a slash (Django REST: NetBox)', () => {
  it('are a collection, its items and a nested collection under them, as without the slash', async () => {
    const site = {
      type: 'object',
      required: ['name'],
      properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } },
    };
    const device = {
      type: 'object',
      required: ['name'],
      properties: {
        id: { type: 'integer', readOnly: true },
        name: { type: 'string' },
        site_id: { type: 'string' },
      },
    };
    const page = (item: object) =>
      ok({
        type: 'object',
        required: ['count', 'results'],
        properties: {
          count: { type: 'integer' },
          next: { type: ['string', 'null'], format: 'uri' },
          results: { type: 'array', items: item },
        },
      });
    const spec = {
      openapi: '3.1.0',
      info: { title: 'netbox-like', version: '1' },
      paths: {
        '/dcim/sites/': {
          get: { responses: { '200': page(site) } },
          post: { requestBody: body(site), responses: { '201': ok(site) } },
        },
        '/dcim/sites/{id}/': {
          parameters: [inPath('id', { type: 'integer' })],
          get: { responses: { '200': ok(site) } },
          delete: { responses: { '204': { description: 'gone' } } },
        },
        '/dcim/sites/{site_id}/devices/': {
          parameters: [inPath('site_id')],
          get: { responses: { '200': page(device) } },
          post: { requestBody: body(device), responses: { '201': ok(device) } },
        },
      },
    };
    const mock = await mockOf(spec, 0);
    const made = await call(mock, 'POST', '/dcim/sites/', { name: 'ams1' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toEqual({ id: 1, name: 'ams1' });
    expect((await call(mock, 'GET', '/dcim/sites/1/')).body).toEqual(made.body);
    expect((await call(mock, 'GET', '/dcim/sites/')).body).toMatchObject({
      count: 1,
      results: [made.body],
    });
    const inside = await call(mock, 'POST', '/dcim/sites/1/devices/', { name: 'sw1' });
    expect(inside.status, JSON.stringify(inside.body)).toBe(201);
    expect(inside.body).toMatchObject({ name: 'sw1', site_id: '1' });
    expect((await call(mock, 'GET', '/dcim/sites/1/devices/')).body.results).toEqual([inside.body]);
    // A parent that does not exist holds no devices.
    expect((await call(mock, 'POST', '/dcim/sites/9/devices/', { name: 'sw2' })).status).toBe(404);
    expect((await call(mock, 'DELETE', '/dcim/sites/1/')).status).toBe(204);
    expect((await call(mock, 'GET', '/dcim/sites/1/')).status).toBe(404);
  });
});

describe('an `id` that holds an object', () => {
  it('is no key: the operation answers as the spec says, not a collection keyed by an object (Mist)', async () => {
    const chassis = {
      type: 'object',
      properties: {
        members: {
          type: 'array',
          items: { type: 'object', properties: { mac: { type: 'string' } } },
        },
      },
    };
    const spec = {
      openapi: '3.0.1',
      info: { title: 'mist-like', version: '1' },
      paths: {
        '/sites/{site_id}/devices/{device_id}/vc': {
          parameters: [inPath('site_id'), inPath('device_id')],
          post: {
            requestBody: body(chassis),
            responses: { '200': ok({ type: 'object', properties: { id: chassis } }) },
          },
        },
      },
    };
    const resources = inferResources(
      listOperations((await loadSpec(await specFileOf(spec))).resolved),
    );
    expect(resources.map((resource) => resource.idProperty)).not.toContain('id');
    const mock = await mockOf(spec, 0);
    const sent = { members: [{ mac: 'aff827549235' }] };
    const made = await call(mock, 'POST', '/sites/s1/devices/d1/vc', sent);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
  });
});
