// Envelopes written as allOf parts, as Cloudflare writes its 1,500 operations: a common part
// (`errors`, `messages`, `success`) and a part that says what `result` holds. Each case is a
// small document of that shape; each failed before its fix.
import { afterEach, describe, expect, it } from 'vitest';
import { AUTH, KEY, specFileOf } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';

const mocks: InProcessMock[] = [];

afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
});

async function mockOf(spec: object, seedCount = 0): Promise<InProcessMock> {
  const mock = await inProcessMock({
    spec: await specFileOf(spec),
    apiKeys: [KEY],
    seed: 1,
    seedCount,
  });
  mocks.push(mock);
  return mock;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read by the tests
type Body = any;

async function call(
  mock: InProcessMock,
  method: string,
  path: string,
  body?: object,
): Promise<{ status: number; body: Body }> {
  const res = await mock.fetch(`${mock.url}${path}`, {
    method,
    headers: { ...AUTH, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

const MESSAGES = {
  type: 'array',
  items: {
    type: 'object',
    required: ['code', 'message'],
    properties: { code: { type: 'integer', minimum: 1000 }, message: { type: 'string' } },
  },
};

const COMMON = {
  type: 'object',
  required: ['success', 'errors', 'messages'],
  properties: {
    errors: MESSAGES,
    messages: MESSAGES,
    success: { type: 'boolean', enum: [true] },
  },
};

const WIDGET = {
  type: 'object',
  required: ['id', 'name'],
  properties: {
    id: { type: 'string', readOnly: true, maxLength: 32 },
    name: { type: 'string', minLength: 1, maxLength: 40 },
    features: {
      type: 'object',
      readOnly: true,
      required: ['level'],
      properties: { level: { type: 'integer', minimum: 1, maximum: 5 } },
    },
  },
};

/** A widget as the list and the read describe it: a later part leaves `features` open. */
const WIDGET_AS_READ = { allOf: [WIDGET, { type: 'object', properties: { features: {} } }] };

/** The common part, then one part per description of `result` (the first with `extra`). */
function answer(results: object | object[], extra: object = {}) {
  const [first, ...more] = Array.isArray(results) ? results : [results];
  return {
    description: 'ok',
    content: {
      'application/json': {
        schema: {
          allOf: [
            COMMON,
            { type: 'object', properties: { result: first, ...extra } },
            ...more.map((result) => ({ type: 'object', properties: { result } })),
          ],
        },
      },
    },
  };
}

function widgetsSpec(listResult: object | object[] = { type: 'array', items: WIDGET_AS_READ }) {
  return {
    openapi: '3.1.0',
    info: { title: 'widgets', version: '1' },
    components: {
      securitySchemes: { token: { type: 'http', scheme: 'bearer' } },
    },
    security: [{ token: [] }],
    paths: {
      '/widgets': {
        get: {
          responses: {
            '200': answer(listResult, {
              result_info: {
                type: 'object',
                properties: { count: { type: 'number' }, total_count: { type: 'number' } },
              },
            }),
          },
        },
        post: {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: WIDGET } },
          },
          responses: { '200': answer(WIDGET) },
        },
      },
      '/widgets/{widget_id}': {
        parameters: [{ name: 'widget_id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { responses: { '200': answer(WIDGET_AS_READ) } },
      },
    },
  };
}

describe('envelopes written as allOf parts', () => {
  it('a list whose records are its `result`, beside lists of errors and messages, lists the collection', async () => {
    const mock = await mockOf(widgetsSpec());
    const created = await call(mock, 'POST', '/widgets', { name: 'sprocket' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.result.id as string;
    const list = await call(mock, 'GET', '/widgets');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.result).toEqual([expect.objectContaining({ id, name: 'sprocket' })]);
    // The page told as it is, and a successful answer with no made-up errors.
    expect(list.body.result_info).toMatchObject({ count: 1, total_count: 1 });
    expect(list.body.errors).toEqual([]);
    expect(created.body.errors).toEqual([]);
    expect(list.body.success).toBe(true);
  });

  it('a field one part describes and a later part leaves open is made as the first says', async () => {
    // No create whose answer would describe the field whole: the list and the read alone.
    const spec = widgetsSpec();
    delete (spec.paths['/widgets'] as { post?: object }).post;
    const mock = await mockOf(spec, 4);
    const list = await call(mock, 'GET', '/widgets');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.result).toHaveLength(4);
    for (const widget of list.body.result as Body[]) {
      expect(widget.features).toEqual({ level: expect.any(Number) });
      const read = await call(mock, 'GET', `/widgets/${widget.id}`);
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect(read.body.result).toEqual(widget);
    }
  });

  it('a wrapper whose parts leave its records no type but null answers the named 500', async () => {
    // Cloudflare's magic sites: the single answer's part, then the list's.
    const contradicted = [
      { anyOf: [{ type: ['object', 'null'] }, { type: ['string', 'null'] }] },
      { type: 'array', items: WIDGET_AS_READ },
    ];
    const mock = await mockOf(widgetsSpec(contradicted), 2);
    const list = await call(mock, 'GET', '/widgets');
    expect(list.status).toBe(500);
    expect(list.body.message).toContain(
      'cannot generate data valid against the answer that holds "result"',
    );
    // The next request is served.
    expect((await call(mock, 'POST', '/widgets', { name: 'gear' })).status).toBe(200);
  });
});

/** The fields every kind of record has; the service sets `id` and the dates. */
const RECORD_BASE = {
  type: 'object',
  properties: {
    id: { type: 'string', readOnly: true, maxLength: 32 },
    name: { type: 'string', minLength: 1, maxLength: 60 },
    created_on: { type: 'string', format: 'date-time', readOnly: true },
    proxiable: { type: 'boolean', readOnly: true },
  },
};

/** One kind: its `type` names it, its `content` is its own. */
function kind(type: string, content: object) {
  return {
    allOf: [
      RECORD_BASE,
      {
        type: 'object',
        required: ['type', 'content'],
        properties: { type: { type: 'string', enum: [type] }, content },
      },
    ],
  };
}

/**
 * Cloudflare's DNS records: a record is one of several kinds, the names every kind has
 * `required` beside the `oneOf`, some of them read-only in the kinds (the service sets them),
 * and the same schema is the create's body.
 */
const DNS_RECORD = {
  type: 'object',
  required: ['id', 'type', 'name', 'content', 'proxiable', 'created_on'],
  oneOf: [
    kind('A', { type: 'string', format: 'ipv4' }),
    kind('CNAME', { type: 'string', format: 'hostname' }),
    // A kind whose `content` the service makes (from its `data`, in Cloudflare's): the last
    // kind, so that a shape of them all taken from the last lost every other kind's content.
    kind('CAA', { type: 'string', readOnly: true }),
  ],
};

function recordsSpec() {
  return {
    openapi: '3.0.3',
    info: { title: 'dns', version: '1' },
    components: {
      securitySchemes: { token: { type: 'http', scheme: 'bearer' } },
      schemas: { Record: DNS_RECORD },
    },
    security: [{ token: [] }],
    paths: {
      '/records': {
        get: {
          responses: {
            '200': answer({ type: 'array', items: { $ref: '#/components/schemas/Record' } }),
          },
        },
        post: {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Record' } } },
          },
          responses: { '200': answer({ $ref: '#/components/schemas/Record' }) },
        },
      },
      '/records/{record_id}': {
        parameters: [{ name: 'record_id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { responses: { '200': answer({ $ref: '#/components/schemas/Record' }) } },
      },
    },
  };
}

describe('records of several kinds inside a wrapper', () => {
  it('a documented create is accepted though the kinds mark required names read-only, and a record is read and listed as its own kind', async () => {
    const mock = await mockOf(recordsSpec());
    const a = await call(mock, 'POST', '/records', {
      type: 'A',
      name: 'example.com',
      content: '198.51.100.4',
    });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.result).toMatchObject({
      type: 'A',
      name: 'example.com',
      content: '198.51.100.4',
    });
    expect(a.body.result.id).toEqual(expect.any(String));
    expect(a.body.result.created_on).toEqual(expect.any(String));
    const cname = await call(mock, 'POST', '/records', {
      type: 'CNAME',
      name: 'www',
      content: 'example.com',
    });
    expect(cname.status, JSON.stringify(cname.body)).toBe(200);
    expect(cname.body.result).toMatchObject({ type: 'CNAME', content: 'example.com' });

    const list = await call(mock, 'GET', '/records');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.result).toEqual([a.body.result, cname.body.result]);
    const read = await call(mock, 'GET', `/records/${cname.body.result.id}`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.result).toEqual(cname.body.result);
  });

  it('a client still may not send what the service sets, nor a record of no kind', async () => {
    const mock = await mockOf(recordsSpec());
    const own = await call(mock, 'POST', '/records', {
      id: 'mine',
      type: 'A',
      name: 'example.com',
      content: '198.51.100.4',
    });
    expect(own.status).toBe(400);
    expect(JSON.stringify(own.body)).toContain('read-only');
    const made = await call(mock, 'POST', '/records', { type: 'CAA', name: 'x', content: 'y' });
    expect(made.status).toBe(400);
    expect(JSON.stringify(made.body)).toContain('read-only');
    const none = await call(mock, 'POST', '/records', { type: 'MX', name: 'x', content: 'y' });
    expect(none.status).toBe(400);
    const missing = await call(mock, 'POST', '/records', { type: 'A', content: '198.51.100.4' });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain("required property 'name'");
  });

  it('seeded records are each of one kind, listed and read', async () => {
    const mock = await mockOf(recordsSpec(), 4);
    const list = await call(mock, 'GET', '/records');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.result).toHaveLength(4);
    for (const record of list.body.result as Body[]) {
      expect(['A', 'CNAME', 'CAA']).toContain(record.type);
      const read = await call(mock, 'GET', `/records/${record.id}`);
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect(read.body.result).toEqual(record);
    }
  });
});
