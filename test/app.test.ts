import supertest from 'supertest';
import { request } from './in-process-request.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type AppOptions } from '../src/wiring/create-app.js';
import { DEFAULT_BODY_LIMIT } from '../src/wiring/option-table.js';
import { loadSpec, type LoadedSpec } from '../src/openapi/load.js';
import type { Store } from '../src/store/store.js';
import type { Category } from './types.js';
import {
  AUTH,
  categoryStore,
  editedSpec,
  expectError,
  KEY,
  storedCategories,
  storeWith,
} from './helpers.js';

let spec: LoadedSpec;
let store: Store;
let app: ReturnType<typeof createApp>;

function appWith(options: Partial<AppOptions> = {}) {
  return createApp({ spec, apiKeys: [KEY], store, ...options });
}

beforeAll(async () => {
  spec = await loadSpec();
});

beforeEach(() => {
  store = categoryStore([
    { id: 1, name: 'Dog', description: 'Domestic dogs' },
    { id: 2, name: 'Cat' },
  ]);
  app = appWith();
});

describe('listCategories', () => {
  it('answers 200 with every category as a JSON array', async () => {
    const res = await request(app).get('/v1/categories').set(AUTH);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual([
      { id: 1, name: 'Dog', description: 'Domestic dogs' },
      { id: 2, name: 'Cat' },
    ]);
  });

  it('answers an empty array when the store is empty', async () => {
    const res = await request(appWith({ store: categoryStore() }))
      .get('/v1/categories')
      .set(AUTH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});

describe('createCategory', () => {
  it('answers 201 echoing name and description with a new id (rule 4)', async () => {
    const res = await request(app)
      .post('/v1/categories')
      .set(AUTH)
      .send({ name: 'Rabbit', description: 'Domestic rabbits' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 3, name: 'Rabbit', description: 'Domestic rabbits' });
  });

  it('answers 201 without a description when none was sent', async () => {
    const res = await request(app).post('/v1/categories').set(AUTH).send({ name: 'Hamster' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 3, name: 'Hamster' });
  });

  it('remembers what it created: the new category is in the list at once', async () => {
    const created = await request(app).post('/v1/categories').set(AUTH).send({ name: 'Ferret' });
    const list = await request(app).get('/v1/categories').set(AUTH);
    expect(list.body).toContainEqual(created.body);
    expect(list.body).toHaveLength(3);
  });

  it('gives concurrent creates different ids, and loses none of them', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        request(app)
          .post('/v1/categories')
          .set(AUTH)
          .send({ name: `Kind ${i}` }),
      ),
    );
    expect(answers.every((res) => res.status === 201)).toBe(true);
    const ids = answers.map((res) => (res.body as Category).id);
    expect(new Set(ids).size).toBe(40);
    const list = await request(app).get('/v1/categories').set(AUTH);
    expect(list.body).toHaveLength(42);
  });

  it('accepts a content type with a charset', async () => {
    const res = await request(app)
      .post('/v1/categories')
      .set(AUTH)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ name: 'Parrot' }));
    expect(res.status).toBe(201);
  });
});

describe('invalid bodies get 400 with an Error body (rules 1 and 2)', () => {
  const cases: { rule: string; body: string; code: string }[] = [
    { rule: 'no name', body: '{"description":"no name"}', code: 'validation_failed' },
    { rule: 'an empty object', body: '{}', code: 'validation_failed' },
    { rule: 'name is a number', body: '{"name":42}', code: 'validation_failed' },
    { rule: 'name is null', body: '{"name":null}', code: 'validation_failed' },
    { rule: 'name is an array', body: '{"name":["Dog"]}', code: 'validation_failed' },
    { rule: 'name is an object', body: '{"name":{"en":"Dog"}}', code: 'validation_failed' },
    { rule: 'name is a boolean', body: '{"name":true}', code: 'validation_failed' },
    {
      rule: 'description is a number',
      body: '{"name":"Dog","description":7}',
      code: 'validation_failed',
    },
    {
      rule: 'description is null',
      body: '{"name":"Dog","description":null}',
      code: 'validation_failed',
    },
    {
      rule: 'a client-sent id (read-only)',
      body: '{"name":"Dog","id":99}',
      code: 'validation_failed',
    },
    { rule: 'the body is an array', body: '[{"name":"Dog"}]', code: 'validation_failed' },
    { rule: 'the body is a string', body: '"Dog"', code: 'validation_failed' },
    { rule: 'the body is a number', body: '42', code: 'validation_failed' },
    { rule: 'the body is null', body: 'null', code: 'validation_failed' },
    { rule: 'the body is malformed JSON', body: '{"name":', code: 'malformed_json' },
    { rule: 'the body is empty', body: '', code: 'validation_failed' },
  ];

  it.each(cases)('$rule -> 400 $code', async ({ body, code }) => {
    const res = await request(app)
      .post('/v1/categories')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send(body);
    expectError(res, 400, code);
  });

  it('names the offending field in the message', async () => {
    const res = await request(app).post('/v1/categories').set(AUTH).send({ name: 42 });
    expect(res.body.message).toContain('name');
  });

  it('stores nothing for a rejected body', async () => {
    await request(app).post('/v1/categories').set(AUTH).send({ name: 42 });
    await request(app).post('/v1/categories').set(AUTH).send({ name: 'Dog', id: 7 });
    expect(await storedCategories(store)).toHaveLength(2);
  });
});

describe('credentials: missing or invalid gets 401, whatever the body (rule 3)', () => {
  const credentials: { rule: string; header?: string; code: string }[] = [
    { rule: 'no Authorization header', code: 'missing_credential' },
    { rule: 'an unknown key', header: 'Bearer not-a-key', code: 'invalid_credential' },
    {
      rule: 'a key that only starts like a valid one',
      header: `Bearer ${KEY}x`,
      code: 'invalid_credential',
    },
    {
      rule: 'the Basic scheme',
      header: `Basic ${Buffer.from(`user:${KEY}`).toString('base64')}`,
      code: 'invalid_credential',
    },
    { rule: 'a bare key without scheme', header: KEY, code: 'invalid_credential' },
    { rule: 'Bearer without a token', header: 'Bearer', code: 'invalid_credential' },
    { rule: 'an empty header', header: '', code: 'missing_credential' },
  ];
  const requests = [
    { operation: 'listCategories', send: () => request(app).get('/v1/categories') },
    {
      operation: 'createCategory with a valid body',
      send: () => request(app).post('/v1/categories').send({ name: 'Dog' }),
    },
    {
      operation: 'createCategory with an invalid body',
      send: () => request(app).post('/v1/categories').send({ name: 42 }),
    },
    {
      operation: 'createCategory with malformed JSON',
      send: () =>
        request(app)
          .post('/v1/categories')
          .set('Content-Type', 'application/json')
          .send('{"name":'),
    },
    {
      operation: 'createCategory with a body over the size limit',
      send: () =>
        request(app)
          .post('/v1/categories')
          .set('Content-Type', 'application/json')
          .send(JSON.stringify({ name: 'x'.repeat(DEFAULT_BODY_LIMIT + 10) })),
    },
    {
      operation: 'createCategory with the wrong content type',
      send: () =>
        request(app).post('/v1/categories').set('Content-Type', 'text/plain').send('name=Dog'),
    },
  ];

  for (const { operation, send } of requests) {
    it.each(credentials)(`${operation}: $rule -> 401 $code`, async ({ header, code }) => {
      const pending = send();
      if (header !== undefined) pending.set('Authorization', header);
      const res = await pending;
      expectError(res, 401, code);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer realm=/);
    });
  }

  it('accepts the scheme name in any case', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const res = await request(app).get('/v1/categories').set('Authorization', `${scheme} ${KEY}`);
      expect(res.status, scheme).toBe(200);
    }
  });

  it('accepts every configured key and stores nothing for a rejected create', async () => {
    const multi = appWith({ apiKeys: ['first', 'second'] });
    expect(
      (await request(multi).get('/v1/categories').set('Authorization', 'Bearer first')).status,
    ).toBe(200);
    expect(
      (await request(multi).get('/v1/categories').set('Authorization', 'Bearer second')).status,
    ).toBe(200);
    expect((await request(multi).get('/v1/categories').set(AUTH)).status).toBe(401);
    await request(multi).post('/v1/categories').send({ name: 'Dog' });
    expect(await storedCategories(store)).toHaveLength(2);
  });

  it('protects operations the spec has no stateful handler for', async () => {
    expectError(await request(app).get('/v1/store/orders'), 401, 'missing_credential');
    expectError(await request(app).get('/v1/pets/1'), 401, 'missing_credential');
  });

  it('leaves an operation open when the spec gives it an empty security requirement', async () => {
    const open = await editedSpec((document) => {
      document.paths!['/store/orders']!.get!.security = [{}];
    });
    const res = await request(appWith({ spec: open })).get('/v1/store/orders');
    expect(res.status).toBe(200);
  });
});

describe('every other error is an Error body too', () => {
  it('unknown path inside the base path -> 404', async () => {
    expectError(await request(app).get('/v1/dogs').set(AUTH), 404, 'not_found');
  });

  it('unknown path outside the base path -> 404', async () => {
    expectError(await request(app).get('/categories').set(AUTH), 404, 'not_found');
    expectError(await request(app).get('/'), 404, 'not_found');
  });

  it('paths are case-sensitive -> 404', async () => {
    expectError(await request(app).get('/v1/CATEGORIES').set(AUTH), 404, 'not_found');
  });

  it('wrong method -> 405 with an Allow header listing the spec methods', async () => {
    const res = await request(app).delete('/v1/categories').set(AUTH);
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow?.split(/,\s*/).sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
  });

  // The body limit is Node's HTTP layer's: it refuses the body as it comes, over a socket.
  it('body over the limit -> 413', async () => {
    const res = await supertest(app)
      .post('/v1/categories')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(DEFAULT_BODY_LIMIT) }));
    expectError(res, 413, 'payload_too_large');
  });

  it('takes the body limit as an option', async () => {
    const small = appWith({ bodyLimit: 64 });
    const res = await supertest(small)
      .post('/v1/categories')
      .set(AUTH)
      .send({ name: 'x'.repeat(100) });
    expectError(res, 413, 'payload_too_large');
    expect(
      (await supertest(small).post('/v1/categories').set(AUTH).send({ name: 'Dog' })).status,
    ).toBe(201);
  });

  it.each([
    { contentType: 'text/plain', body: 'name=Dog' },
    { contentType: 'application/x-www-form-urlencoded', body: 'name=Dog' },
    { contentType: 'application/xml', body: '<name>Dog</name>' },
  ])('content type $contentType -> 415', async ({ contentType, body }) => {
    const res = await request(app)
      .post('/v1/categories')
      .set(AUTH)
      .set('Content-Type', contentType)
      .send(body);
    expectError(res, 415, 'unsupported_media_type');
  });

  it('a multipart form -> 415 (the interface takes JSON only)', async () => {
    const res = await request(app).post('/v1/categories').set(AUTH).field('name', 'Dog');
    expectError(res, 415, 'unsupported_media_type');
    expect(await storedCategories(store)).toHaveLength(2);
  });

  it('missing content type -> 415', async () => {
    const res = await request(app)
      .post('/v1/categories')
      .set(AUTH)
      .unset('Content-Type')
      .send(Buffer.from('{"name":"Dog"}'));
    expectError(res, 415, 'unsupported_media_type');
  });

  it('unknown query parameter -> 400 (the spec defines none)', async () => {
    expectError(
      await request(app).get('/v1/categories?page=2').set(AUTH),
      400,
      'validation_failed',
    );
  });

  it('a failing handler -> 500 that shows no internals', async () => {
    const broken = storeWith({
      list: () => Promise.reject(new Error('disk on fire at /srv/data/categories.json')),
    });
    const res = await request(appWith({ store: broken }))
      .get('/v1/categories')
      .set(AUTH);
    expectError(res, 500, 'internal_error');
    expect(res.text).not.toContain('disk on fire');
  });
});

describe('the mock validates its own responses against the spec', () => {
  it('a planted record that breaks the Category schema -> 500 naming the problem', async () => {
    const planted = categoryStore([{ id: 1, name: 42 }]);
    const res = await request(appWith({ store: planted }))
      .get('/v1/categories')
      .set(AUTH);
    expectError(res, 500, 'invalid_response');
    expect(res.body.message).toMatch(/name/);
    expect(res.body.message).toMatch(/string/);
  });

  it('a planted record without id -> 500', async () => {
    const planted = categoryStore([{ name: 'Dog' }]);
    const res = await request(appWith({ store: planted }))
      .get('/v1/categories')
      .set(AUTH);
    expectError(res, 500, 'invalid_response');
    expect(res.body.message).toContain('id');
  });

  it('a create answer that breaks the schema -> 500', async () => {
    const lying = storeWith({
      create: (fields) => Promise.resolve(Object.freeze({ ...fields, id: 'seven' })),
      remove: () => Promise.resolve(true),
    });
    const res = await request(appWith({ store: lying }))
      .post('/v1/categories')
      .set(AUTH)
      .send({ name: 'Dog' });
    expectError(res, 500, 'invalid_response');
  });
});

describe('operations without a stateful handler answer from the spec', () => {
  it('GET /store/orders answers its spec example', async () => {
    const res = await request(app).get('/v1/store/orders').set(AUTH);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: 100, petId: 10, quantity: 1 }]);
  });

  it('answers data generated from the schema when the spec has no example', async () => {
    const noExamples = await editedSpec((document) => {
      const media = (
        document.paths!['/store/orders']!.get!.responses!['200'] as {
          content: Record<string, { examples?: unknown }>;
        }
      ).content['application/json']!;
      delete media.examples;
    });
    const res = await request(appWith({ spec: noExamples }))
      .get('/v1/store/orders')
      .set(AUTH);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
  });
});

describe('deprecation headers come from the spec', () => {
  it('GET /pets/{petId} carries Deprecation (RFC 9745) and Sunset (RFC 8594)', async () => {
    const res = await request(app).get('/v1/pets/10').set(AUTH);
    expect(res.status).toBe(200);
    expect(res.headers.deprecation).toBe(`@${Date.parse('2026-01-01T00:00:00Z') / 1000}`);
    expect(res.headers.sunset).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
  });

  it('an operation the spec does not deprecate carries neither header', async () => {
    const res = await request(app).get('/v1/categories').set(AUTH);
    expect(res.headers.deprecation).toBeUndefined();
    expect(res.headers.sunset).toBeUndefined();
  });

  it('follows the spec when it deprecates another operation', async () => {
    const moved = await editedSpec((document) => {
      Object.assign(document.paths!['/store/orders']!.get!, {
        deprecated: true,
        'x-deprecated-at': '2026-03-01',
        'x-sunset': '2028-01-31',
      });
    });
    const res = await request(appWith({ spec: moved }))
      .get('/v1/store/orders')
      .set(AUTH);
    expect(res.headers.deprecation).toBe(`@${Date.parse('2026-03-01T00:00:00Z') / 1000}`);
    expect(res.headers.sunset).toBe('Mon, 31 Jan 2028 00:00:00 GMT');
  });

  it('serves under the base path the spec servers give', async () => {
    const v2 = await editedSpec((document) => {
      for (const server of document.servers!) server.url = server.url.replace('/v1', '/api/v2');
    });
    const moved = appWith({ spec: v2 });
    expect((await request(moved).get('/api/v2/categories').set(AUTH)).status).toBe(200);
    expectError(await request(moved).get('/v1/categories').set(AUTH), 404, 'not_found');
  });
});
