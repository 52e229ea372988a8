// The mock as one object, called with no port: plain requests in and plain answers out
// (`handle`), and Fetch requests in and Responses out (`fetch`), for the bundled spec and
// for the library fixture (another base path, UUID ids, Problem Details errors).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createMock, type Mock, type MockSettings } from '../src/core/create-mock.js';
import { loadSpec } from '../src/openapi/load.js';
import { CheckedJson, type Reply } from '../src/vocabulary/answer.js';
import { createApp } from '../src/wiring/create-app.js';
import { resolveOptions } from '../src/wiring/options.js';
import { AUTH, KEY } from './helpers.js';
import { tempFolder } from './temp-folders.js';

const LIBRARY = fileURLToPath(new URL('./fixtures/specs/library.yaml', import.meta.url));

/** The core takes resolved options (every default filled in) and no defaults but a store. */
const SETTINGS: MockSettings = resolveOptions({
  apiKeys: [KEY],
  seedCount: 3,
  faultTimeoutSeconds: 1,
  maxSessions: 10,
  sessionTtlSeconds: 60,
});

/** The JSON of a plain reply's answer. */
function jsonOf(reply: Reply): unknown {
  const body = reply.answer?.body;
  if (body === undefined) return undefined;
  const bytes = body instanceof CheckedJson ? body.bytes : body.joined();
  return JSON.parse(bytes.toString('utf8')) as unknown;
}

describe('the bundled spec, called with plain data (mock.handle)', () => {
  let mock: Mock;
  beforeAll(async () => {
    mock = createMock(await loadSpec(), SETTINGS);
    await mock.seed({ count: 2, seed: 1 });
  });

  it('creates a category from a body given as text, with no Content-Length, and lists it', async () => {
    const created = await mock.handle({
      method: 'POST',
      target: '/v1/categories',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"name":"Birds"}',
    });
    expect(created.answer?.status).toBe(201);
    expect(created.answer?.headers['Content-Type']).toMatch(/^application\/json/);
    const category = jsonOf(created) as { id: unknown; name: string };
    expect(category).toMatchObject({ name: 'Birds' });
    expect(category.id).toBeDefined();

    const listed = await mock.handle({ method: 'GET', target: '/v1/categories', headers: AUTH });
    expect(listed.answer?.status).toBe(200);
    const names = (jsonOf(listed) as { name: string }[]).map((item) => item.name);
    expect(names).toContain('Birds');
    expect(names.length).toBe(3); // the two seeded, and the one created
  });

  it('takes the body as bytes too', async () => {
    const created = await mock.handle({
      method: 'POST',
      target: '/v1/categories',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: new TextEncoder().encode('{"name":"Fish"}'),
    });
    expect(created.answer?.status).toBe(201);
    expect(jsonOf(created)).toMatchObject({ name: 'Fish' });
  });

  it('answers 401 in the spec Error shape, before the body is read', async () => {
    let read = false;
    const reply = await mock.handle({
      method: 'POST',
      target: '/v1/categories',
      headers: { 'content-type': 'application/json', 'content-length': '16' },
      body: () => {
        read = true;
        return Promise.resolve(Buffer.from('{"name":"Birds"}'));
      },
    });
    expect(reply.answer?.status).toBe(401);
    expect(reply.answer?.headers['WWW-Authenticate']).toMatch(/^Bearer/);
    expect(jsonOf(reply)).toMatchObject({ status: 401, code: expect.any(String) as string });
    expect(read).toBe(false);
  });

  it('answers 400 naming the missing property, in the spec Error shape', async () => {
    const reply = await mock.handle({
      method: 'POST',
      target: '/v1/categories',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(reply.answer?.status).toBe(400);
    const error = jsonOf(reply) as { status: number; message: string; code: string };
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/required property 'name'/);
  });

  it('answers 404 for a path the spec lacks, in the spec Error shape', async () => {
    const reply = await mock.handle({ method: 'GET', target: '/v1/nowhere', headers: AUTH });
    expect(reply.answer?.status).toBe(404);
    expect(jsonOf(reply)).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('the bundled spec through mock.fetch(Request)', () => {
  let mock: Mock;
  beforeAll(async () => {
    mock = createMock(await loadSpec(), SETTINGS);
  });

  it('creates and lists categories', async () => {
    const created = await mock.fetch(
      new Request('http://mock.test/v1/categories', {
        method: 'POST',
        headers: { ...AUTH, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Reptiles' }),
      }),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    const category = (await created.json()) as { id: unknown; name: string };
    expect(category.name).toBe('Reptiles');

    const listed = await mock.fetch(
      new Request('http://mock.test/v1/categories', { headers: AUTH }),
    );
    expect(listed.status).toBe(200);
    const list = (await listed.json()) as { id: unknown; name: string }[];
    expect(list).toContainEqual(category);
  });

  it('answers 401, 400 and 404 in the spec Error shape', async () => {
    const anonymous = await mock.fetch(new Request('http://mock.test/v1/categories'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await anonymous.json()).toMatchObject({ status: 401 });

    const invalid = await mock.fetch(
      new Request('http://mock.test/v1/categories', {
        method: 'POST',
        headers: { ...AUTH, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 7 }),
      }),
    );
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ status: 400, code: expect.any(String) as string });

    const missing = await mock.fetch(new Request('http://mock.test/v1/nowhere', { headers: AUTH }));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('the library fixture through createApp(...).mock', () => {
  let mock: Mock;
  beforeAll(async () => {
    mock = createApp({ spec: await loadSpec(LIBRARY), apiKeys: [KEY] }).mock;
  });
  const problem = /^application\/problem\+json/;

  it('creates an author with a server-set UUID and lists it, with plain data and with fetch', async () => {
    const created = await mock.handle({
      method: 'POST',
      target: '/api/authors',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{"email":"ada@example.com","displayName":"Ada"}',
    });
    expect(created.answer?.status).toBe(201);
    const author = jsonOf(created) as { id: string; email: string; createdAt: string };
    expect(author.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(author.email).toBe('ada@example.com');
    expect(Date.parse(author.createdAt)).not.toBeNaN();

    const listed = await mock.fetch(new Request('http://mock.test/api/authors', { headers: AUTH }));
    expect(listed.status).toBe(200);
    expect(await listed.json()).toContainEqual(author);

    const read = await mock.fetch(
      new Request(`http://mock.test/api/authors/${author.id}`, { headers: AUTH }),
    );
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(author);
  });

  it('answers 401, 400 and 404 as Problem Details', async () => {
    const anonymous = await mock.fetch(new Request('http://mock.test/api/authors'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(problem);
    expect(await anonymous.json()).toMatchObject({
      status: 401,
      title: expect.any(String) as string,
    });

    const invalid = await mock.fetch(
      new Request('http://mock.test/api/authors', {
        method: 'POST',
        headers: { ...AUTH, 'Content-Type': 'application/json' },
        body: JSON.stringify({ displayName: 'No email' }),
      }),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('content-type')).toMatch(problem);
    const body = (await invalid.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 400 });
    // The Problem schema is closed: nothing of the mock's own error shape leaks in.
    expect(
      Object.keys(body).every((key) => ['type', 'title', 'status', 'detail'].includes(key)),
    ).toBe(true);

    const missing = await mock.fetch(
      new Request('http://mock.test/api/authors/00000000-0000-4000-8000-000000000000', {
        headers: AUTH,
      }),
    );
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(problem);
    expect(await missing.json()).toMatchObject({ status: 404 });
  });
});

describe('docs/in-process.md', () => {
  it('runs as written, against the library entry, and prints what it says', async () => {
    const page = await readFile(new URL('../docs/in-process.md', import.meta.url), 'utf8');
    const snippet = /```ts\n([\s\S]*?)```/.exec(page)?.[1];
    expect(snippet).toBeDefined();
    const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));
    const file = join(await tempFolder('in-process'), 'snippet.ts');
    await writeFile(file, (snippet ?? '').replace(`from 'petstore-kit'`, `from '${entry}'`));
    const printed: unknown[][] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      printed.push(args);
    });
    try {
      await import(file);
    } finally {
      log.mockRestore();
    }
    expect(printed[0]?.[0]).toBe(201);
    expect(printed[0]?.[1]).toMatchObject({ name: 'Birds' });
    expect(printed[1]?.[0]).toBe(200);
  });
});
