// Issue 48 on the inventory description (test/fixtures/specs/inventory.yaml): the HTTP its
// structure states, each behaviour asked through mock.fetch as a client would.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMock, type Mock, type MockSettings } from '../src/core/create-mock.js';
import { loadSpec, type LoadedSpec } from '../src/openapi/load.js';
import { descriptorOf } from '../src/core/resources/descriptor.js';
import { resolveOptions } from '../src/wiring/options.js';
import { specFileOf } from './helpers.js';
import { INVENTORY, PROBE_KEYS } from './inventory-probe.js';

const BASE = 'http://inventory.test/v2';
const ALL = { authorization: 'Bearer probe-all' };
const WRITE = { ...ALL, 'content-type': 'application/json' };
const PATCH = { ...ALL, 'content-type': 'application/merge-patch+json' };

const SETTINGS: MockSettings = resolveOptions({
  apiKeys: [...PROBE_KEYS],
  seedCount: 0,
  faultTimeoutSeconds: 1,
  maxSessions: 10,
  sessionTtlSeconds: 60,
});

let spec: LoadedSpec | undefined;
let mock: Mock;

beforeEach(async () => {
  mock = await inventoryMock();
});

async function inventoryMock(handlers: MockSettings['handlers'] = {}): Promise<Mock> {
  spec ??= await loadSpec(INVENTORY);
  return createMock(spec, { ...SETTINGS, handlers });
}

function call(
  method: string,
  path: string,
  headers: Record<string, string> = ALL,
  body?: unknown,
): Promise<Response> {
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  return mock.fetch(new Request(`${BASE}${path}`, init));
}

/** A warehouse and one item in it: the item's path and its first ETag. */
async function anItem(): Promise<{ path: string; id: string; tag: string | null }> {
  await call('PUT', '/warehouses/AAA01', WRITE, { name: 'North' });
  const res = await call('POST', '/warehouses/AAA01/items', WRITE, {
    sku: 'BOLT-1',
    name: 'Bolt',
    quantity: 10,
  });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  return { path: `/warehouses/AAA01/items/${id}`, id, tag: res.headers.get('etag') };
}

async function problem(res: Response, status: number): Promise<void> {
  expect(res.status, await res.clone().text()).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(await res.json()).toMatchObject({ status });
}

describe('400 for the request form, 422 for a body that breaks the schema', () => {
  it('answers 422 for a parsed body missing a required property, where 422 is documented', async () => {
    await call('PUT', '/warehouses/AAA01', WRITE, { name: 'North' });
    await problem(await call('POST', '/warehouses/AAA01/items', WRITE, { sku: 'NUT-1' }), 422);
  });

  it('answers 422 for a merge patch that breaks its schema', async () => {
    const item = await anItem();
    const res = await call(
      'PATCH',
      item.path,
      { ...PATCH, 'if-match': item.tag ?? '*' },
      {
        quantity: -1,
      },
    );
    await problem(res, 422);
  });

  it('answers 400 for a body that does not parse, a bad parameter, and both at once', async () => {
    await call('PUT', '/warehouses/AAA01', WRITE, { name: 'North' });
    await problem(await call('POST', '/warehouses/AAA01/items', WRITE, '{"sku":'), 400);
    await problem(await call('GET', '/warehouses/AAA01/items?limit=abc'), 400);
    // A bad path parameter with a bad body: the form is wrong, so 400.
    await problem(await call('PUT', '/warehouses/lower', WRITE, { name: '' }), 400);
  });
});

describe('upserts: a put at a key the client chooses', () => {
  it('creates with 201 and a Location, then replaces with 200, one record on the list', async () => {
    const created = await call('PUT', '/warehouses/AAA01', WRITE, { name: 'North', city: 'Oslo' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/v2/warehouses/AAA01');
    expect(await created.json()).toEqual({ code: 'AAA01', name: 'North', city: 'Oslo' });
    const replaced = await call('PUT', '/warehouses/AAA01', WRITE, { name: 'North 2' });
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get('location')).toBeNull();
    expect(await replaced.json()).toEqual({ code: 'AAA01', name: 'North 2' });
    const page = (await (await call('GET', '/warehouses')).json()) as unknown;
    expect(page).toEqual({ warehouses: [{ code: 'AAA01', name: 'North 2' }], total: 1 });
    expect((await call('GET', '/warehouses/AAA01')).status).toBe(200);
  });
});

describe('the answer headers a response requires, with values that mean what they say', () => {
  it('gives an item a strong ETag of its current version, the same on every read, another after a write', async () => {
    const item = await anItem();
    expect(item.tag).toMatch(/^"[^"]+"$/);
    const read = await call('GET', item.path);
    expect(read.headers.get('etag')).toBe(item.tag);
    const patched = await call(
      'PATCH',
      item.path,
      { ...PATCH, 'if-match': item.tag ?? '' },
      {
        quantity: 3,
      },
    );
    expect(patched.status).toBe(200);
    const tag = patched.headers.get('etag');
    expect(tag).toMatch(/^"[^"]+"$/);
    expect(tag).not.toBe(item.tag);
    expect((await call('GET', item.path)).headers.get('etag')).toBe(tag);
  });

  it('links the next and previous pages of a list (RFC 8288), and no next from the last', async () => {
    await call('PUT', '/warehouses/AAA01', WRITE, { name: 'North' });
    for (const sku of ['A-1', 'B-2', 'C-3'])
      await call('POST', '/warehouses/AAA01/items', WRITE, {
        sku: `SKU${sku}`,
        name: sku,
        quantity: 1,
      });
    const first = await call('GET', '/warehouses/AAA01/items?limit=1');
    expect(first.headers.get('link')).toBe(
      '</v2/warehouses/AAA01/items?limit=1&offset=1>; rel="next"',
    );
    const middle = await call('GET', '/warehouses/AAA01/items?limit=1&offset=1');
    expect(middle.headers.get('link')).toBe(
      '</v2/warehouses/AAA01/items?limit=1&offset=2>; rel="next", </v2/warehouses/AAA01/items?limit=1&offset=0>; rel="prev"',
    );
    const last = await call('GET', '/warehouses/AAA01/items?limit=1&offset=2');
    expect(last.headers.get('link')).toBe(
      '</v2/warehouses/AAA01/items?limit=1&offset=1>; rel="prev"',
    );
    expect((await call('GET', '/warehouses/AAA01/items')).headers.get('link')).toBeNull();
  });

  it('makes a required request id valid against its schema, a new one for each answer', async () => {
    await call('PUT', '/warehouses/AAA01', WRITE, { name: 'North' });
    const ids = await Promise.all(
      [1, 2].map(async () =>
        (await call('GET', '/warehouses/AAA01/items')).headers.get('x-request-id'),
      ),
    );
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('refuses an answer without a required Location, as a body without a required property', async () => {
    const custom = await inventoryMock({
      putWarehouse: (request) => ({
        status: 201,
        body: { code: String(request.params.code), name: 'North' },
      }),
    });
    const res = await custom.fetch(
      new Request(`${BASE}/warehouses/AAA01`, {
        method: 'PUT',
        headers: WRITE,
        body: '{"name":"N"}',
      }),
    );
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({
      code: 'invalid_response',
      message: expect.stringMatching(/required header 'Location'/),
    });
  });
});

describe('conditional requests on a record that has an ETag (RFC 9110 §13)', () => {
  it('answers 428 to a write without the If-Match the description requires, and changes nothing', async () => {
    const item = await anItem();
    await problem(await call('PATCH', item.path, PATCH, { name: 'X' }), 428);
    await problem(await call('DELETE', item.path), 428);
    expect(await (await call('GET', item.path)).json()).toMatchObject({ name: 'Bolt' });
  });

  it('answers 412 to a stale tag, a weak one (strong comparison) and the tag before a write', async () => {
    const item = await anItem();
    const tag = item.tag ?? '';
    await problem(
      await call('PATCH', item.path, { ...PATCH, 'if-match': '"stale"' }, { name: 'X' }),
      412,
    );
    await problem(
      await call('PATCH', item.path, { ...PATCH, 'if-match': `W/${tag}` }, { name: 'X' }),
      412,
    );
    const listed = `"other", ${tag}`;
    const res = await call(
      'PATCH',
      item.path,
      { ...PATCH, 'if-match': listed },
      { name: 'Big bolt' },
    );
    expect(res.status).toBe(200);
    await problem(await call('DELETE', item.path, { ...ALL, 'if-match': tag }), 412);
    expect(await (await call('GET', item.path)).json()).toMatchObject({ name: 'Big bolt' });
    const current = res.headers.get('etag') ?? '';
    expect((await call('DELETE', item.path, { ...ALL, 'if-match': current })).status).toBe(204);
    expect((await call('GET', item.path)).status).toBe(404);
  });

  it('answers 304 with the tag to a read whose If-None-Match holds it (weak comparison), 200 otherwise', async () => {
    const item = await anItem();
    const tag = item.tag ?? '';
    for (const field of [tag, `W/${tag}`, '*', `"x", ${tag}`]) {
      const res = await call('GET', item.path, { ...ALL, 'if-none-match': field });
      expect(res.status, field).toBe(304);
      expect(res.headers.get('etag')).toBe(tag);
      expect(await res.text()).toBe('');
    }
    expect((await call('GET', item.path, { ...ALL, 'if-none-match': '"x"' })).status).toBe(200);
  });
});

describe('nesting two levels deep, every level scoping the one below', () => {
  it("keeps each parent's children apart, and a deleted parent takes them at every depth", async () => {
    const item = await anItem();
    await call('PUT', '/warehouses/BBB02', WRITE, { name: 'South' });
    const moved = await call('POST', `${item.path}/movements`, WRITE, {
      quantity: 2,
      reason: 'received',
    });
    expect(moved.status).toBe(201);
    const movement = `${item.path}/movements/${((await moved.json()) as { id: string }).id}`;
    expect((await call('GET', movement)).status).toBe(200);
    expect((await call('GET', `/warehouses/BBB02/items/${item.id}`)).status).toBe(404);
    expect(await (await call('GET', '/warehouses/BBB02/items')).json()).toEqual({
      items: [],
      total: 0,
    });

    expect((await call('DELETE', '/warehouses/AAA01')).status).toBe(204);
    await problem(await call('GET', item.path), 404);
    await problem(await call('GET', movement), 404);
    await problem(await call('GET', '/warehouses/AAA01/items'), 404);
    await problem(
      await call('POST', '/warehouses/AAA01/items', WRITE, {
        sku: 'NUT-1',
        name: 'N',
        quantity: 1,
      }),
      404,
    );

    expect((await call('PUT', '/warehouses/AAA01', WRITE, { name: 'North again' })).status).toBe(
      201,
    );
    expect(await (await call('GET', '/warehouses/AAA01/items')).json()).toEqual({
      items: [],
      total: 0,
    });
    await problem(await call('GET', movement), 404);
  });
});

describe('paging metadata: totals, links and sorting as the description states them', () => {
  it('counts in total what the filter and the parent select, and sorts by -/+ prefixed fields', async () => {
    await call('PUT', '/warehouses/AAA01', WRITE, { name: 'North' });
    await call('PUT', '/warehouses/BBB02', WRITE, { name: 'South' });
    for (const sku of ['CAP-3', 'AXE-4', 'CAP-3', 'BOX-5'])
      await call('POST', '/warehouses/AAA01/items', WRITE, {
        sku,
        name: sku.toLowerCase(),
        quantity: 1,
      });
    await call('POST', '/warehouses/BBB02/items', WRITE, { sku: 'CAP-3', name: 'c', quantity: 1 });
    const filtered = (await (
      await call('GET', '/warehouses/AAA01/items?sku=CAP-3&limit=1')
    ).json()) as {
      items: unknown[];
      total: number;
    };
    expect(filtered.total).toBe(2);
    expect(filtered.items).toHaveLength(1);
    const skus = async (query: string) =>
      (
        (await (await call('GET', `/warehouses/AAA01/items?${query}`)).json()) as {
          items: { sku: string }[];
        }
      ).items.map((one) => one.sku);
    expect(await skus('sort=sku')).toEqual(['AXE-4', 'BOX-5', 'CAP-3', 'CAP-3']);
    expect(await skus('sort=-sku')).toEqual(['CAP-3', 'CAP-3', 'BOX-5', 'AXE-4']);
    expect(await skus('sort=-name&limit=2&offset=1')).toEqual(['CAP-3', 'BOX-5']);
    await problem(await call('GET', '/warehouses/AAA01/items?sort=price'), 400);
  });
});

describe('idempotency keys (Idempotency-Key)', () => {
  it('replays the first answer for the same key and body, refuses another body with the documented 422', async () => {
    await call('PUT', '/warehouses/AAA01', WRITE, { name: 'North' });
    const keyed = { ...WRITE, 'idempotency-key': 'k-1' };
    const body = { sku: 'PIN-5', name: 'Pin', quantity: 2 };
    const first = await call('POST', '/warehouses/AAA01/items', keyed, body);
    const again = await call('POST', '/warehouses/AAA01/items', keyed, body);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(await first.json());
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    await problem(
      await call('POST', '/warehouses/AAA01/items', keyed, { ...body, quantity: 3 }),
      422,
    );
    // Another key, or none, is another request.
    expect(
      (await call('POST', '/warehouses/AAA01/items', { ...WRITE, 'idempotency-key': 'k-2' }, body))
        .status,
    ).toBe(201);
    expect((await call('POST', '/warehouses/AAA01/items', WRITE, body)).status).toBe(201);
    expect(
      ((await (await call('GET', '/warehouses/AAA01/items')).json()) as { total: number }).total,
    ).toBe(3);
  });
  it('makes one record for two first requests sent together under the same key and body, and gives both its answer', async () => {
    await call('PUT', '/warehouses/AAA01', WRITE, { name: 'North' });
    const keyed = { ...WRITE, 'idempotency-key': 'k-together' };
    const body = { sku: 'PIN-6', name: 'Pin', quantity: 2 };
    const [first, second] = await Promise.all([
      call('POST', '/warehouses/AAA01/items', keyed, body),
      call('POST', '/warehouses/AAA01/items', keyed, body),
    ]);
    expect([first?.status, second?.status]).toEqual([201, 201]);
    expect(await second?.json()).toEqual(await first?.json());
    expect(second?.headers.get('location')).toBe(first?.headers.get('location'));
    expect(
      ((await (await call('GET', '/warehouses/AAA01/items')).json()) as { total: number }).total,
    ).toBe(1);
  });
});

describe('OAuth 2 scopes enforced: a token given as token[scope,...] holds those scopes only', () => {
  const READ_ONLY = { authorization: 'Bearer probe-ro' };

  it('lets a read-only token read, answers the documented 403 to its writes; the cookie key reads only', async () => {
    await call('PUT', '/warehouses/AAA01', WRITE, { name: 'North' });
    expect((await call('GET', '/warehouses', READ_ONLY)).status).toBe(200);
    const refused = await call(
      'PUT',
      '/warehouses/AAA01',
      { ...READ_ONLY, 'content-type': 'application/json' },
      { name: 'X' },
    );
    await problem(refused, 403);
    expect(refused.headers.get('www-authenticate')).toMatch(
      /error="insufficient_scope", scope="inventory:write"/,
    );
    expect((await call('GET', '/warehouses', { cookie: 'inv_session=probe-cookie' })).status).toBe(
      200,
    );
    await problem(
      await call('DELETE', '/warehouses/AAA01', { cookie: 'inv_session=probe-cookie' }),
      401,
    );
    // A token given without brackets holds every scope.
    expect((await call('DELETE', '/warehouses/AAA01')).status).toBe(204);
  });

  it('answers 401 with insufficient_scope (RFC 6750) where the operation documents no 403', async () => {
    const document = structuredClone((await loadSpec(INVENTORY)).document) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    delete document.paths['/warehouses/{code}']?.put?.responses['403'];
    const edited = createMock(await loadSpec(await specFileOf(document)), {
      ...SETTINGS,
      handlers: {},
    });
    const res = await edited.fetch(
      new Request(`${BASE}/warehouses/AAA01`, {
        method: 'PUT',
        headers: { ...READ_ONLY, 'content-type': 'application/json' },
        body: '{"name":"N"}',
      }),
    );
    await problem(res, 401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer .*error="insufficient_scope"/);
  });
});

describe("a documented effect a custom handler adds (docs/state.md's worked example)", () => {
  it("adds a movement to its item's quantity, and refuses one that would take it below zero with the documented 409", async () => {
    // As docs/state.md shows it: the inferred create records the movement, the handler applies it.
    const custom: Mock = await inventoryMock({
      createMovement: async (request, context) => {
        const items = custom.resources.find(
          (one) => one.collectionPath === '/warehouses/{code}/items',
        );
        if (!items) throw new Error('the description has no items');
        const { code, itemId } = request.params as { code: string; itemId: string };
        const { quantity } = request.body as { quantity: number };
        const collection = context.store.collection(descriptorOf(items, [code]));
        const item = await collection.get(itemId);
        if (item && (item.quantity as number) + quantity < 0)
          return {
            status: 409,
            headers: { 'Content-Type': 'application/problem+json' },
            body: {
              type: 'about:blank',
              title: 'Conflict',
              status: 409,
              detail: 'Not enough stock',
            },
          };
        const answer = await context.next();
        if (answer.status === 201)
          await collection.update(itemId, (current) => ({
            ...current,
            quantity: (current.quantity as number) + quantity,
          }));
        return answer;
      },
    });
    mock = custom;
    const item = await anItem();
    const moved = await call('POST', `${item.path}/movements`, WRITE, {
      quantity: -4,
      reason: 'shipped',
    });
    expect(moved.status).toBe(201);
    const read = await call('GET', item.path);
    expect(await read.json()).toMatchObject({ quantity: 6 });
    expect(read.headers.get('etag')).not.toBe(item.tag);
    await problem(
      await call('POST', `${item.path}/movements`, WRITE, { quantity: -7, reason: 'shipped' }),
      409,
    );
    expect(await (await call('GET', item.path)).json()).toMatchObject({ quantity: 6 });
    expect(await (await call('GET', `${item.path}/movements`)).json()).toMatchObject({ total: 1 });
  });
});
