// The mock as a frontend meets it: a page from another origin, in headless Chromium,
// calling the API with fetch(). Only a browser enforces CORS, so only a browser proves it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/http/logger.js';
import { loadSpec, startMock, type LoadedSpec, type RunningMock } from '../../src/index.js';
import { sharedChromium } from './shared-chromium.js';
import { withChromium } from './with-chromium.js';

const KEY = 'browser-test-key';
const chromiumLookup = withChromium();

/** What a page's fetch() gave back, in a form that crosses from the page to the test. */
interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string | null>;
}

/** One line the mock logged for a request it answered. */
interface Logged {
  method: string;
  path: string;
  status: number;
}

let browser: Browser;
let context: BrowserContext;
let spec: LoadedSpec;
const toClose: (() => Promise<void>)[] = [];

/**
 * A page of a site of its own: an origin distinct from the mock's by its port. Opened once
 * and reused by the tests that run on that origin: opening a page costs more than the calls.
 */
async function openSite(): Promise<Page> {
  const server: Server = createServer((req, res) => {
    if (req.url !== '/') return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><meta charset="utf-8"><title>A frontend</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  toClose.push(() => new Promise((resolve) => server.close(() => resolve())));
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  return page;
}

/** A mock that records what it answers, so a test can wait for a preflight to arrive. */
async function startLoggedMock(options: Parameters<typeof startMock>[0] = {}) {
  const logged: Logged[] = [];
  const waiters: { match: (line: Logged) => boolean; resolve: (line: Logged) => void }[] = [];
  const logger = createLogger({
    write(text: string) {
      const line = JSON.parse(text) as Logged;
      logged.push(line);
      for (const waiter of waiters.filter((w) => w.match(line))) waiter.resolve(line);
    },
  });
  const mock = await startMock({ spec, apiKeys: [KEY], logger, logRequests: true, ...options });
  toClose.push(() => mock.close());
  const loggedRequest = (match: (line: Logged) => boolean): Promise<Logged> => {
    const seen = logged.find(match);
    return seen
      ? Promise.resolve(seen)
      : new Promise((resolve) => waiters.push({ match, resolve }));
  };
  return { mock, loggedRequest };
}

/** Runs in the page: one fetch(), its status, its JSON body and the named headers as the page can read them. */
async function pageFetch(arg: {
  url: string;
  init: RequestInit;
  read?: string[];
}): Promise<Answer> {
  const res = await fetch(arg.url, arg.init);
  const text = await res.text();
  return {
    status: res.status,
    body: text ? JSON.parse(text) : undefined,
    headers: Object.fromEntries((arg.read ?? []).map((name) => [name, res.headers.get(name)])),
  };
}

/** Runs in the page: a fetch() the browser refuses rejects, as it does for a real frontend. */
async function refusedFetch(arg: { url: string; init: RequestInit }): Promise<Answer> {
  try {
    const res = await fetch(arg.url, arg.init);
    return { status: res.status, body: 'the browser let the page read the answer', headers: {} };
  } catch (err) {
    return { status: 0, body: String(err), headers: {} };
  }
}

const auth = { Authorization: `Bearer ${KEY}` };
const json = { ...auth, 'Content-Type': 'application/json' };

beforeAll(async () => {
  if (!chromiumLookup.found) return;
  [spec, browser] = await Promise.all([loadSpec(), sharedChromium(chromiumLookup.path)]);
  context = await browser.newContext();
});

afterAll(async () => {
  await Promise.all(toClose.splice(0).map((close) => close()));
  await context?.close();
});

describe('a page on another origin, with fetch()', () => {
  let site: Page;
  let mock: RunningMock;
  let loggedRequest: (match: (line: Logged) => boolean) => Promise<Logged>;

  beforeAll(async () => {
    if (!chromiumLookup.found) return;
    [site, { mock, loggedRequest }] = await Promise.all([openSite(), startLoggedMock()]);
  });

  beforeEach(async () => {
    await mock.mock.reset();
  });

  it('lists the categories', async () => {
    const res = await site.evaluate(pageFetch, {
      url: `${mock.url}/categories`,
      init: { headers: auth },
    });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(10);
  });

  it('creates a category and sees it in the next list', async () => {
    const created = await site.evaluate(pageFetch, {
      url: `${mock.url}/categories`,
      init: { method: 'POST', headers: json, body: JSON.stringify({ name: 'Axolotl' }) },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 11, name: 'Axolotl' });
    const list = await site.evaluate(pageFetch, {
      url: `${mock.url}/categories`,
      init: { headers: auth },
    });
    expect(list.body).toContainEqual({ id: 11, name: 'Axolotl' });
  });

  it('reads a 401 Error body and its WWW-Authenticate challenge', async () => {
    const res = await site.evaluate(pageFetch, {
      url: `${mock.url}/categories`,
      init: {},
      read: ['WWW-Authenticate'],
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      code: 'missing_credential',
      message: expect.any(String),
      status: 401,
    });
    expect(res.headers['WWW-Authenticate']).toBe('Bearer realm="petstore-kit"');
  });

  it('reads a 400 Error body', async () => {
    const res = await site.evaluate(pageFetch, {
      url: `${mock.url}/categories`,
      init: { method: 'POST', headers: json, body: JSON.stringify({ description: 'no name' }) },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'validation_failed',
      message: expect.stringContaining('name'),
      status: 400,
    });
  });

  it('reads Deprecation and Sunset on GET /pets/{petId}', async () => {
    const res = await site.evaluate(pageFetch, {
      url: `${mock.url}/pets/10`,
      init: { headers: auth },
      read: ['Deprecation', 'Sunset'],
    });
    expect(res.status).toBe(200);
    expect(res.headers).toEqual({
      Deprecation: '@1767225600',
      Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT',
    });
  });

  it('sends a custom header through a preflight', async () => {
    const res = await site.evaluate(pageFetch, {
      url: `${mock.url}/store/orders`,
      init: { headers: { ...auth, 'X-Request-Id': 'browser-test-1' } },
    });
    expect(res.status).toBe(200);
    const preflight = await loggedRequest(
      (line) => line.method === 'OPTIONS' && line.path === '/v1/store/orders',
    );
    expect(preflight.status).toBe(204);
  });

  it('asks for a forced 500 with Prefer (through preflight) and reads its Error body', async () => {
    const res = await site.evaluate(pageFetch, {
      url: `${mock.url}/categories`,
      init: { headers: { ...auth, Prefer: 'code=500' } },
    });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      code: 'internal_server_error',
      message: expect.stringContaining('Prefer: code=500'),
      status: 500,
    });
  });

  it('sees a run-wide fault as a real frontend does: the fetch fails', async () => {
    const res = await site.evaluate(refusedFetch, {
      url: `${mock.url}/categories`,
      init: { headers: { ...auth, Prefer: 'fault=reset' } },
    });
    expect(res.status).toBe(0);
    expect(res.body).toMatch(/TypeError: Failed to fetch/);
  });
});

describe('with an allow-list of origins (--cors-origin)', () => {
  let allowed: Page;
  let other: Page;
  let mock: RunningMock;

  beforeAll(async () => {
    if (!chromiumLookup.found) return;
    [allowed, other] = await Promise.all([openSite(), openSite()]);
    ({ mock } = await startLoggedMock({ cors: { origins: [new URL(allowed.url()).origin] } }));
  });

  it('a listed origin works, credentials included', async () => {
    const res = await allowed.evaluate(pageFetch, {
      url: `${mock.url}/categories`,
      init: { headers: auth, credentials: 'include' as const },
    });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(10);
  });

  it('another origin is refused by the browser', async () => {
    const res = await other.evaluate(refusedFetch, {
      url: `${mock.url}/categories`,
      init: { headers: auth },
    });
    expect(res).toMatchObject({ status: 0, body: 'TypeError: Failed to fetch' });
  });
});

describe('with CORS off (--no-cors)', () => {
  it('the browser refuses every call, as it did before CORS (issue 7)', async () => {
    const [site, { mock }] = await Promise.all([openSite(), startLoggedMock({ cors: false })]);
    const res = await site.evaluate(refusedFetch, {
      url: `${mock.url}/categories`,
      init: { headers: auth },
    });
    expect(res).toMatchObject({ status: 0, body: 'TypeError: Failed to fetch' });
  });
});
