// A black-box probe of what a careful implementation of the inventory description does
// (test/fixtures/specs/inventory.yaml): each check is one thing its structure states, asked
// through `fetch` as a client would. The score is how many pass.
import { fileURLToPath } from 'node:url';

export const INVENTORY = fileURLToPath(new URL('./fixtures/specs/inventory.yaml', import.meta.url));

/** A token with every scope, one with the read scope only, and the cookie key. */
export const PROBE_KEYS = ['probe-all', 'probe-ro[inventory:read]', 'probe-cookie'] as const;

export interface ProbeCheck {
  name: string;
  passed: boolean;
  detail?: string;
}

type Fetch = (request: Request) => Promise<Response>;

const BASE = 'http://inventory.test/v2';
const ALL = { authorization: 'Bearer probe-all' };
const READ_ONLY = { authorization: 'Bearer probe-ro' };
const COOKIE = { cookie: 'inv_session=probe-cookie' };
const JSON_TYPE = { 'content-type': 'application/json' };
const PATCH_TYPE = { 'content-type': 'application/merge-patch+json' };
const STRONG = /^"[^"]*"$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Item {
  id: string;
  sku: string;
  name: string;
  quantity: number;
}

/**
 * Runs every check in order on a mock of the inventory description served by `fetch`
 * (seeded with nothing); a check that throws fails.
 */
export async function probeInventory(fetch: Fetch): Promise<ProbeCheck[]> {
  const results: ProbeCheck[] = [];
  const call = (
    method: string,
    path: string,
    headers: Record<string, string> = ALL,
    body?: unknown,
  ): Promise<Response> =>
    fetch(
      new Request(`${BASE}${path}`, {
        method,
        headers,
        ...(body === undefined
          ? {}
          : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    );
  const check = async (name: string, run: () => Promise<boolean | string>) => {
    try {
      const outcome = await run();
      results.push(
        outcome === true
          ? { name, passed: true }
          : { name, passed: false, detail: outcome === false ? undefined : outcome },
      );
    } catch (err) {
      results.push({ name, passed: false, detail: String(err) });
    }
  };
  const got = (res: Response, status: number) =>
    res.status === status || `answered ${res.status}, not ${status}`;
  const write = { ...ALL, ...JSON_TYPE };

  // Upserts: a client-chosen key.
  let created = await call('PUT', '/warehouses/AAA01', write, { name: 'North', city: 'Oslo' });
  await check('PUT of a new key creates: 201', async () => got(created, 201));
  await check(
    'the created warehouse has a Location',
    async () =>
      created.headers.get('location') === '/v2/warehouses/AAA01' ||
      `Location ${created.headers.get('location')}`,
  );
  await check('the created warehouse has its code from the path', async () => {
    const body = (await created.json()) as { code?: string };
    return body.code === 'AAA01' || `code ${body.code}`;
  });
  const replaced = await call('PUT', '/warehouses/AAA01', write, { name: 'North 2' });
  await check('PUT of a known key replaces: 200', async () => got(replaced, 200));
  await check('the list shows the replaced warehouse', async () => {
    const page = (await (await call('GET', '/warehouses')).json()) as {
      warehouses: { code: string; name: string }[];
      total: number;
    };
    const found = page.warehouses.filter((one) => one.code === 'AAA01');
    return (
      (found.length === 1 && found[0]?.name === 'North 2' && page.total === 1) ||
      JSON.stringify(page)
    );
  });
  created = await call('PUT', '/warehouses/BBB02', write, { name: 'South' });
  await check('a second warehouse is created: 201', async () => got(created, 201));

  // Items: ETag, Location.
  const madeItem = await call('POST', '/warehouses/AAA01/items', write, {
    sku: 'BOLT-1',
    name: 'Bolt',
    quantity: 10,
  });
  await check('an item is created: 201', async () => got(madeItem, 201));
  const item = (await madeItem.clone().json()) as Item;
  const itemPath = `/warehouses/AAA01/items/${item.id}`;
  let tag = madeItem.headers.get('etag') ?? '';
  await check('the created item has a strong ETag', async () => STRONG.test(tag) || `ETag ${tag}`);
  await check(
    'the created item has its Location',
    async () =>
      madeItem.headers.get('location') === `/v2${itemPath}` ||
      `Location ${madeItem.headers.get('location')}`,
  );
  const read = await call('GET', itemPath);
  await check(
    'a read of the item has the ETag of its creation',
    async () =>
      (read.status === 200 && read.headers.get('etag') === tag && tag !== '') ||
      `${read.status} ETag ${read.headers.get('etag')}`,
  );
  await check('If-None-Match with the current tag: 304', async () =>
    got(await call('GET', itemPath, { ...ALL, 'if-none-match': tag }), 304),
  );
  await check('If-None-Match with another tag: 200', async () =>
    got(await call('GET', itemPath, { ...ALL, 'if-none-match': '"other"' }), 200),
  );

  // Conditional writes.
  const patch = { ...ALL, ...PATCH_TYPE };
  await check('PATCH without If-Match: 428', async () =>
    got(await call('PATCH', itemPath, patch, { name: 'Big bolt' }), 428),
  );
  await check('PATCH with a stale If-Match: 412', async () =>
    got(await call('PATCH', itemPath, { ...patch, 'if-match': '"stale"' }, { name: 'X' }), 412),
  );
  await check('PATCH with the weak form of the current tag: 412 (strong comparison)', async () =>
    got(await call('PATCH', itemPath, { ...patch, 'if-match': `W/${tag}` }, { name: 'X' }), 412),
  );
  await check('a refused PATCH changed nothing', async () => {
    const now = (await (await call('GET', itemPath)).json()) as Item;
    return now.name === 'Bolt' || `name ${now.name}`;
  });
  const patched = await call('PATCH', itemPath, { ...patch, 'if-match': tag }, { quantity: 7 });
  const before = tag;
  tag = patched.headers.get('etag') ?? '';
  await check('PATCH with the current tag: 200', async () => got(patched, 200));
  await check(
    'a write changes the ETag',
    async () => (STRONG.test(tag) && tag !== before) || `ETag ${before} then ${tag}`,
  );
  await check('the tag before the write is now stale: 412', async () =>
    got(await call('PATCH', itemPath, { ...patch, 'if-match': before }, { name: 'Y' }), 412),
  );
  await check('If-Match: * matches the item', async () =>
    got(await call('PATCH', itemPath, { ...patch, 'if-match': '*' }, { name: 'Bolt' }), 200),
  );
  tag = (await call('GET', itemPath)).headers.get('etag') ?? '';

  // Status choice: 400 for the request's form, 422 for a body that breaks the schema.
  await check('a body that breaks the schema: 422', async () =>
    got(await call('PATCH', itemPath, { ...patch, 'if-match': tag }, { quantity: -1 }), 422),
  );
  await check('a create missing a required property: 422', async () =>
    got(await call('POST', '/warehouses/AAA01/items', write, { sku: 'NUT-1' }), 422),
  );
  await check('a body that does not parse: 400', async () =>
    got(await call('POST', '/warehouses/AAA01/items', write, '{"sku":'), 400),
  );
  await check('a bad query parameter: 400', async () =>
    got(await call('GET', '/warehouses/AAA01/items?limit=abc'), 400),
  );
  await check('errors are Problem Details', async () => {
    const res = await call('GET', '/warehouses/AAA01/items?limit=abc');
    return (
      /^application\/problem\+json/.test(res.headers.get('content-type') ?? '') ||
      `${res.headers.get('content-type')}`
    );
  });

  // Nesting: every level scopes the one below.
  await check("another warehouse's item list holds none of this one's", async () => {
    const page = (await (await call('GET', '/warehouses/BBB02/items')).json()) as {
      items: Item[];
      total: number;
    };
    return (page.items.length === 0 && page.total === 0) || JSON.stringify(page);
  });
  await check('an item read under another warehouse: 404', async () =>
    got(await call('GET', `/warehouses/BBB02/items/${item.id}`), 404),
  );
  const other = (await (
    await call('POST', '/warehouses/AAA01/items', write, { sku: 'NUT-2', name: 'Nut', quantity: 5 })
  ).json()) as Item;
  const movement = await call('POST', `${itemPath}/movements`, write, {
    quantity: 3,
    reason: 'received',
  });
  await check('a movement is recorded: 201', async () => got(movement, 201));
  const movementId = ((await movement.json()) as { id: string }).id;
  await check("another item's movements hold none of this one's", async () => {
    const page = (await (
      await call('GET', `/warehouses/AAA01/items/${other.id}/movements`)
    ).json()) as { movements: unknown[]; total: number };
    return (page.movements.length === 0 && page.total === 0) || JSON.stringify(page);
  });
  await check("the item's movements hold its one", async () => {
    const page = (await (await call('GET', `${itemPath}/movements`)).json()) as {
      movements: { id: string }[];
      total: number;
    };
    return (page.total === 1 && page.movements[0]?.id === movementId) || JSON.stringify(page);
  });
  await check('a movement read under another item: 404', async () =>
    got(await call('GET', `/warehouses/AAA01/items/${other.id}/movements/${movementId}`), 404),
  );

  // Effects the description documents (a movement adds to the item's quantity).
  await check("a movement adds to the item's quantity", async () => {
    const now = (await (await call('GET', itemPath)).json()) as Item;
    return now.quantity === 10 || `quantity ${now.quantity}`;
  });
  await check('a movement that would take the quantity below zero: 409', async () =>
    got(
      await call('POST', `${itemPath}/movements`, write, { quantity: -100, reason: 'shipped' }),
      409,
    ),
  );

  // Paging metadata.
  for (const sku of ['CAP-3', 'AXE-4', 'CAP-3'])
    await call('POST', '/warehouses/AAA01/items', write, { sku, name: sku, quantity: 1 });
  await check('total counts what the filter selects', async () => {
    const page = (await (
      await call('GET', '/warehouses/AAA01/items?sku=CAP-3&limit=1')
    ).json()) as {
      items: Item[];
      total: number;
    };
    return (page.total === 2 && page.items.length === 1) || JSON.stringify(page);
  });
  await check('total counts the whole collection of the parent, not the page', async () => {
    const page = (await (await call('GET', '/warehouses/AAA01/items?limit=2')).json()) as {
      total: number;
    };
    return page.total === 5 || `total ${page.total}`;
  });
  const first = await call('GET', '/warehouses/AAA01/items?limit=2');
  await check('a first page links its next page (Link rel="next")', async () => {
    const link = first.headers.get('link') ?? '';
    return /<[^>]*offset=2[^>]*>;\s*rel="?next"?/.test(link) || `Link ${link}`;
  });
  await check('a middle page links the previous one (rel="prev")', async () => {
    const link = (await call('GET', '/warehouses/AAA01/items?limit=2&offset=2')).headers.get(
      'link',
    );
    return (/rel="?prev"?/.test(link ?? '') && /rel="?next"?/.test(link ?? '')) || `Link ${link}`;
  });
  await check('the last page has no next link', async () => {
    const link = (await call('GET', '/warehouses/AAA01/items?limit=2&offset=4')).headers.get(
      'link',
    );
    return !/rel="?next"?/.test(link ?? '') || `Link ${link}`;
  });
  await check(
    'a required X-Request-Id is a UUID',
    async () =>
      UUID.test(first.headers.get('x-request-id') ?? '') || `${first.headers.get('x-request-id')}`,
  );
  const skus = async (sort: string) =>
    (
      (await (await call('GET', `/warehouses/AAA01/items?sort=${sort}`)).json()) as {
        items: Item[];
      }
    ).items.map((one) => one.sku);
  await check('sort=sku sorts ascending', async () => {
    const got = await skus('sku');
    return got.join() === [...got].sort().join() || got.join();
  });
  await check('sort=-sku sorts descending', async () => {
    const got = await skus('-sku');
    return got.join() === [...got].sort().reverse().join() || got.join();
  });

  // Idempotency keys.
  const keyed = { ...write, 'idempotency-key': 'k-1' };
  const once = await call('POST', '/warehouses/BBB02/items', keyed, {
    sku: 'PIN-5',
    name: 'Pin',
    quantity: 2,
  });
  const twice = await call('POST', '/warehouses/BBB02/items', keyed, {
    sku: 'PIN-5',
    name: 'Pin',
    quantity: 2,
  });
  await check('the same key and body replay the first answer', async () => {
    const [a, b] = [(await once.json()) as Item, (await twice.json()) as Item];
    return (twice.status === 201 && a.id === b.id) || `${twice.status} ${a.id} ${b.id}`;
  });
  await check('a replay made no second record', async () => {
    const page = (await (await call('GET', '/warehouses/BBB02/items')).json()) as {
      total: number;
    };
    return page.total === 1 || `total ${page.total}`;
  });
  await check('another body with the same key: the documented 422', async () =>
    got(
      await call('POST', '/warehouses/BBB02/items', keyed, {
        sku: 'PIN-6',
        name: 'P',
        quantity: 1,
      }),
      422,
    ),
  );

  // Scopes and the cookie key.
  await check('a read-only token reads', async () =>
    got(await call('GET', '/warehouses', READ_ONLY), 200),
  );
  await check('a read-only token cannot write: 403', async () =>
    got(await call('PUT', '/warehouses/CCC03', { ...READ_ONLY, ...JSON_TYPE }, { name: 'C' }), 403),
  );
  await check('the cookie key reads', async () =>
    got(await call('GET', '/warehouses', COOKIE), 200),
  );
  await check('the cookie key cannot write: 401', async () =>
    got(await call('PUT', '/warehouses/CCC03', { ...COOKIE, ...JSON_TYPE }, { name: 'C' }), 401),
  );

  // Deletes: conditional, and a parent takes its children.
  await check('DELETE without If-Match: 428', async () => got(await call('DELETE', itemPath), 428));
  await check('DELETE with the current tag: 204, then the item is gone', async () => {
    const current = (await call('GET', itemPath)).headers.get('etag') ?? '';
    const res = await call('DELETE', itemPath, { ...ALL, 'if-match': current });
    const after = await call('GET', itemPath);
    return (res.status === 204 && after.status === 404) || `${res.status} then ${after.status}`;
  });
  await check('a deleted item takes its movements', async () =>
    got(await call('GET', `${itemPath}/movements/${movementId}`), 404),
  );
  await check('DELETE of a warehouse: 204', async () =>
    got(await call('DELETE', '/warehouses/AAA01'), 204),
  );
  await check("a deleted warehouse's items: 404", async () =>
    got(await call('GET', `/warehouses/AAA01/items/${other.id}`), 404),
  );
  await check('a warehouse made again under its code finds no old items', async () => {
    await call('PUT', '/warehouses/AAA01', write, { name: 'North again' });
    const page = (await (await call('GET', '/warehouses/AAA01/items')).json()) as {
      items: Item[];
      total: number;
    };
    return (page.items.length === 0 && page.total === 0) || JSON.stringify(page);
  });
  return results;
}
