// OpenAPI 3.2's methods and query strings, served by the mock: a path item's `query` operation
// (the QUERY method), `additionalOperations` (PURGE, LINK), and an `in: querystring` parameter
// read and checked as the whole query string, by the media type of its content.
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, type LoadedSpec } from '../src/openapi/load.js';
import { createApp } from '../src/wiring/create-app.js';
import { closeAll, serve } from './server-helpers.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/openapi-32-methods.yaml', import.meta.url));

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpec(SPEC, { checkCache: false });
});
afterAll(closeAll);

/** Asks the mock in process, as a Fetch client would. */
async function ask(
  method: string,
  target: string,
  init: { body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: unknown; allow: string | null }> {
  const { mock } = createApp({ spec, apiKeys: [] });
  const res = await mock.fetch(
    new Request(`http://mock.test${target}`, {
      method,
      ...(init.body === undefined ? {} : { body: init.body }),
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
    }),
  );
  const text = await res.text();
  return {
    status: res.status,
    body: text ? (JSON.parse(text) as unknown) : undefined,
    allow: res.headers.get('allow'),
  };
}

describe('OpenAPI 3.2 methods', () => {
  it('reads a 3.2 document without a warning for its new fields', async () => {
    expect(spec.version).toBe('3.2');
    expect(spec.warnings).toEqual([]);
    const streams = await loadSpec(SPEC.replace('openapi-32-methods', 'stream-items-32'), {
      checkCache: false,
    });
    expect(streams.warnings).toEqual([]);
  });

  it('answers QUERY with a body checked against the schema, as POST would be', async () => {
    const found = await ask('QUERY', '/v1/pets/search', { body: '{"name":"Rex"}' });
    expect(found.status).toBe(200);
    expect(Array.isArray(found.body)).toBe(true);
    const refused = await ask('QUERY', '/v1/pets/search', { body: '{"name":""}' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: expect.stringMatching(/name/) });
  });

  it('routes additionalOperations by their method, and lists them in Allow', async () => {
    expect((await ask('PURGE', '/v1/cache/a')).status).toBe(204);
    expect((await ask('LINK', '/v1/cache/a', { headers: { link: '</v1/cache/b>' } })).status).toBe(
      204,
    );
    // Its parameters are checked as any operation's are.
    expect((await ask('LINK', '/v1/cache/a')).status).toBe(400);
    const refused = await ask('DELETE', '/v1/cache/a');
    expect(refused.status).toBe(405);
    expect(refused.allow?.split(', ')).toEqual(expect.arrayContaining(['GET', 'PURGE', 'LINK']));
  });
});

describe('OpenAPI 3.2 in: querystring', () => {
  it('reads a form query string whole: its fields typed, an unknown or bad one refused', async () => {
    expect((await ask('GET', '/v1/pets/lookup?species=cat&limit=2')).status).toBe(200);
    const bad = await ask('GET', '/v1/pets/lookup?species=cow');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: expect.stringMatching(/\/query\/filter\/species/) });
    const low = await ask('GET', '/v1/pets/lookup?species=cat&limit=0');
    expect(low.status).toBe(400);
    expect((await ask('GET', '/v1/pets/lookup?species=cat&colour=red')).status).toBe(400);
  });

  it('refuses a required query string left out', async () => {
    const missing = await ask('GET', '/v1/pets/lookup');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ message: expect.stringMatching(/\/query is required/) });
  });

  it('reads a JSON query string as the JSON it percent-encodes', async () => {
    const json = (value: unknown) => encodeURIComponent(JSON.stringify(value));
    expect((await ask('GET', `/v1/pets/select?${json({ ids: [1, 2] })}`)).status).toBe(200);
    expect((await ask('GET', `/v1/pets/select?${json({ ids: [1, 2, 3, 4] })}`)).status).toBe(400);
    const broken = await ask('GET', '/v1/pets/select?%7Bids');
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ message: expect.stringMatching(/not JSON/) });
    // Optional: no query string at all is fine.
    expect((await ask('GET', '/v1/pets/select')).status).toBe(200);
  });
});

describe("OpenAPI 3.2 through Node's HTTP parser", () => {
  /** One request over a real socket, with the method as written. */
  function send(
    port: number,
    method: string,
    path: string,
    body?: string,
  ): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('serves QUERY, PURGE and a querystring over a socket', async () => {
    const { port } = await serve({ spec, apiKeys: [] });
    const found = await send(port, 'QUERY', '/v1/pets/search', '{"name":"Rex"}');
    expect(found.status).toBe(200);
    expect(JSON.parse(found.text)).toEqual(expect.any(Array));
    expect((await send(port, 'QUERY', '/v1/pets/search', '{}')).status).toBe(400);
    expect((await send(port, 'PURGE', '/v1/cache/a')).status).toBe(204);
    expect((await send(port, 'GET', '/v1/pets/lookup?species=dog')).status).toBe(200);
    expect((await send(port, 'GET', '/v1/pets/lookup?species=cow')).status).toBe(400);
  });
});
