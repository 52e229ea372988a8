// Every adapter holds the one mock (`createMock`'s): what is created through the adapter is
// read back through `adapter.mock`, with no port, from the same state.
import { describe, expect, it } from 'vitest';
import { mockMiddleware } from '../src/express.js';
import { mockHandlers } from '../src/msw.js';
import { createApp } from '../src/wiring/create-app.js';
import { loadSpec } from '../src/openapi/load.js';
import { startMock } from '../src/wiring/start-mock.js';
import type { Mock } from '../src/core/create-mock.js';

const KEY = 'one-mock-key';
const AUTH = { authorization: `Bearer ${KEY}` };

/** Creates a category through `mock.fetch` and reads the list back through `mock.handle`. */
async function roundTrip(mock: Mock, name: string): Promise<unknown> {
  const created = await mock.fetch(
    new Request(`http://mock.test${mock.basePath}/categories`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    }),
  );
  expect(created.status).toBe(201);
  return mock.store.collection({ name: 'categories', idProperty: 'id', idKind: 'integer' }).list();
}

describe('the one mock every adapter holds', () => {
  it('startMock: created over HTTP, read through running.mock', async () => {
    const running = await startMock({ port: 0, apiKeys: [KEY] });
    try {
      const res = await fetch(`${running.url}/categories`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Ferrets' }),
      });
      expect(res.status).toBe(201);
      const reply = await running.mock.handle({
        method: 'GET',
        target: `${running.mock.basePath}/categories`,
        headers: AUTH,
      });
      expect(reply.answer?.status).toBe(200);
      expect(await roundTrip(running.mock, 'Owls')).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'Ferrets' }),
          expect.objectContaining({ name: 'Owls' }),
        ]),
      );
    } finally {
      await running.close();
    }
  });

  it('createApp, mockHandlers and mockMiddleware each hold theirs at `.mock`', async () => {
    const app = createApp({ spec: await loadSpec(), apiKeys: [KEY] });
    expect(await roundTrip(app.mock, 'Birds')).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Birds' })]),
    );
    const msw = await mockHandlers({ apiKeys: [KEY] });
    expect(await roundTrip(msw.mock, 'Fish')).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Fish' })]),
    );
    await msw.close();
    const middleware = await mockMiddleware({ apiKeys: [KEY] });
    expect(await roundTrip(middleware.mock, 'Newts')).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Newts' })]),
    );
    await middleware.close();
  });
});
