import { createServer } from 'node:http';
import request, { type Test } from 'supertest';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type AppOptions, type MockApp } from '../src/wiring/create-app.js';
import { DEFAULT_BODY_LIMIT } from '../src/wiring/option-table.js';
import {
  ALWAYS_EXPOSED_HEADERS,
  corsMiddleware,
  DEFAULT_CORS_MAX_AGE,
  specCorsRules,
  type CorsRules,
} from '../src/http/cors.js';
import { loadSpec, type LoadedSpec } from '../src/openapi/load.js';
import {
  AUTH,
  categoryStore,
  editedSpec,
  expectError,
  KEY,
  serveCli,
  type ServingCli,
} from './helpers.js';

const PAGE = 'http://localhost:5173';
const OTHER_PAGE = 'https://evil.example.com';

let spec: LoadedSpec;

function appWith(options: Partial<AppOptions> = {}) {
  return createApp({
    spec,
    apiKeys: [KEY],
    store: categoryStore([{ id: 1, name: 'Dog' }]),
    ...options,
  });
}

function preflight(
  app: Parameters<typeof request>[0],
  path: string,
  method: string,
  headers?: string,
): Test {
  const req = request(app)
    .options(path)
    .set('Origin', PAGE)
    .set('Access-Control-Request-Method', method);
  return headers ? req.set('Access-Control-Request-Headers', headers) : req;
}

/** Header names of a comma-separated list, lower-cased, in order. */
function names(list: string | undefined): string[] {
  return (list ?? '').split(',').map((name) => name.trim().toLowerCase());
}

beforeAll(async () => {
  spec = await loadSpec();
});

describe('a preflight is answered before authentication', () => {
  let app: MockApp;
  beforeAll(() => {
    app = appWith();
  });

  it('204 with the origin, the methods of the path, the requested headers and a max age', async () => {
    const res = await preflight(
      app,
      '/v1/categories',
      'POST',
      'authorization,content-type,x-request-id',
    );
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe(PAGE);
    expect(names(res.headers.vary)).toContain('origin');
    expect(names(res.headers['access-control-allow-methods']).sort()).toEqual([
      'get',
      'head',
      'options',
      'post',
    ]);
    expect(names(res.headers['access-control-allow-headers'])).toEqual([
      'authorization',
      'content-type',
      'x-request-id',
    ]);
    expect(res.headers['access-control-max-age']).toBe(String(DEFAULT_CORS_MAX_AGE));
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('takes the methods of a templated path from the spec', async () => {
    const res = await preflight(app, '/v1/pets/10', 'GET', 'authorization');
    expect(res.status).toBe(204);
    expect(names(res.headers['access-control-allow-methods'])).toEqual(['get', 'head', 'options']);
  });

  it('follows the spec when it adds a method to a path', async () => {
    const withDelete = await editedSpec((document) => {
      document.paths!['/pets/{petId}']!.delete = {
        operationId: 'deletePet',
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '204': { description: 'Deleted.' } },
      };
    });
    const res = await preflight(appWith({ spec: withDelete }), '/v1/pets/10', 'DELETE');
    expect(res.status).toBe(204);
    expect(names(res.headers['access-control-allow-methods']).sort()).toEqual([
      'delete',
      'get',
      'head',
      'options',
    ]);
  });

  it('an unknown path gets the usual 404 Error, with CORS headers the page can read it by', async () => {
    const res = await preflight(app, '/v1/dogs', 'GET', 'authorization');
    expectError(res, 404, 'not_found');
    expect(res.headers['access-control-allow-origin']).toBe(PAGE);
    expect(names(res.headers.vary)).toContain('origin');
  });

  it('a path outside the base path gets 404 too', async () => {
    expectError(await preflight(app, '/anything', 'GET'), 404, 'not_found');
  });

  it('a method the path lacks gets the usual 405 Error with Allow, and CORS headers', async () => {
    const res = await preflight(app, '/v1/categories', 'DELETE', 'authorization');
    expectError(res, 405, 'method_not_allowed');
    expect(names(res.headers.allow).sort()).toEqual(['get', 'head', 'options', 'post']);
    expect(res.headers['access-control-allow-origin']).toBe(PAGE);
    expect(res.headers['access-control-max-age']).toBeUndefined();
  });

  it('an OPTIONS without preflight headers is no preflight: 204 with Allow, no credential needed', async () => {
    const res = await request(app).options('/v1/categories').set('Origin', PAGE);
    expect(res.status).toBe(204);
    expect(names(res.headers.allow)).toEqual(['get', 'head', 'post', 'options']);
    expect(res.headers['access-control-allow-origin']).toBe(PAGE);
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
  });
});

describe('every actual response carries the CORS headers, errors included', () => {
  const categories = '/v1/categories';
  const cases: {
    name: string;
    status: number;
    send: (app: MockApp) => Test;
    options?: Partial<AppOptions>;
  }[] = [
    { name: 'list', status: 200, send: (app) => request(app).get(categories).set(AUTH) },
    {
      name: 'create',
      status: 201,
      send: (app) => request(app).post(categories).set(AUTH).send({ name: 'Ferret' }),
    },
    {
      name: 'invalid body',
      status: 400,
      send: (app) => request(app).post(categories).set(AUTH).send({ description: 'x' }),
    },
    { name: 'no credential', status: 401, send: (app) => request(app).get(categories) },
    { name: 'unknown path', status: 404, send: (app) => request(app).get('/v1/dogs').set(AUTH) },
    {
      name: 'wrong method',
      status: 405,
      send: (app) => request(app).delete(categories).set(AUTH),
    },
    {
      name: 'body too large',
      status: 413,
      send: (app) =>
        request(app)
          .post(categories)
          .set(AUTH)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify({ name: 'x'.repeat(DEFAULT_BODY_LIMIT) })),
    },
    {
      name: 'not JSON',
      status: 415,
      send: (app) =>
        request(app).post(categories).set(AUTH).set('Content-Type', 'text/plain').send('x'),
    },
    {
      name: 'a response that breaks the spec',
      status: 500,
      send: (app) => request(app).get(categories).set(AUTH),
      options: { store: categoryStore([{ id: 1, name: 42 }]) },
    },
  ];

  let shared: MockApp;
  beforeAll(() => {
    shared = appWith();
  });

  it.each(cases)('$status ($name)', async ({ status, send, options }) => {
    const res = await send(options ? appWith(options) : shared).set('Origin', PAGE);
    expect(res.status).toBe(status);
    expect(res.headers['access-control-allow-origin']).toBe(PAGE);
    expect(names(res.headers.vary)).toContain('origin');
    expect(names(res.headers['access-control-expose-headers'])).toEqual(
      expect.arrayContaining(ALWAYS_EXPOSED_HEADERS.map((name) => name.toLowerCase())),
    );
  });

  it('exposes the headers the spec documents for the operation: Deprecation and Sunset', async () => {
    const res = await request(shared).get('/v1/pets/10').set(AUTH).set('Origin', PAGE);
    expect(res.status).toBe(200);
    expect(names(res.headers['access-control-expose-headers'])).toEqual(
      expect.arrayContaining(['deprecation', 'sunset']),
    );
    const list = await request(shared).get('/v1/categories').set(AUTH).set('Origin', PAGE);
    expect(names(list.headers['access-control-expose-headers'])).not.toContain('deprecation');
  });

  it('a request without Origin still says the answer varies by it', async () => {
    const res = await request(shared).get('/v1/categories').set(AUTH);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(names(res.headers.vary)).toContain('origin');
  });
});

describe('an allow-list of origins', () => {
  let app: MockApp;
  beforeAll(() => {
    app = appWith({ cors: { origins: [PAGE] } });
  });

  it('gives a listed origin its origin back, with credentials', async () => {
    const pre = await preflight(app, '/v1/categories', 'GET', 'authorization');
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(PAGE);
    expect(pre.headers['access-control-allow-credentials']).toBe('true');
    const res = await request(app).get('/v1/categories').set(AUTH).set('Origin', PAGE);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(PAGE);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
  });

  it('gives any other origin no Access-Control-Allow-Origin, so its browser refuses', async () => {
    const pre = await request(app)
      .options('/v1/categories')
      .set('Origin', OTHER_PAGE)
      .set('Access-Control-Request-Method', 'GET');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const res = await request(app).get('/v1/categories').set(AUTH).set('Origin', OTHER_PAGE);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(names(res.headers.vary)).toContain('origin');
  });
});

describe('a request without Origin (no browser asking)', () => {
  it('gets no CORS header but Vary: Origin, for caches', async () => {
    const res = await request(appWith()).get('/v1/categories').set(AUTH);
    expect(res.status).toBe(200);
    expect(names(res.headers.vary)).toContain('origin');
    expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual(
      [],
    );
  });
});

describe('cors: false', () => {
  it('sends no CORS header, and a preflight is a plain OPTIONS the browser then refuses', async () => {
    const app = appWith({ cors: false });
    const res = await request(app).get('/v1/categories').set(AUTH).set('Origin', PAGE);
    expect(res.status).toBe(200);
    expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual(
      [],
    );
    const pre = await preflight(app, '/v1/categories', 'GET');
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('corsMiddleware options', () => {
  it.each(['localhost:5173', 'http://localhost:5173/', 'http://localhost:5173/app', '*', ''])(
    'refuses %j as an origin, saying what an origin looks like',
    (origin) => {
      expect(() => corsMiddleware({ origins: [origin] })).toThrow(
        /is not an origin.*http:\/\/localhost:5173/,
      );
    },
  );

  it('refuses an empty allow-list and a bad max age', () => {
    expect(() => corsMiddleware({ origins: [] })).toThrow(/at least one origin/);
    expect(() => corsMiddleware({ maxAge: -1 })).toThrow(/max age/);
  });

  it('takes a max age', async () => {
    const rules: CorsRules = { methodsOf: () => ['GET'], exposedHeadersOf: () => [] };
    const step = corsMiddleware({ maxAge: 5 }, rules);
    const route = { kind: 'not-found', api: undefined, pathname: '/', search: '' } as const;
    const server = createServer((req, res) => {
      step(req, res, route);
      res.end();
    });
    const res = await preflight(server, '/', 'GET');
    expect(res.headers['access-control-max-age']).toBe('5');
  });
});

/** The rules of a spec served at the root, read off the routes of its requests. */
function rulesOf(loaded: LoadedSpec): {
  methodsAt(path: string): readonly string[] | undefined;
  exposedHeadersFor(method: string, path: string): readonly string[];
} {
  const { mock: core } = createApp({ spec: loaded, apiKeys: [KEY] });
  const rules = specCorsRules();
  return {
    methodsAt: (path) => rules.methodsOf(core.route('OPTIONS', `${core.basePath}${path}`)),
    exposedHeadersFor: (method, path) =>
      rules.exposedHeadersOf(core.route(method, `${core.basePath}${path}`)),
  };
}

describe('specCorsRules', () => {
  it('reads methods and documented headers from the spec, not from a list of routes', async () => {
    const rules = rulesOf(spec);
    expect(rules.methodsAt('/categories')).toEqual(['GET', 'HEAD', 'POST', 'OPTIONS']);
    expect(rules.methodsAt('/categories/')).toEqual(['GET', 'HEAD', 'POST', 'OPTIONS']);
    expect(rules.methodsAt('/pets/abc')).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(rules.methodsAt('/pets')).toBeUndefined();
    expect(rules.exposedHeadersFor('GET', '/pets/abc')).toEqual(['Deprecation', 'Sunset']);
    expect(rules.exposedHeadersFor('HEAD', '/pets/abc')).toEqual(['Deprecation', 'Sunset']);
    expect(rules.exposedHeadersFor('GET', '/categories')).toEqual([]);
    expect(rules.exposedHeadersFor('DELETE', '/pets/abc')).toEqual([]);
  });

  it('exposes the headers a spec documents on any response of the operation', async () => {
    const withHeader = await editedSpec((document) => {
      Object.assign(document.paths!['/categories']!.post!.responses!['201']!, {
        headers: { 'X-Rate-Limit-Remaining': { schema: { type: 'integer' } } },
      });
    });
    const rules = rulesOf(withHeader);
    expect(rules.exposedHeadersFor('POST', '/categories')).toEqual(['X-Rate-Limit-Remaining']);
  });
});

describe('petstore-kit mock: --cors-origin, CORS_ORIGINS, --no-cors', () => {
  const running: ServingCli[] = [];

  /** The CLI in process, as bin.ts runs it; resolves once the mock listens. */
  async function mockCli(...args: string[]): Promise<string> {
    return mockCliWith(args);
  }

  async function mockCliWith(args: string[], env: Record<string, string> = {}): Promise<string> {
    const mock = await serveCli(
      ['mock', '--port', '0', '--quiet', '--shutdown-timeout', '0.05', ...args],
      env,
    );
    running.push(mock);
    return mock.url;
  }

  async function allowOrigin(url: string, origin: string): Promise<string | null> {
    const res = await fetch(`${url}/categories`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' },
    });
    return res.headers.get('access-control-allow-origin');
  }

  afterEach(async () => {
    await Promise.all(running.splice(0).map((mock) => mock.stop()));
  });

  it('allows any origin by default', async () => {
    expect(await allowOrigin(await mockCli(), OTHER_PAGE)).toBe(OTHER_PAGE);
  });

  it('--cors-origin, repeated, allows those origins only', async () => {
    const url = await mockCli('--cors-origin', PAGE, '--cors-origin', 'http://127.0.0.1:3000');
    expect(await allowOrigin(url, PAGE)).toBe(PAGE);
    expect(await allowOrigin(url, 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(await allowOrigin(url, OTHER_PAGE)).toBeNull();
  });

  it('--no-cors sends no CORS header', async () => {
    const res = await fetch(`${await mockCli('--no-cors')}/categories`, {
      headers: { Origin: PAGE },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses to start on an origin that is not one', async () => {
    await expect(mockCli('--cors-origin', 'localhost:5173')).rejects.toThrow(
      'CORS origin "localhost:5173" is not an origin',
    );
  });

  it('takes the allow-list from CORS_ORIGINS, comma-separated', async () => {
    const url = await mockCliWith([], { CORS_ORIGINS: `${PAGE}, http://127.0.0.1:3000` });
    expect(await allowOrigin(url, 'http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(await allowOrigin(url, OTHER_PAGE)).toBeNull();
  });
});
