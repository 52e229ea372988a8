// A list envelope's `next` (a string, or null on the last page) is the cursor of the next page,
// as a careful server gives it: a client (or the contract suite) that follows it walks the whole
// list. It was filled by the generator with a random string, which the mock then refused as a
// cursor (400 invalid_cursor).
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY, specFileOf } from './helpers.js';

const HELPDESK = fileURLToPath(new URL('./fixtures/specs/helpdesk.yaml', import.meta.url));

interface Listed {
  items: { id: number }[];
  next: string | null;
}

describe('a list whose envelope names its cursor `next`', () => {
  let app: MockApp;
  const list = async (query: string): Promise<{ status: number; body: Listed }> => {
    const response = await app.mock.fetch(
      new Request(`http://mock.test/api/tickets${query}`, { headers: { 'X-Api-Key': KEY } }),
    );
    return { status: response.status, body: (await response.json()) as Listed };
  };

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(HELPDESK), apiKeys: [KEY], seed: 3 });
    await app.mock.seed({ count: 5, seed: 3 });
  });

  it('hands out the cursor of the next page, and null on the last', async () => {
    const seen: number[] = [];
    let query = '?limit=2';
    for (let pages = 0; pages < 10; pages += 1) {
      const { status, body } = await list(query);
      expect(status).toBe(200);
      seen.push(...body.items.map((item) => item.id));
      if (body.next === null) break;
      query = `?limit=2&cursor=${encodeURIComponent(body.next)}`;
    }
    const all = await list('');
    expect(all.body.next).toBeNull();
    expect(seen).toEqual(all.body.items.map((item) => item.id));
    expect(seen).toHaveLength(5);
  });

  it('still refuses a cursor it did not hand out, in the spec’s error shape', async () => {
    const response = await app.mock.fetch(
      new Request('http://mock.test/api/tickets?cursor=nonsense', {
        headers: { 'X-Api-Key': KEY },
      }),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});

// Scalar's Galaxy (a real public description) pages its planets by `limit` and `offset` and
// shows `meta.next` as a link (`/planets?limit=10&offset=10`). The mock handed out a cursor
// there that no parameter of the list accepts: a client (or the contract suite) following it
// never reached the records past the first page.
describe('a list paged by offset whose `next` is a link', () => {
  const GALAXY = fileURLToPath(
    new URL('./fixtures/corpus/scalar-galaxy/3.1.yaml', import.meta.url),
  );
  let app: MockApp;
  const get = async (target: string) => {
    const response = await app.mock.fetch(
      new Request(`http://mock.test${target}`, { headers: { Authorization: `Bearer ${KEY}` } }),
    );
    expect(response.status).toBe(200);
    return (await response.json()) as {
      meta: { next: string | null; total: number };
      data: { id: number }[];
    };
  };

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(GALAXY), apiKeys: [KEY], seed: 3 });
    await app.mock.seed({ count: 7, seed: 3 });
  });

  it('links the next page as the client asked for this one, and says null on the last', async () => {
    const first = await get('/planets?limit=3');
    expect(first.meta.next).toBe('/planets?limit=3&offset=3');
    const seen = first.data.map((planet) => planet.id);
    let next = first.meta.next;
    for (let pages = 0; next !== null && pages < 10; pages += 1) {
      const page = await get(next);
      seen.push(...page.data.map((planet) => planet.id));
      next = page.meta.next;
    }
    const all = await get('/planets?limit=100');
    expect(all.meta.next).toBeNull();
    expect(seen).toEqual(all.data.map((planet) => planet.id));
    expect(seen).toHaveLength(all.meta.total);
  });
});

// OpenAI's lists (`{object: "list", data, first_id, last_id, has_more}`, paged by `limit` and
// `after`) tell the ids of the page's first and last records, and a client asks for the next
// page with `after=<last_id>`. The mock made both ids up, so `after=<last_id>` was a 400
// invalid_cursor and no client could page.
describe('a list that tells the ids of its first and last records', () => {
  const assistant = {
    type: 'object',
    required: ['id', 'object', 'name'],
    properties: {
      id: { type: 'string', readOnly: true },
      object: { type: 'string', enum: ['assistant'] },
      name: { type: 'string', maxLength: 40 },
    },
  };
  const spec = {
    openapi: '3.1.0',
    info: { title: 'assistants', version: '1' },
    components: { securitySchemes: { key: { type: 'http', scheme: 'bearer' } } },
    security: [{ key: [] }],
    paths: {
      '/assistants': {
        get: {
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', default: 20 } },
            { name: 'after', in: 'query', schema: { type: 'string' } },
            { name: 'before', in: 'query', schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'ok',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['object', 'data', 'first_id', 'last_id', 'has_more'],
                    properties: {
                      object: { type: 'string', example: 'list' },
                      data: { type: 'array', items: assistant },
                      first_id: { type: 'string', example: 'asst_abc123' },
                      last_id: { type: 'string', example: 'asst_abc456' },
                      has_more: { type: 'boolean' },
                    },
                  },
                },
              },
            },
          },
        },
        post: {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: assistant } },
          },
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: assistant } } },
          },
        },
      },
    },
  };
  let app: MockApp;
  const get = async (target: string) => {
    const response = await app.mock.fetch(
      new Request(`http://mock.test${target}`, { headers: { Authorization: `Bearer ${KEY}` } }),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as {
      data: { id: string }[];
      first_id: string;
      last_id: string;
      has_more: boolean;
    };
  };

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(await specFileOf(spec)), apiKeys: [KEY], seed: 3 });
    await app.mock.seed({ count: 5, seed: 3 });
  });

  it('tells the ids of the page, and the next page follows `after=<last_id>`', async () => {
    const seen: string[] = [];
    let query = '?limit=2';
    for (let pages = 0; pages < 10; pages += 1) {
      const page = await get(`/assistants${query}`);
      expect(page.first_id).toBe(page.data[0]?.id);
      expect(page.last_id).toBe(page.data.at(-1)?.id);
      seen.push(...page.data.map((record) => record.id));
      if (!page.has_more) break;
      query = `?limit=2&after=${encodeURIComponent(page.last_id)}`;
    }
    const all = await get('/assistants');
    expect(seen).toEqual(all.data.map((record) => record.id));
    expect(seen).toHaveLength(5);
  });

  it('gives the page before a record with `before=<first_id>`', async () => {
    const all = (await get('/assistants')).data.map((record) => record.id);
    const third = await get(`/assistants?limit=2&after=${encodeURIComponent(all[3]!)}`);
    expect(third.data.map((record) => record.id)).toEqual([all[4]]);
    const second = await get(`/assistants?limit=2&before=${encodeURIComponent(third.first_id)}`);
    expect(second.data.map((record) => record.id)).toEqual([all[2], all[3]]);
    expect(second.has_more).toBe(true);
    const first = await get(`/assistants?limit=2&before=${encodeURIComponent(second.first_id)}`);
    expect(first.data.map((record) => record.id)).toEqual([all[0], all[1]]);
    // Nothing lies before the first page: a client paging back by `has_more` stops there.
    expect(first.has_more).toBe(false);
    const none = await get(`/assistants?limit=2&before=${encodeURIComponent(first.first_id)}`);
    expect(none).toMatchObject({ data: [], has_more: false });
    const unknown = await app.mock.fetch(
      new Request('http://mock.test/assistants?before=nobody', {
        headers: { Authorization: `Bearer ${KEY}` },
      }),
    );
    expect(unknown.status).toBe(400);
  });
});
