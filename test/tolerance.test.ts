// Defects a real API description has and the mock lives with: each is a warning at start-up
// (or, for a large document, when its operation is first called), never a refusal; and what
// cannot be served is refused in one line.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { largeDocument } from './helpers.js';
import { loadSpec, SpecError, type OpenApiDocument } from '../src/openapi/load.js';
import { basePathOf } from '../src/openapi/servers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';
import { tempFolder } from './temp-folders.js';

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/specs/${name}`, import.meta.url));

const started: InProcessMock[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
  await Promise.all(
    servers.splice(0).map((server) => new Promise((done) => server.close(() => done(null)))),
  );
});

async function mock(spec: string, seedCount = 2): Promise<InProcessMock> {
  const running = await inProcessMock({ spec, seedCount });
  started.push(running);
  return running;
}

async function send(
  running: InProcessMock,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await running.fetch(`${running.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('a document with defects (test/fixtures/specs/defects.yaml)', () => {
  it('starts, and says what it reads leniently, one line each', async () => {
    const shop = await mock(fixture('defects.yaml'));
    expect(shop.url).toMatch(/\/api$/);
    expect(shop.warnings).toEqual([
      expect.stringMatching(
        /^#\/paths\/~1orders~1\{orderId\}\/get\/responses\/200 must have required property 'description'$/,
      ),
      expect.stringMatching(
        /^additionalProperties: false closes a schema over properties declared in another part of its allOf, once \(first at #\/paths\/~1receipts\/post\/responses\/200\/content\/application~1json\/schema\)/,
      ),
      expect.stringMatching(
        /^the spec's servers disagree on the base path \(\/api, \): served under the first one's, \/api$/,
      ),
      expect.stringMatching(
        /^the pattern "\^ord\\\\-\[0-9\]\+\$" is not valid with the u flag JSON Schema asks for: read without it$/,
      ),
      expect.stringMatching(
        /^the example of the 200 answer of getOrder breaks its schema \(\/total must be a number\): generated data is answered instead$/,
      ),
    ]);
  });

  it('answers generated data in place of an example that breaks its schema', async () => {
    const shop = await mock(fixture('defects.yaml'));
    const order = await send(shop, 'GET', '/orders/ord-1');
    expect(order.status).toBe(200);
    expect(order.body).toEqual({ id: expect.any(String), total: expect.any(Number) });
  });

  it('leaves out an optional property no value can meet, rather than answering 500', async () => {
    // placedAt must be its one listed date and start with "ord-": no value can meet it.
    const shop = await mock(fixture('defects.yaml'));
    for (let i = 0; i < 3; i++) {
      const order = await send(shop, 'GET', `/orders/ord-${i}`);
      expect(order.status).toBe(200);
      expect(order.body).not.toHaveProperty('placedAt');
    }
  });

  it('checks a pattern written without the u flag in mind', async () => {
    const shop = await mock(fixture('defects.yaml'));
    expect((await send(shop, 'GET', '/orders/ord-7')).status).toBe(200);
    const refused = await send(shop, 'GET', '/orders/7');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/orderId must match pattern/);
  });

  it('reads a closed schema extended by allOf as closing the whole', async () => {
    const shop = await mock(fixture('defects.yaml'));
    const stamped = await send(shop, 'POST', '/receipts', { order: 'ord-1' });
    expect(stamped.status).toBe(200);
    expect(stamped.body).toEqual({ order: expect.any(String), stamp: expect.any(String) });
    const unknown = await send(shop, 'POST', '/receipts', { order: 'ord-1', tip: 2 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/\/body\/tip is not a known property/);
  });
});

describe('server URLs', () => {
  it('that are not URLs give the path after their host', () => {
    const warnings: string[] = [];
    const document = {
      openapi: '3.0.3',
      servers: [{ url: 'protocol://hostname:<port>/switch/' }],
    } as unknown as OpenApiDocument;
    expect(basePathOf(document, (line) => warnings.push(line))).toBe('/switch');
    expect(warnings).toEqual([
      'the server URL "protocol://hostname:<port>/switch/" is not a URL: its path /switch is used',
    ]);
  });
});

describe('recursive schemas', () => {
  it('are served: checked at any depth, seeded, and generated', async () => {
    const folders = await mock(fixture('recursive.yaml'), 3);
    expect(folders.warnings).toEqual([]);

    const deep = { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] };
    const created = await send(folders, 'POST', '/folders', deep);
    expect(created).toMatchObject({ status: 201, body: deep });
    const broken = await send(folders, 'POST', '/folders', {
      name: 'a',
      children: [{ name: 'b', children: [{ name: '' }] }],
    });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(
      /\/body\/children\/0\/children\/0\/name must NOT have fewer than 1 characters/,
    );

    const listed = await send(folders, 'GET', '/folders');
    expect(listed.body).toHaveLength(4);

    // A union whose arms hold the union again, generated with no example to answer.
    for (let i = 0; i < 5; i++) {
      const tree = await send(folders, 'GET', '/tree');
      expect(tree.status).toBe(200);
      expect(['leaf', 'branch']).toContain(tree.body.kind);
    }
  });
});

describe('$refs to other files', () => {
  it('are read from the folder of the spec, wherever the mock is started from', async () => {
    const path = relative(process.cwd(), fixture('split/openapi.yaml'));
    const spec = await loadSpec(path, { checkCache: false });
    expect(spec.warnings).toEqual([]);
    const pets = await mock(path);
    expect(await send(pets, 'POST', '/pets', { name: 'Rex', tag: null })).toMatchObject({
      status: 201,
      body: { name: 'Rex', tag: null },
    });
    expect((await send(pets, 'POST', '/pets', { name: '' })).status).toBe(400);
  });

  it('are read again when one of the files changed, even when the document was remembered', async () => {
    const folder = await tempFolder('split');
    await cp(fixture('split'), folder, { recursive: true });
    const cache = await tempFolder('cache');
    const path = join(folder, 'openapi.yaml');
    const before = await loadSpec(path, { checkCache: cache });
    const petFile = join(folder, 'schemas/pet.yaml');
    await writeFile(
      petFile,
      (await readFile(petFile, 'utf8')).replace('minLength: 1', 'minLength: 2'),
    );
    const after = await loadSpec(path, { checkCache: cache });
    const nameOf = (spec: typeof before) =>
      (spec.resolved.components?.schemas?.Pet as { properties: { name: object } }).properties.name;
    expect(nameOf(before)).toMatchObject({ minLength: 1 });
    expect(nameOf(after)).toMatchObject({ minLength: 2 });
  });

  it('that cannot be fetched refuse the document in one line naming them', async () => {
    const server = createServer((_req, res) => res.writeHead(404).end('no such schema'));
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const folder = await tempFolder('url');
    for (const [name, url] of [
      ['missing.yaml', `http://127.0.0.1:${port}/pet.yaml`],
      ['file.yaml', './schemas/nowhere.yaml'],
    ] as const) {
      const path = join(folder, name);
      await writeFile(
        path,
        stringify({
          openapi: '3.1.0',
          info: { title: 't', version: '1' },
          paths: {},
          components: { schemas: { Pet: { $ref: url } } },
        }),
      );
      const failure = loadSpec(path, { checkCache: false });
      await expect(failure).rejects.toBeInstanceOf(SpecError);
      await failure.catch((err: Error) => {
        expect(err.message).not.toContain('\n');
        expect(err.message).toMatch(/has a \$ref that cannot be resolved: /);
        expect(err.message).toContain(url.replace('./', ''));
      });
    }
  });
});

describe('a large document', () => {
  it('checks an operation when it is first called, and seeds a collection when it is first used', async () => {
    // Left to its first calls (precompiling is test/precompile.test.ts's).
    const large = await inProcessMock({
      spec: await largeDocument(),
      seedCount: 3,
      precompile: false,
    });
    started.push(large);
    // Nothing checked or generated yet: no warning about the example, no record made.
    expect(large.warnings).toEqual([]);
    expect(await large.store.count()).toBe(0);

    expect((await send(large, 'GET', '/items')).body).toHaveLength(3);
    const broken = await send(large, 'GET', '/broken');
    expect(broken).toMatchObject({ status: 200, body: { id: expect.any(Number) } });
    expect(large.warnings).toEqual([
      expect.stringMatching(/^the example of the 200 answer of getBroken breaks its schema/),
    ]);

    // A reset returns to the start-up state: the collection is seeded again on its next use.
    const first = (await send(large, 'GET', '/items')).body;
    await large.reset();
    expect((await send(large, 'GET', '/items')).body).toEqual(first);
    // So does a session's state, a copy of the start-up state.
    const session = await large.fetch(`${large.url}/items`, {
      headers: { 'Mock-Session': 'alice' },
    });
    expect(await session.json()).toEqual(first);
  });
});
