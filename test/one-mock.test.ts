// Every adapter holds the one mock (`createMock`'s): what is created through the adapter is
// read back through `adapter.mock`, with no port, from the same state; an adapter adds only
// what it adds (a URL, handlers, a function, close), and `.mock` is the mock serving now.
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { Mock } from '../src/core/create-mock.js';
import { mockMiddleware, type MockMiddleware } from '../src/express.js';
import { mockHandlers } from '../src/msw.js';
import type { TestMock } from '../src/playwright.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp } from '../src/wiring/create-app.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { startProxy, type RunningProxy } from '../src/wiring/start-proxy.js';
import { addHealth, AUTH, editedSpec, KEY, QUICK_SHUTDOWN } from './helpers.js';

const opened: (RunningMock | MockMiddleware | RunningProxy)[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((adapter) => adapter.close()));
});

/** Creates a category through `mock.fetch` and reads the list back from the mock's store. */
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

const health = (mock: Mock) =>
  mock.fetch(new Request(`http://mock.test${mock.basePath}/health`, { headers: AUTH }));

describe('the one mock every adapter holds', () => {
  it('startMock: created over HTTP, read through running.mock', async () => {
    const running = await startMock({ ...QUICK_SHUTDOWN, port: 0, apiKeys: [KEY] });
    opened.push(running);
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
    opened.push(middleware);
    expect(await roundTrip(middleware.mock, 'Newts')).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Newts' })]),
    );
  });

  it('each adapter adds only what it adds, and copies no field of the mock', async () => {
    const running = await startMock({ port: 0, apiKeys: [KEY] });
    opened.push(running);
    expect(Object.keys(running).sort()).toEqual(['close', 'mock', 'server', 'url']);
    const msw = await mockHandlers({ apiKeys: [KEY] });
    expect(Object.keys(msw).sort()).toEqual(['close', 'handlers', 'mock']);
    await msw.close();
    const middleware = await mockMiddleware({ apiKeys: [KEY] });
    opened.push(middleware);
    expect(Object.keys(middleware).sort()).toEqual(['close', 'mock']);
    const proxy = await startProxy({ port: 0, target: 'http://127.0.0.1:9/v1' });
    opened.push(proxy);
    expect(Object.keys(proxy).sort()).toEqual(['close', 'mock', 'server', 'url', 'violations']);
    expect(proxy.mock.basePath).toBe('/v1');
  });

  it("Playwright's fixture holds the mock it started as `mock.mock`, none for one at `mockUrl`", () => {
    // Checked by the compiler here; run in Playwright by test/browser/playwright-fixture/.
    expectTypeOf<TestMock['mock']>().toEqualTypeOf<Mock | undefined>();
  });

  it('with watch, `.mock` is the mock of the reloaded spec, holding the same records', async () => {
    const file = (await editedSpec(() => {})).source;
    const running = await startMock({
      ...QUICK_SHUTDOWN,
      port: 0,
      apiKeys: [KEY],
      spec: file,
      watch: true,
    });
    const middleware = await mockMiddleware({ apiKeys: [KEY], spec: file, watch: true });
    opened.push(running, middleware);
    const before = { running: running.mock, middleware: middleware.mock };
    await roundTrip(running.mock, 'Kept');
    expect((await health(running.mock)).status).toBe(404);

    await addHealth(file);
    await expect
      .poll(() => running.mock !== before.running && middleware.mock !== before.middleware, {
        timeout: 15_000,
      })
      .toBe(true);
    expect((await health(running.mock)).status).toBe(200);
    expect((await health(middleware.mock)).status).toBe(200);
    // The socket answers with the mock `.mock` names, and it took over the records.
    expect((await fetch(`${running.url}/health`)).status).toBe(200);
    expect(await roundTrip(running.mock, 'New')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Kept' }),
        expect.objectContaining({ name: 'New' }),
      ]),
    );
  });
});
