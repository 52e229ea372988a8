// Request bodies of every common media type, checked against their schemas and, where they
// create records, stored: JSON and `+json`, form-urlencoded, multipart (a file included) and
// plain text; media types matched without case and parameters, by range, or by `*/*`.
import { fileURLToPath } from 'node:url';
import { request, type InProcessAnswer } from './in-process-request.js';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSpec, type LoadedSpec } from '../src/openapi/load.js';
import { createApp } from '../src/wiring/create-app.js';

const BODIES = fileURLToPath(new URL('./fixtures/specs/bodies.yaml', import.meta.url));
/** The first bytes of a PNG file, and a byte that is not UTF-8, so no text decoding could pass. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]);

let spec: LoadedSpec;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  spec = await loadSpec(BODIES);
});

beforeEach(() => {
  app = createApp({ spec, seedCount: 0 }); // "nothing is stored" reads an empty store;
});

function post(path: string, contentType: string, body: string | Buffer) {
  return request(app).post(`/api${path}`).set('Content-Type', contentType).send(body);
}

/** Asserts a 400 (or `status`) with this code, whose message matches `problem`. */
function expectRefused(res: InProcessAnswer, code: string, problem?: RegExp, status = 400) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.code).toBe(code);
  if (problem) expect(res.body.message).toMatch(problem);
}

/** The record as the mock keeps it: read back after the create. */
async function stored(created: InProcessAnswer) {
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const read = await request(app).get(`/api/pets/${created.body.id}`);
  expect(read.status).toBe(200);
  expect(read.body).toEqual(created.body);
  return read.body as Record<string, unknown>;
}

describe('JSON', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON; Charset=UTF-8',
  ])('creates a record from %s', async (type) => {
    const record = await stored(await post('/pets', type, '{"name":"Rex","age":3}'));
    expect(record).toEqual({ id: expect.any(Number), name: 'Rex', age: 3 });
  });

  it('matches a +json media type the spec writes with a parameter, and checks its schema', async () => {
    const type = 'application/vnd.acme.event+json';
    expect((await post('/events', type, '{"kind":"created"}')).status).toBe(202);
    expectRefused(await post('/events', type, '{"kind":"moved"}'), 'validation_failed', /kind/);
    expectRefused(
      await post('/events', 'application/json', '{}'),
      'unsupported_media_type',
      undefined,
      415,
    );
  });

  it('reads a body that starts with the UTF-8 byte order mark as a decoder does: without it', async () => {
    // U+FEFF is the mark: its UTF-8 bytes are EF BB BF.
    const record = await stored(
      await post('/pets', 'application/json', '\uFEFF{"name":"Rex","age":3}'),
    );
    expect(record).toEqual({ id: expect.any(Number), name: 'Rex', age: 3 });
    // Only a leading one: elsewhere it is a character JSON does not allow between tokens.
    const inside = '{"name":"Rex",\uFEFF"age":3}';
    expectRefused(await post('/pets', 'application/json', inside), 'malformed_json');
  });

  it('judges a Content-Type the same however often it is sent, and each operation by its own media types', async () => {
    for (let round = 0; round < 3; round++) {
      const type = 'application/vnd.acme.event+json';
      expect((await post('/events', type, '{"kind":"created"}')).status).toBe(202);
      const refused = await post('/pets', type, '{"name":"Rex"}');
      expectRefused(
        refused,
        'unsupported_media_type',
        /not application\/vnd\.acme\.event\+json/,
        415,
      );
      expectRefused(
        await post('/pets', 'application/json; charset=latin1', '{}'),
        'unsupported_media_type',
        /latin1/,
        415,
      );
      expect((await post('/pets', 'application/json', '{"name":"Rex"}')).status).toBe(201);
    }
  });
});

describe('application/x-www-form-urlencoded', () => {
  const FORM = 'application/x-www-form-urlencoded';

  it('creates a record with its values converted to the schema types', async () => {
    const record = await stored(
      await post('/pets', FORM, 'name=Rex+the+dog&age=3&vaccinated=true&tags=a,b&owner[name]=Ann'),
    );
    expect(record).toEqual({
      id: expect.any(Number),
      name: 'Rex the dog',
      age: 3,
      vaccinated: true,
      tags: ['a', 'b'],
      owner: { name: 'Ann' },
    });
  });

  it.each([
    {
      rule: 'a required field missing',
      body: 'age=3',
      problem: /\/body must have required property 'name'/,
    },
    {
      rule: 'a field empty where the schema wants a character',
      body: 'name=',
      problem: /\/body\/name must NOT have fewer than 1 characters/,
    },
    {
      rule: 'a field of the wrong type',
      body: 'name=Rex&age=old',
      problem: /\/body\/age must be an integer/,
    },
    {
      rule: 'a value below its minimum',
      body: 'name=Rex&age=-1',
      problem: /\/body\/age must be >= 0/,
    },
    {
      rule: 'a field the schema lacks',
      body: 'name=Rex&color=red',
      problem: /\/body\/color is not a known property/,
    },
    { rule: 'a read-only field', body: 'name=Rex&id=7', problem: /\/body\/id is read-only/ },
    {
      rule: 'a nested field the schema lacks',
      body: 'name=Rex&owner[age]=3',
      problem: /\/body\/owner\/age is not a known property/,
    },
  ])('$rule -> 400, and nothing is stored', async ({ body, problem }) => {
    expectRefused(await post('/pets', FORM, body), 'validation_failed', problem);
    expect((await request(app).get('/api/pets')).body).toEqual([]);
  });
});

describe('multipart/form-data', () => {
  it('creates a record from fields, a JSON part and a file, kept as the base64 of its bytes', async () => {
    const created = await request(app)
      .post('/api/pets')
      .field('name', 'Rex')
      .field('age', '3')
      .field('tags', 'a')
      .field('tags', 'b')
      .field('owner', JSON.stringify({ name: 'Ann' }))
      .attach('photo', PNG, { filename: 'rex.png', contentType: 'image/png' });
    const record = await stored(created);
    expect(record).toEqual({
      id: expect.any(Number),
      name: 'Rex',
      age: 3,
      tags: ['a', 'b'],
      owner: { name: 'Ann' },
      photo: PNG.toString('base64'),
    });
    expect(Buffer.from(record.photo as string, 'base64')).toEqual(PNG);
  });

  it.each([
    {
      rule: 'a required part missing',
      fields: { age: '3' },
      problem: /\/body must have required property 'name'/,
    },
    {
      rule: 'a part of the wrong type',
      fields: { name: 'Rex', age: 'old' },
      problem: /\/body\/age must be an integer/,
    },
    {
      rule: 'a part the schema lacks',
      fields: { name: 'Rex', color: 'red' },
      problem: /\/body\/color is not a known property/,
    },
  ])('$rule -> 400', async ({ fields, problem }) => {
    const pending = request(app).post('/api/pets');
    for (const [name, value] of Object.entries(fields)) pending.field(name, value);
    expectRefused(await pending, 'validation_failed', problem);
  });

  it('refuses a body that is not multipart as its header says', async () => {
    expectRefused(await post('/pets', 'multipart/form-data', 'name=Rex'), 'malformed_body');
    expectRefused(
      await post(
        '/pets',
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nRex',
      ),
      'malformed_body',
    );
  });
});

describe('text/plain', () => {
  it('checks text against its schema', async () => {
    expect((await post('/notes', 'text/plain', 'buy dog food')).status).toBe(204);
    expect((await post('/notes', 'text/plain; charset=utf-8', 'é à ü')).status).toBe(204);
    expectRefused(
      await post('/notes', 'text/plain', 'x'.repeat(21)),
      'validation_failed',
      /\/body must NOT have more than 20 characters/,
    );
    expectRefused(await post('/notes', 'text/plain', Buffer.from([0xff, 0xfe])), 'invalid_utf8');
    expectRefused(
      await post('/notes', 'text/plain; charset=latin1', 'x'),
      'unsupported_media_type',
      undefined,
      415,
    );
    expectRefused(
      await post('/notes', 'text/plain', ''),
      'validation_failed',
      /\/body is required/,
    );
  });

  it('converts text to the type its schema gives', async () => {
    expect((await post('/counts', 'text/plain', '42')).status).toBe(204);
    expectRefused(
      await post('/counts', 'text/plain', 'many'),
      'validation_failed',
      /\/body must be an integer/,
    );
    expectRefused(
      await post('/counts', 'text/plain', '-1'),
      'validation_failed',
      /\/body must be >= 0/,
    );
  });
});

describe('media type ranges', () => {
  it('takes any image for image/*, as bytes, and nothing else', async () => {
    const put = (type: string, body: Buffer) =>
      request(app).put('/api/images').set('Content-Type', type).send(body);
    expect((await put('image/png', PNG)).status).toBe(204);
    expect((await put('image/webp', PNG)).status).toBe(204);
    expectRefused(await put('text/plain', PNG), 'unsupported_media_type', undefined, 415);
  });

  it('prefers the exact media type to */*, and reads what */* is sent by its own type', async () => {
    const put = (type: string, body: string) =>
      request(app).put('/api/columns').set('Content-Type', type).send(body);
    expect((await put('application/json', '["a","b"]')).status).toBe(204);
    expectRefused(
      await put('application/json', '[1]'),
      'validation_failed',
      /\/body\/0 must be a string/,
    );
    expect((await put('application/octet-stream', 'anything')).status).toBe(204);
  });
});
