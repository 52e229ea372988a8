// petstore-kit/msw in Node: the mock as MSW handlers under setupServer, no port. Its answers
// are the server's: each error is compared with what a started mock answers to the same request.
import { setupServer } from 'msw/node';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSpec, type LoadedSpec } from '../src/openapi/load.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { mockHandlers, type MswMock, type MswMockOptions } from '../src/msw.js';
import { KEYS, withKeySchemes } from './fixtures/library-keys.js';
import { EXPECTED_MSW_MAJOR, MSW_MAJOR, unhandled } from './msw-major.js';
import { AUTH, KEY, QUICK_SHUTDOWN } from './helpers.js';

const LIBRARY = fileURLToPath(new URL('./fixtures/specs/library.yaml', import.meta.url));
/** The origin the handlers answer for; the started mocks (127.0.0.1) are left to the network. */
const ORIGIN = 'http://api.test';

const server = setupServer();
beforeAll(() => server.listen(unhandled('bypass')));
afterAll(() => server.close());

/** The same mock twice: as MSW handlers, and as a server, to compare their answers. */
async function both(
  options: MswMockOptions & { spec?: string | LoadedSpec },
): Promise<{ msw: MswMock; served: RunningMock }> {
  const msw = await mockHandlers({ ...options, origin: ORIGIN });
  const served = await startMock({ ...QUICK_SHUTDOWN, ...options });
  return { msw, served };
}

interface Seen {
  status: number;
  type: string | null;
  body: unknown;
}

async function seen(response: Response): Promise<Seen> {
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
  };
}

it('runs with the MSW major of its Vitest project (2, or 3 in the msw3 project)', () => {
  expect(MSW_MAJOR).toBe(EXPECTED_MSW_MAJOR);
});

describe('petstore-kit/msw with the bundled spec (setupServer, no port)', () => {
  let msw: MswMock;
  let served: RunningMock;
  const api = (path: string) => `${ORIGIN}/v1${path}`;

  beforeAll(async () => {
    ({ msw, served } = await both({ apiKeys: [KEY], seedCount: 3 }));
    server.use(...msw.handlers);
  });
  afterAll(async () => {
    server.resetHandlers();
    await msw.close();
    await served.close();
  });
  beforeEach(() => msw.mock.reset());

  /** A request to the handlers and the same one to the started mock. */
  async function compare(path: string, init: RequestInit = {}): Promise<[Seen, Seen]> {
    const mine = await seen(await fetch(api(path), init));
    const theirs = await seen(await fetch(`${served.url}${path}`, init));
    return [mine, theirs];
  }

  it('keeps state: a category created is in the next list, and gone after reset', async () => {
    const before = (await seen(await fetch(api('/categories'), { headers: AUTH }))).body;
    expect(before).toHaveLength(3);
    const created = await fetch(api('/categories'), {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Axolotls' }),
    });
    expect(created.status).toBe(201);
    const record = (await created.json()) as { id: number; name: string };
    expect(record.name).toBe('Axolotls');

    const after = (await seen(await fetch(api('/categories'), { headers: AUTH }))).body;
    expect(after).toContainEqual(record);
    expect(after).toHaveLength(4);

    await msw.mock.reset();
    expect((await seen(await fetch(api('/categories'), { headers: AUTH }))).body).toEqual(before);
  });

  it('refuses a body the spec refuses with a 400, shaped as the server shapes it', async () => {
    const init = {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 42 }),
    };
    const [mine, theirs] = await compare('/categories', init);
    expect(mine.status).toBe(400);
    expect(mine).toEqual(theirs);
  });

  it('answers a request without a credential 401, as the server does', async () => {
    const [mine, theirs] = await compare('/categories');
    expect(mine.status).toBe(401);
    expect(mine).toEqual(theirs);
  });

  it('plays a 500 forced by Prefer, as the server does, and leaves the data alone', async () => {
    const [mine, theirs] = await compare('/categories', {
      headers: { ...AUTH, Prefer: 'code=500' },
    });
    expect(mine.status).toBe(500);
    expect(mine).toEqual(theirs);
    expect((await seen(await fetch(api('/categories'), { headers: AUTH }))).body).toHaveLength(3);
  });

  it('keeps each Mock-Session apart from the default state', async () => {
    const session = { ...AUTH, 'Mock-Session': 'worker-1', 'Content-Type': 'application/json' };
    await fetch(api('/categories'), {
      method: 'POST',
      headers: session,
      body: JSON.stringify({ name: 'Only here' }),
    });
    const inSession = (await seen(await fetch(api('/categories'), { headers: session }))).body;
    const outside = (await seen(await fetch(api('/categories'), { headers: AUTH }))).body;
    expect(inSession).toHaveLength(4);
    expect(outside).toHaveLength(3);
  });

  it('serves the admin API: the request log holds what the page asked', async () => {
    await fetch(api('/categories'), { headers: AUTH });
    const log = await fetch(`${ORIGIN}/__mock/requests`, { headers: AUTH });
    expect(log.status).toBe(200);
    expect(JSON.stringify(await log.json())).toContain('/v1/categories');
  });

  it('seeds per test: reset, then the records asked for', async () => {
    await msw.mock.seed({ count: 2, seed: 9 }, ['categories']);
    expect((await seen(await fetch(api('/categories'), { headers: AUTH }))).body).toHaveLength(5);
    await msw.mock.reset();
    expect((await seen(await fetch(api('/categories'), { headers: AUTH }))).body).toHaveLength(3);
  });

  it('plays a reset fault as a network error, and leaves other origins to the network', async () => {
    await expect(
      fetch(api('/categories'), { headers: { ...AUTH, Prefer: 'fault=reset' } }),
    ).rejects.toThrow();
    // Not the handlers' origin: MSW lets it through, and nothing listens there.
    await expect(fetch('http://127.0.0.1:9/v1/categories', { headers: AUTH })).rejects.toThrow();
  });
});

describe('petstore-kit/msw with the library spec (API key, basic, Problem Details)', () => {
  const KEY = 'lib-key';
  const BASIC = `${KEYS.basic.user}:${KEYS.basic.password}`;
  const HEADERS = { 'X-API-Key': KEY, 'Content-Type': 'application/json' };
  let msw: MswMock;
  let served: RunningMock;
  const api = (path: string) => `${ORIGIN}/api${path}`;

  beforeAll(async () => {
    const spec = await loadSpec(LIBRARY);
    const keyed = { ...spec, resolved: withKeySchemes(spec.resolved) };
    ({ msw, served } = await both({ spec: keyed, apiKeys: [KEY], basic: [BASIC], seedCount: 2 }));
    server.use(...msw.handlers);
  });
  afterAll(async () => {
    server.resetHandlers();
    await msw.close();
    await served.close();
  });
  beforeEach(() => msw.mock.reset());

  async function compare(path: string, init: RequestInit = {}): Promise<[Seen, Seen]> {
    const mine = await seen(await fetch(api(path), init));
    const theirs = await seen(await fetch(`${served.url}${path}`, init));
    return [mine, theirs];
  }

  it('creates an author, lists it, and deletes it with the basic credential', async () => {
    const created = await fetch(api('/authors'), {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ email: 'ada@example.com', displayName: 'Ada' }),
    });
    expect(created.status).toBe(201);
    const author = (await created.json()) as { id: string; email: string; createdAt: string };
    expect(author.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(author.createdAt).toEqual(expect.any(String));

    const list = (await seen(await fetch(api('/authors'), { headers: HEADERS }))).body;
    expect(list).toContainEqual(author);
    expect(list).toHaveLength(3);

    const basic = `Basic ${Buffer.from(BASIC).toString('base64')}`;
    const removed = await fetch(api(`/authors/${author.id}`), {
      method: 'DELETE',
      headers: { Authorization: basic },
    });
    expect(removed.status).toBe(204);
    expect((await seen(await fetch(api('/authors'), { headers: HEADERS }))).body).toHaveLength(2);
  });

  it('answers a bad body 400 as Problem Details, as the server does', async () => {
    const init = {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ email: 'not an email', unknown: true }),
    };
    const [mine, theirs] = await compare('/authors', init);
    expect(mine.status).toBe(400);
    expect(mine.type).toMatch(/^application\/problem\+json/);
    expect(mine).toEqual(theirs);
  });

  it('answers 401 without the key, and a delete with the key but not the basic credential', async () => {
    const [noKey, noKeyServed] = await compare('/authors');
    expect(noKey.status).toBe(401);
    expect(noKey).toEqual(noKeyServed);
    const id = '00000000-0000-4000-8000-000000000000';
    const [keyOnly, keyOnlyServed] = await compare(`/authors/${id}`, {
      method: 'DELETE',
      headers: { 'X-API-Key': KEY },
    });
    expect(keyOnly.status).toBe(401);
    expect(keyOnly).toEqual(keyOnlyServed);
  });

  it('plays a forced 500 in the spec’s error shape, as the server does', async () => {
    const [mine, theirs] = await compare('/books', { headers: { ...HEADERS, Prefer: 'code=500' } });
    expect(mine.status).toBe(500);
    expect(mine.type).toMatch(/^application\/problem\+json/);
    expect(mine).toEqual(theirs);
  });
});

describe('the petstore-kit/msw entry', () => {
  /** Every module src/msw.ts loads (types left out), relative ones as paths below src/. */
  function loadedBy(): Set<string> {
    const seenModules = new Set<string>();
    const visit = (file: string): void => {
      if (seenModules.has(file)) return;
      seenModules.add(file);
      const text = readFileSync(file, 'utf8');
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
      const specifiers: string[] = [];
      const walk = (node: ts.Node): void => {
        if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly)
          specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
        else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier)
          specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
        else if (
          ts.isCallExpression(node) &&
          node.expression.kind === ts.SyntaxKind.ImportKeyword &&
          node.arguments[0] &&
          ts.isStringLiteral(node.arguments[0])
        )
          specifiers.push(node.arguments[0].text);
        ts.forEachChild(node, walk);
      };
      walk(source);
      for (const specifier of specifiers) {
        if (specifier.startsWith('.'))
          visit(join(dirname(file), specifier).replace(/\.js$/, '.ts'));
        else seenModules.add(specifier);
      }
    };
    visit(fileURLToPath(new URL('../src/msw.ts', import.meta.url)));
    return new Set([...seenModules].map((name) => name.replace(/^.*\/src\//, '')));
  }

  it('loads no file store, Redis, socket or HTTP server module', () => {
    const loaded = loadedBy();
    expect(loaded).toContain('wiring/msw-handlers.ts');
    expect(loaded).toContain('core/mock-core.ts');
    const nodeOnly = [
      'store/file-store.ts',
      'store/journal.ts',
      'store/lock-file.ts',
      'store/redis-store.ts',
      'store/redis-connection.ts',
      'openapi/watch.ts',
      'http/server.ts',
      'http/listener.ts',
      'http/body.ts',
      'wiring/start-mock.ts',
      'ioredis',
      'fs-native-extensions',
      'raw-body',
      'node:net',
      'pino',
    ];
    expect(nodeOnly.filter((name) => loaded.has(name))).toEqual([]);
  });
});
