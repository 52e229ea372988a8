// petstore-kit/express: the mock mounted in a team's own express app (5, and 4, which many
// teams still run), behind the team's routes, doing everything it does as a server of its own.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express5, { type Express } from 'express';
import express4 from 'express4';
import { afterEach, describe, expect, it } from 'vitest';
import { mockMiddleware, type MockMiddleware } from '../src/express.js';
import { SpecError } from '../src/index.js';
import { KEY, AUTH } from './helpers.js';

const json = { ...AUTH, 'Content-Type': 'application/json' };

const toClose: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(toClose.splice(0).map((close) => close()));
});

/** Listens on a free port; the app and its mock are closed after the test. */
async function listen(app: Express, mock?: MockMiddleware): Promise<string> {
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  toClose.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await mock?.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function call(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: res.headers.get('content-type')?.startsWith('application/json')
      ? (JSON.parse(text) as unknown)
      : undefined,
    text,
  };
}

const FRAMEWORKS = [
  { name: 'express 5', express: express5 },
  { name: 'express 4', express: express4 },
];

describe.each(FRAMEWORKS)(
  'petstore-kit/express behind a team’s own $name routes',
  ({ express }) => {
    /** A team's dev server: its own routes first, the mock behind them, its own 404 last. */
    async function teamServer(): Promise<{ origin: string; mock: MockMiddleware }> {
      const mock = await mockMiddleware({ apiKeys: [KEY] });
      const app = express();
      app.get('/health', (_req, res) => {
        res.json({ ok: true });
      });
      // A route of the team's own under the mocked API's base path: in front, it wins.
      app.post('/v1/feedback', express.json(), (req, res) => {
        res.status(202).json({ received: req.body as unknown });
      });
      app.use(mock);
      app.use((_req, res) => {
        res.status(404).type('text/plain').send('the team app has no such page');
      });
      return { origin: await listen(app, mock), mock };
    }

    it("answers the team's own routes with the team's handlers, in front of the mock", async () => {
      const { origin } = await teamServer();
      expect(await call(`${origin}/health`)).toMatchObject({ status: 200, body: { ok: true } });
      const feedback = await call(`${origin}/v1/feedback`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"stars":5}',
      });
      expect(feedback).toMatchObject({ status: 202, body: { received: { stars: 5 } } });
    });

    it('answers the rest of the API statefully: a create is in the next list', async () => {
      const { origin } = await teamServer();
      const list = await call(`${origin}/v1/categories`, { headers: AUTH });
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(10);
      const created = await call(`${origin}/v1/categories`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Axolotl' }),
      });
      expect(created).toMatchObject({ status: 201, body: { id: 11, name: 'Axolotl' } });
      expect((await call(`${origin}/v1/categories`, { headers: AUTH })).body).toContainEqual({
        id: 11,
        name: 'Axolotl',
      });
      // A session (Mock-Session) is a state of its own, from the start-up data.
      const session = { ...AUTH, 'Mock-Session': 'worker-1' };
      expect((await call(`${origin}/v1/categories`, { headers: session })).body).toHaveLength(10);
    });

    it("refuses what the spec refuses, in the spec's Error shape, never express's HTML", async () => {
      const { origin } = await teamServer();
      const cases = [
        { init: { headers: {} }, path: '/v1/categories', status: 401, code: 'missing_credential' },
        {
          init: { method: 'POST', headers: json, body: '{"description":"no name"}' },
          path: '/v1/categories',
          status: 400,
          code: 'validation_failed',
        },
        {
          init: { method: 'POST', headers: json, body: '{"name":' },
          path: '/v1/categories',
          status: 400,
          code: 'malformed_json',
        },
        { init: { headers: AUTH }, path: '/v1/dogs', status: 404, code: 'not_found' },
        {
          init: { method: 'DELETE', headers: AUTH },
          path: '/v1/categories',
          status: 405,
          code: 'method_not_allowed',
        },
      ];
      for (const { init, path, status, code } of cases) {
        const res = await call(`${origin}${path}`, init);
        expect(res.status, `${path}: ${res.text}`).toBe(status);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.body).toEqual({ code, message: expect.any(String), status });
      }
      const unauthorized = await call(`${origin}/v1/categories`);
      expect(unauthorized.headers.get('www-authenticate')).toBe('Bearer realm="petstore-kit"');
    });

    it('hands every path outside the API and the admin API on to the next middleware', async () => {
      const { origin } = await teamServer();
      const res = await call(`${origin}/somewhere/else`, { headers: AUTH });
      expect(res).toMatchObject({ status: 404, text: 'the team app has no such page' });
    });

    it('plays the scenarios a request asks for', async () => {
      const { origin } = await teamServer();
      const forced = await call(`${origin}/v1/categories`, {
        headers: { ...AUTH, Prefer: 'code=500' },
      });
      expect(forced).toMatchObject({ status: 500, body: { status: 500 } });
    });

    it('answers CORS preflights and sets CORS headers for pages on other origins', async () => {
      const { origin } = await teamServer();
      const preflight = await fetch(`${origin}/v1/categories`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://localhost:5173',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
      const list = await fetch(`${origin}/v1/categories`, {
        headers: { ...AUTH, Origin: 'http://localhost:5173' },
      });
      expect(list.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    });

    it('serves the admin API: the request log, and a reset to the start-up data', async () => {
      const { origin, mock } = await teamServer();
      await call(`${origin}/v1/categories`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Ferret' }),
      });
      const log = await call(`${origin}/__mock/requests?method=POST`, { headers: AUTH });
      expect(log).toMatchObject({
        status: 200,
        body: { count: 1, requests: [{ method: 'POST', path: '/v1/categories', status: 201 }] },
      });
      // The team's own routes are not the mock's requests.
      await call(`${origin}/health`);
      expect((await call(`${origin}/__mock/requests`, { headers: AUTH })).body).toMatchObject({
        count: 1,
      });

      expect((await call(`${origin}/__mock/reset`, { method: 'POST', headers: AUTH })).status).toBe(
        204,
      );
      expect((await call(`${origin}/v1/categories`, { headers: AUTH })).body).toHaveLength(10);
      // And in process, as a test setup would.
      await call(`${origin}/v1/categories`, {
        method: 'POST',
        headers: json,
        body: '{"name":"X"}',
      });
      await mock.mock.reset();
      expect((await call(`${origin}/v1/categories`, { headers: AUTH })).body).toHaveLength(10);
      expect(mock.mock.basePath).toBe('/v1');
    });

    it('mounted under a path, serves the API below it', async () => {
      const mock = await mockMiddleware({ apiKeys: [KEY] });
      const app = express();
      app.use('/mock', mock);
      const origin = await listen(app, mock);
      expect((await call(`${origin}/mock/v1/categories`, { headers: AUTH })).body).toHaveLength(10);
      expect((await call(`${origin}/v1/categories`, { headers: AUTH })).status).toBe(404);
    });

    it("says so, in the spec's Error shape, when a body parser in front has read the body", async () => {
      const mock = await mockMiddleware({ apiKeys: [KEY] });
      const app = express();
      app.use(express.json());
      app.use(mock);
      const origin = await listen(app, mock);
      const res = await call(`${origin}/v1/categories`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: 'Ferret' }),
      });
      expect(res).toMatchObject({
        status: 500,
        body: {
          code: 'body_already_read',
          message: expect.stringMatching(/before any body parser/),
        },
      });
      // Bodiless requests are not concerned.
      expect((await call(`${origin}/v1/categories`, { headers: AUTH })).status).toBe(200);
    });
  },
);

it('mockMiddleware fails at start-up, not on a request, for a spec it cannot serve', async () => {
  await expect(mockMiddleware({ spec: '/no/such/spec.yaml' })).rejects.toBeInstanceOf(SpecError);
});
