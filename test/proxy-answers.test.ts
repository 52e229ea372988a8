// `petstore-kit proxy --record`: the answers of operations without a collection are kept in the
// data file's section of recorded answers, which `mock --data` then answers those operations with.
import { readFile, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedSpec } from '../src/openapi/load.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { startProxy, type RunningProxy } from '../src/wiring/start-proxy.js';
import { editedSpec, QUICK_SHUTDOWN } from './helpers.js';
import { categoriesTarget, TARGET_AUTH } from './proxy-target.js';
import { tempFolder } from './temp-folders.js';

const MOCK_AUTH = { Authorization: 'Bearer k' };

let spec: LoadedSpec;
const target = categoriesTarget();
let targetUrl: string;
const running: (RunningProxy | RunningMock)[] = [];

beforeAll(async () => {
  // The bundled spec plus an inventory: an operation no collection serves, as getPetById is.
  spec = await editedSpec((document) => {
    (document.paths as Record<string, unknown>)['/store/inventory'] = {
      get: {
        operationId: 'getInventory',
        responses: {
          '200': {
            description: 'Counts by status.',
            content: {
              'application/json': {
                schema: { type: 'object', additionalProperties: { type: 'integer' } },
              },
            },
          },
          '401': { $ref: '#/components/responses/Unauthorized' },
        },
      },
    };
  });
  await new Promise<void>((resolve) => target.server.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.server.address() as AddressInfo).port}/api/v1`;
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

afterAll(async () => {
  target.server.closeAllConnections();
  await new Promise((resolve) => target.server.close(resolve));
});

async function newFile(): Promise<string> {
  return join(await tempFolder('answers'), 'staging.json');
}

/** A proxy in front of the target, recording into `file`. */
function recordingProxy(file: string) {
  return startProxy({
    ...QUICK_SHUTDOWN,
    spec,
    target: targetUrl,
    apiKeys: ['admin'],
    record: file,
  });
}

/** Runs `record` against a proxy recording into `file`, then stops the proxy (which closes the file). */
async function recordThrough(file: string, record: (url: string) => Promise<void>): Promise<void> {
  const proxy = await recordingProxy(file);
  try {
    await record(proxy.url);
    // The target kept to the spec (a request without a credential is the test's own doing).
    const { violations } = proxy.violations.list();
    expect(violations.filter((violation) => violation.side === 'response')).toEqual([]);
  } finally {
    await proxy.close();
  }
}

async function mockOf(file: string): Promise<RunningMock> {
  const mock = await startMock({ ...QUICK_SHUTDOWN, spec, data: file, apiKeys: ['k'] });
  running.push(mock);
  return mock;
}

async function json(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json() };
}

/** The status of a GET on a connection that closes after its answer, once the answer is read. */
function closing(url: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { ...TARGET_AUTH, Connection: 'close' }, agent: false }, (res) =>
      res.resume().on('end', () => resolve(res.statusCode)),
    ).on('error', reject);
  });
}

describe('petstore-kit proxy --record: answers of operations without a collection', () => {
  it('keeps the last success answer of each, which `mock --data` answers with', async () => {
    const file = await newFile();
    const seen: Record<string, unknown> = {};
    await recordThrough(file, async (url) => {
      // A first inventory, then a category, then the inventory again: the last answer is kept.
      await json(`${url}/store/inventory`, { headers: TARGET_AUTH });
      const created = await json(`${url}/categories`, {
        method: 'POST',
        headers: { ...TARGET_AUTH, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Ferret' }),
      });
      seen.category = created.body;
      seen.inventory = (await json(`${url}/store/inventory`, { headers: TARGET_AUTH })).body;
      // An error answer is the target's to give now, not an answer to keep.
      expect((await fetch(`${url}/store/inventory`)).status).toBe(401);
      seen.pet3 = (await json(`${url}/pets/3`, { headers: TARGET_AUTH })).body;
      seen.pet4 = (await json(`${url}/pets/4`, { headers: TARGET_AUTH })).body;
    });
    expect(seen.inventory).toEqual({ available: 5, sold: 3 });

    const mock = await mockOf(file);
    const inventory = await fetch(`${mock.url}/store/inventory`, { headers: MOCK_AUTH });
    expect(inventory.status).toBe(200);
    expect(inventory.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await inventory.json()).toEqual(seen.inventory);
    // By path parameters; others get the operation's last answer.
    expect(await json(`${mock.url}/pets/3`, { headers: MOCK_AUTH })).toEqual({
      status: 200,
      body: seen.pet3,
    });
    expect((await json(`${mock.url}/pets/4`, { headers: MOCK_AUTH })).body).toEqual(seen.pet4);
    expect(seen.pet4).toEqual({ id: '4', name: 'Pet 4' });
    // Another pet: the operation's last answer, with the id asked for (as examples get it).
    expect((await json(`${mock.url}/pets/9`, { headers: MOCK_AUTH })).body).toEqual({
      id: '9',
      name: 'Pet 4',
    });
    // The collection's records, as before: the recorded answers do not replace them.
    expect((await json(`${mock.url}/categories`, { headers: MOCK_AUTH })).body).toEqual([
      seen.category,
    ]);
    // Still the mock: its own credentials, its own checks.
    expect((await fetch(`${mock.url}/store/inventory`)).status).toBe(401);
  });

  it('records the answers of the last exchanges before it stops, and of the same operation at once', async () => {
    const file = await newFile();
    const proxy = await recordingProxy(file);
    // Each on a connection of its own that ends with its answer, as curl's: the server then
    // has nothing left to wait for, and stops at once.
    const got = await Promise.all(
      ['/pets/5', '/pets/6', '/pets/6', '/store/inventory'].map((path) =>
        closing(`${proxy.url}${path}`),
      ),
    );
    // At once: the client has its answer, the proxy may not yet have recorded it.
    await proxy.close();
    const keys = (await readFile(file, 'utf8'))
      .split('\n')
      .filter((line) => line.includes('"#answers"'))
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(new Set(keys)).toEqual(
      new Set(['getPetById?petId=5', 'getPetById?petId=6', 'getPetById', 'getInventory']),
    );
    expect(got).toEqual([200, 200, 200, 200]);
  });

  it('writes no credential, cookie or other header of the request or the answer', async () => {
    const file = await newFile();
    await recordThrough(file, async (url) => {
      await json(`${url}/store/inventory`, {
        headers: { ...TARGET_AUTH, Cookie: 'session=cookie-secret', 'X-Api-Key': 'key-secret' },
      });
    });
    const text = await readFile(file, 'utf8');
    expect(text).toContain('"collection":"#answers"');
    expect(text).toContain('"body":{"available":');
    for (const secret of ['staging-token', 'cookie-secret', 'key-secret', 'a=1', 'target-1'])
      expect(text).not.toContain(secret);
  });

  it('a recording of such answers only holds no collection: the mock seeds its collections as for a new file', async () => {
    const file = await newFile();
    await recordThrough(file, async (url) => {
      await json(`${url}/store/inventory`, { headers: TARGET_AUTH });
    });
    const mock = await mockOf(file);
    const listed = await json(`${mock.url}/categories`, { headers: MOCK_AUTH });
    expect((listed.body as unknown[]).length).toBeGreaterThan(0);
    expect((await json(`${mock.url}/store/inventory`, { headers: MOCK_AUTH })).body).toEqual({
      available: expect.any(Number),
      sold: 3,
    });
  });

  it('loads a data file written before the section, and answers those operations from the spec', async () => {
    const file = await newFile();
    await writeFile(
      file,
      [
        '{"format":"petstore-kit-data","version":1}',
        '{"op":"counter","collection":"categories","lastId":7}',
        '{"op":"put","collection":"categories","id":7,"record":{"id":7,"name":"Ferret"}}',
        '',
      ].join('\n'),
    );
    const mock = await mockOf(file);
    expect((await json(`${mock.url}/categories`, { headers: MOCK_AUTH })).body).toEqual([
      { id: 7, name: 'Ferret' },
    ]);
    const inventory = await json(`${mock.url}/store/inventory`, { headers: MOCK_AUTH });
    expect(inventory.status).toBe(200);
    expect(inventory.body).not.toEqual({ available: 5, sold: 3 });
  });

  it('recovers a recording cut short as any data file: the half-written last answer is dropped, the rest served', async () => {
    const file = await newFile();
    const answer = (sold: number) =>
      `{"op":"put","collection":"#answers","id":"getInventory","record":{"key":"getInventory","version":1,"operation":"getInventory","status":200,"contentType":"application/json","body":{"sold":${sold}}}}`;
    await writeFile(
      file,
      ['{"format":"petstore-kit-data","version":1}', answer(3), answer(4).slice(0, 60)].join('\n'),
    );
    const mock = await mockOf(file);
    expect((await json(`${mock.url}/store/inventory`, { headers: MOCK_AUTH })).body).toEqual({
      sold: 3,
    });
  });

  it('passes over a recorded answer of a section version it does not know', async () => {
    const file = await newFile();
    await writeFile(
      file,
      [
        '{"format":"petstore-kit-data","version":1}',
        '{"op":"put","collection":"#answers","id":"getInventory","record":{"key":"getInventory","version":99,"operation":"getInventory","status":200,"contentType":"application/json","body":{"future":1}}}',
        '',
      ].join('\n'),
    );
    const mock = await mockOf(file);
    const inventory = await json(`${mock.url}/store/inventory`, { headers: MOCK_AUTH });
    expect(inventory.status).toBe(200);
    expect(inventory.body).not.toEqual({ future: 1 });
  });

  it('checks a recorded answer against the spec as any answer: one that no longer fits is a 500', async () => {
    const file = await newFile();
    await writeFile(
      file,
      [
        '{"format":"petstore-kit-data","version":1}',
        '{"op":"put","collection":"#answers","id":"getInventory","record":{"key":"getInventory","version":1,"operation":"getInventory","status":200,"contentType":"application/json","body":{"sold":"three"}}}',
        '',
      ].join('\n'),
    );
    const mock = await mockOf(file);
    const inventory = await json(`${mock.url}/store/inventory`, { headers: MOCK_AUTH });
    expect(inventory.status).toBe(500);
    expect(inventory.body).toMatchObject({ code: 'invalid_response', status: 500 });
  });
});

describe('a mock that may hold recorded answers, on path parameters that decode to objects', () => {
  it('answers an operation without a collection whose path holds an array and an object (no 500)', async () => {
    const mock = await startMock({
      ...QUICK_SHUTDOWN,
      spec: join(import.meta.dirname, 'fixtures/specs/parameters.yaml'),
      apiKeys: ['k'],
      seedCount: 1,
    });
    try {
      const res = await fetch(`${mock.url.replace(/\/$/, '')}/simple/1,2/x=1,y=2`, {
        headers: { authorization: 'Bearer k', 'x-api-key': 'k' },
      });
      expect(res.status).toBe(200);
    } finally {
      await mock.close();
    }
  });
});
