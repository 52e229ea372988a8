// A request is routed once on its way through petstore-kit/msw: the route MSW's predicate found
// is handed to `mock.fetch`, which answers on it rather than finding it again.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Mock } from '../src/core/create-mock.js';
import { ADMIN_SPEC_PATH } from '../src/openapi/bundled.js';
import { loadSpec } from '../src/openapi/load.js';
import { createMswMock, type MswMock } from '../src/wiring/msw-mock.js';

const KEY = 'route-once-key';
const AUTH = { authorization: `Bearer ${KEY}` };
let msw: MswMock;
let mock: Mock;
const server = setupServer();
beforeAll(async () => {
  msw = await createMswMock(
    { apiKeys: [KEY] },
    { spec: await loadSpec(), admin: await loadSpec(ADMIN_SPEC_PATH) },
    (inner, answer) => {
      mock = inner;
      return answer;
    },
  );
  server.use(...msw.handlers);
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(async () => {
  server.close();
  await msw.close();
});

describe('mock.fetch given a route', () => {
  it('answers on that route, not on one found again from the request', async () => {
    const list = mock.route('GET', `${msw.mock.basePath}/categories`);
    const response = await mock.fetch(
      new Request(`http://mock.test${msw.mock.basePath}/categories/1`, { headers: AUTH }),
      list,
    );
    expect(response.status).toBe(200);
    expect(Array.isArray(await response.json())).toBe(true);
  });
});

describe('a request through petstore-kit/msw', () => {
  it('is routed once, by the predicate, and answered on that route', async () => {
    const route = vi.spyOn(mock, 'route');
    const fetch_ = vi.spyOn(mock, 'fetch');
    try {
      const response = await fetch(`http://mock.test${msw.mock.basePath}/categories`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Birds' }),
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toMatchObject({ name: 'Birds' });
      expect(route).toHaveBeenCalledTimes(1);
      expect(fetch_).toHaveBeenCalledWith(expect.any(Request), route.mock.results[0]?.value);
    } finally {
      route.mockRestore();
      fetch_.mockRestore();
    }
  });
});
