// An error is answered in the shape its operation documents for that status, not in the shape
// most of the document's operations give it: an operation of an older part of an API may keep
// an error body of its own, and a client of that operation reads that one. A refused credential
// included, though the operation is looked up after it (404 and 405 come after the 401). Only
// where the operation's own schema admits no value does the document's common shape stand in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, specFileOf } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';

const json = (schema: object) => ({ 'application/json': { schema } });
const ok = { description: 'ok', content: json({ type: 'object' }) };
const PLAIN = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'string' }, message: { type: 'string' } },
};
const LEGACY = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: { error: { type: 'string' } },
};
const SCHEMAS = { Plain: PLAIN, Legacy: LEGACY };
type Named = keyof typeof SCHEMAS;

/**
 * Two operations answer 401 with `{code, message}`, one with a legacy `{error}` of its own: the
 * schemas by reference to components, or written out in each response (three distinct ones).
 */
function specOf(byReference: boolean): object {
  const refusedAs = (name: Named) => {
    const schema = byReference ? { $ref: `#/components/schemas/${name}` } : SCHEMAS[name];
    return {
      get: { responses: { '200': ok, '401': { description: 'no', content: json(schema) } } },
    };
  };
  return {
    openapi: '3.1.0',
    info: { title: 'two error shapes', version: '1' },
    servers: [{ url: '/api' }],
    security: [{ key: [] }],
    components: {
      schemas: SCHEMAS,
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
    },
    paths: { '/legacy': refusedAs('Legacy'), '/a': refusedAs('Plain'), '/b': refusedAs('Plain') },
  };
}

describe.each([
  ['by reference', true],
  ['written out in each response', false],
])('a refused credential, the error schemas %s', (_how, byReference) => {
  let mock: InProcessMock;
  beforeAll(async () => {
    mock = await inProcessMock({ spec: await specFileOf(specOf(byReference)), apiKeys: [KEY] });
  });
  afterAll(() => mock.close());

  it("is answered in its operation's own documented shape", async () => {
    for (const headers of [{}, { 'X-Key': 'not-the-key' }] as Record<string, string>[]) {
      const res = await mock.fetch(`${mock.url}/legacy`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
  });

  it('is answered in the shape the other operations document for theirs', async () => {
    const res = await mock.fetch(`${mock.url}/a`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      code: expect.any(String),
      message: expect.any(String),
    });
  });
});

describe('a refused credential on a path the spec lacks', () => {
  it('takes the shape most operations give that status, as no operation is known', async () => {
    const mock = await inProcessMock({ spec: await specFileOf(specOf(true)), apiKeys: [KEY] });
    try {
      const res = await mock.fetch(`${mock.url}/nowhere`);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({
        code: expect.any(String),
        message: expect.any(String),
      });
    } finally {
      await mock.close();
    }
  });
});

/** Cloudflare's pattern: an error body that is at once a success envelope and a failure one. */
const BOTH_ENVELOPES = {
  allOf: [
    { type: 'object', required: ['success'], properties: { success: { enum: [true] } } },
    { type: 'object', required: ['success'], properties: { success: { enum: [false] } } },
  ],
};

describe("an operation's own error schema that no value satisfies", () => {
  it('gives way to the shape the other operations document, for a refusal and a bad request', async () => {
    const spec = specOf(true) as { paths: Record<string, unknown> };
    // The other operations' 400 and 401 are the legacy `{error}`, which the mock's own body
    // does not fit.
    const legacyError = {
      description: 'no',
      content: json({ $ref: '#/components/schemas/Legacy' }),
    };
    const legacy = { responses: { '200': ok, '400': legacyError, '401': legacyError } };
    spec.paths = {
      '/a': { get: legacy },
      '/b': { get: legacy },
      '/broken': {
        get: {
          parameters: [{ name: 'size', in: 'query', schema: { type: 'integer', minimum: 5 } }],
          responses: {
            '200': ok,
            '4XX': { description: 'failure', content: json(BOTH_ENVELOPES) },
          },
        },
      },
    };
    const mock = await inProcessMock({ spec: await specFileOf(spec), apiKeys: [KEY] });
    try {
      const refused = await mock.fetch(`${mock.url}/broken`);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ error: expect.any(String) });
      const bad = await mock.fetch(`${mock.url}/broken?size=2`, { headers: { 'X-Key': KEY } });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ error: expect.any(String) });
    } finally {
      await mock.close();
    }
  });
});
