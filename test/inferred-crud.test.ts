// The resource engine on a second spec, unlike ours (string UUID ids, integer ids under
// another name, full create/read/update/delete, patterns, formats, Problem Details errors),
// served statefully with no code written for it, over HTTP.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createSchemaCompiler } from '../src/openapi/schemas.js';
import { listOperations } from '../src/openapi/operations.js';
import { inferResources } from '../src/openapi/resources.js';
import { KEY } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';

const LIBRARY = fileURLToPath(new URL('./fixtures/specs/library.yaml', import.meta.url));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const mocks: InProcessMock[] = [];
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
});

async function library(seed = 1): Promise<InProcessMock> {
  const mock = await inProcessMock({ spec: LIBRARY, apiKeys: [KEY], seed, seedCount: 5 });
  mocks.push(mock);
  return mock;
}

interface Answer {
  status: number;
  type: string | null;
  location: string | null;
  body: unknown;
}

async function call(
  mock: InProcessMock,
  method: string,
  path: string,
  body?: unknown,
  type = 'application/json',
): Promise<Answer> {
  const res = await mock.fetch(`${mock.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${KEY}`,
      ...(body === undefined ? {} : { 'Content-Type': type }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    location: res.headers.get('location'),
    body: text === '' ? undefined : JSON.parse(text),
  };
}

type Author = {
  id: string;
  email: string;
  displayName?: string;
  createdAt: string;
  updatedAt?: string;
};
type Book = { number: number; isbn: string; title: string; status: string; pages?: number };

describe('what the engine infers from a spec', () => {
  it('finds each collection, its item path and its id, and leaves the rest to examples', async () => {
    const spec = await loadSpec(LIBRARY);
    const resources = inferResources(listOperations(spec.resolved));
    expect(
      resources.map((r) => ({
        name: r.name,
        itemPath: r.itemPath,
        id: [r.idProperty, r.idKind],
        actions: [...r.actions.values()],
      })),
    ).toEqual([
      {
        name: 'authors',
        itemPath: '/authors/{authorId}',
        id: ['id', 'uuid'],
        actions: ['list', 'create', 'read', 'replace', 'delete', 'update'],
      },
      {
        name: 'books',
        itemPath: '/books/{bookNumber}',
        id: ['number', 'integer'],
        actions: ['list', 'create', 'read', 'delete'],
      },
    ]);
  });

  it('infers the categories of our own spec as one of its resources, not a special case', async () => {
    const resources = inferResources(listOperations((await loadSpec()).resolved));
    expect(resources.map((r) => [r.name, r.idProperty, r.idKind, r.itemPath])).toEqual([
      ['categories', 'id', 'integer', undefined],
    ]);
  });
});

describe('seed data for every collection', () => {
  it('is valid against every keyword of its schema, and realistic', async () => {
    const mock = await library();
    const spec = await loadSpec(LIBRARY);
    const compiler = createSchemaCompiler();
    const schemas = spec.resolved.components!.schemas!;
    const authors = (await call(mock, 'GET', '/authors')).body as Author[];
    const books = (await call(mock, 'GET', '/books')).body as Book[];
    expect(authors).toHaveLength(5);
    expect(books).toHaveLength(5);
    for (const author of authors) {
      expect(compiler.response(schemas.Author!)(author)).toEqual([]);
      expect(author.id).toMatch(UUID);
      expect(author.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/i);
    }
    for (const book of books) {
      expect(compiler.response(schemas.Book!)(book)).toEqual([]);
      expect(book.isbn).toMatch(/^97[89]-[0-9]{10}$/);
    }
    expect(books.map((book) => book.number)).toEqual([1, 2, 3, 4, 5]);
  });

  it('is the same for the same seed, ids included, and other for another seed', async () => {
    const [a, b, c] = await Promise.all([library(7), library(7), library(8)]);
    const authors = async (mock: InProcessMock) => (await call(mock, 'GET', '/authors')).body;
    expect(await authors(a)).toEqual(await authors(b));
    expect(await authors(a)).not.toEqual(await authors(c));
  });
});

describe('full create, read, update, delete with UUID ids', () => {
  it('creates with a new UUID, server-set timestamps and a Location, and reads it back', async () => {
    const mock = await library();
    const created = await call(mock, 'POST', '/authors', {
      email: 'ada@example.org',
      displayName: 'Ada',
    });
    expect(created.status).toBe(201);
    const author = created.body as Author;
    expect(author).toMatchObject({ email: 'ada@example.org', displayName: 'Ada' });
    expect(author.id).toMatch(UUID);
    expect(Date.parse(author.createdAt)).not.toBeNaN();
    expect(created.location).toBe(`/api/authors/${author.id}`);
    expect((await call(mock, 'GET', `/authors/${author.id}`)).body).toEqual(author);
    expect((await call(mock, 'GET', '/authors')).body).toContainEqual(author);
  });

  it('put replaces the client fields and keeps what the service set', async () => {
    const mock = await library();
    const { body } = await call(mock, 'POST', '/authors', {
      email: 'a@example.org',
      displayName: 'A',
    });
    const author = body as Author;
    const replaced = await call(mock, 'PUT', `/authors/${author.id}`, { email: 'b@example.org' });
    expect(replaced.status).toBe(200);
    const after = replaced.body as Author;
    expect(after).toMatchObject({
      id: author.id,
      email: 'b@example.org',
      createdAt: author.createdAt,
    });
    expect(after.displayName).toBeUndefined();
    expect(after.updatedAt).toEqual(expect.any(String));
  });

  it('patch merges a JSON Merge Patch: null removes, other values replace', async () => {
    const mock = await library();
    const { body } = await call(mock, 'POST', '/authors', {
      email: 'a@example.org',
      displayName: 'A',
      born: '1815-12-10',
    });
    const author = body as Author;
    const patched = await call(
      mock,
      'PATCH',
      `/authors/${author.id}`,
      { displayName: null, email: 'ada@example.org' },
      'application/merge-patch+json',
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id: author.id,
      email: 'ada@example.org',
      born: '1815-12-10',
    });
    expect((patched.body as Author).displayName).toBeUndefined();
  });

  it('a patch that would break the schema gets 400, and changes nothing', async () => {
    const mock = await library();
    const author = (await call(mock, 'POST', '/authors', { email: 'a@example.org' }))
      .body as Author;
    const refused = await call(
      mock,
      'PATCH',
      `/authors/${author.id}`,
      { email: null },
      'application/merge-patch+json',
    );
    expect(refused.status).toBe(400);
    expect((await call(mock, 'GET', `/authors/${author.id}`)).body).toEqual(author);
  });

  it('delete removes: then get is 404, and the list no longer holds it', async () => {
    const mock = await library();
    const author = (await call(mock, 'POST', '/authors', { email: 'a@example.org' }))
      .body as Author;
    const deleted = await call(mock, 'DELETE', `/authors/${author.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    const gone = await call(mock, 'GET', `/authors/${author.id}`);
    expect(gone.status).toBe(404);
    expect((await call(mock, 'GET', '/authors')).body).not.toContainEqual(author);
    expect((await call(mock, 'DELETE', `/authors/${author.id}`)).status).toBe(404);
  });
});

describe('integer ids under another name', () => {
  it('count up from the seeds, and delete answers the removed record as the spec says', async () => {
    const mock = await library();
    const created = await call(mock, 'POST', '/books', {
      isbn: '978-0262033848',
      title: 'Algorithms',
      status: 'published',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ number: 6, title: 'Algorithms' });
    const removed = await call(mock, 'DELETE', '/books/6');
    expect(removed).toMatchObject({ status: 200, body: { number: 6, title: 'Algorithms' } });
    const next = await call(mock, 'POST', '/books', {
      isbn: '979-0000000000',
      title: 'Next',
      status: 'draft',
    });
    // Never reused, even after a delete.
    expect((next.body as Book).number).toBe(7);
  });
});

describe('errors fit the schema the spec declares for them', () => {
  it.each([
    { what: 'an unknown id', method: 'GET', path: '/books/999', status: 404 },
    { what: 'an id that is not an integer', method: 'GET', path: '/books/abc', status: 400 },
    { what: 'an id that is not a UUID', method: 'GET', path: '/authors/42', status: 400 },
    {
      what: 'a pattern broken',
      method: 'POST',
      path: '/books',
      body: { isbn: '123', title: 'x', status: 'draft' },
      status: 400,
    },
    {
      what: 'an enum broken',
      method: 'POST',
      path: '/books',
      body: { isbn: '978-0000000000', title: 'x', status: 'lost' },
      status: 400,
    },
    {
      what: 'a required field other than a name missing',
      method: 'POST',
      path: '/authors',
      body: { displayName: 'No email' },
      status: 400,
    },
    {
      what: 'a read-only id sent',
      method: 'POST',
      path: '/authors',
      body: { id: '8a1f1a63-1b52-4a2e-9d8f-111111111111', email: 'a@example.org' },
      status: 400,
    },
    {
      what: 'an unknown field (additionalProperties: false)',
      method: 'POST',
      path: '/authors',
      body: { email: 'a@example.org', nickname: 'x' },
      status: 400,
    },
  ])('$what -> $status as Problem Details', async ({ method, path, body, status }) => {
    const mock = await library();
    const answer = await call(mock, method, path, body);
    expect(answer.status).toBe(status);
    expect(answer.type).toMatch(/^application\/problem\+json/);
    expect(answer.body).toEqual({
      type: expect.stringMatching(/^urn:petstore-kit:error:/),
      title: expect.any(String),
      status,
      detail: expect.any(String),
    });
  });
});

describe('operations no resource covers', () => {
  it('answer data generated from their schema, valid against it', async () => {
    const mock = await library();
    const res = await mock.fetch(`${mock.url}/health`);
    expect(res.status).toBe(200);
    expect(['up', 'degraded']).toContain(((await res.json()) as { status: string }).status);
  });
});
