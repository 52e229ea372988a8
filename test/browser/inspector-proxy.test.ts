// The inspector page in front of the proxy (issue 33), in headless Chromium: the requests an app
// sent through the proxy in the table, and what broke the spec listed beside them.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type RunningProxy } from '../../src/wiring/start-proxy.js';
import { categoriesTarget, TARGET_AUTH } from '../proxy-target.js';
import { sharedChromium } from './shared-chromium.js';
import { withChromium } from './with-chromium.js';

const KEY = 'inspector-proxy-key';
const chromiumLookup = withChromium();
const BUILT = fileURLToPath(new URL('../../dist/inspector/index.html', import.meta.url));
const target = categoriesTarget();

let browser: Browser;
let proxy: RunningProxy;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  if (!chromiumLookup.found) return;
  if (!existsSync(BUILT))
    throw new Error('dist/inspector is missing: run `npm run build` (npm test does)');
  await new Promise<void>((resolve) => target.server.listen(0, '127.0.0.1', resolve));
  const port = (target.server.address() as AddressInfo).port;
  proxy = await startProxy({ target: `http://127.0.0.1:${port}/api/v1`, apiKeys: [KEY] });
  browser = await sharedChromium(chromiumLookup.path);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(proxy.url.replace(/\/v1$/, '/__mock/'));
  await page.getByLabel('API key').fill(KEY);
  await page.getByLabel('API key').press('Enter');
  await page.locator('#app').waitFor();
  // Chromium starts slowly on a busy machine.
}, 60_000);

afterAll(async () => {
  await page?.close();
  await proxy?.close();
  target.server.closeAllConnections();
  await new Promise((resolve) => target.server.close(resolve));
});

/** The page polls every second: what it shows is awaited for a few seconds. */
function eventually<T>(read: () => T | Promise<T>) {
  return expect.poll(read, { timeout: 10_000 });
}

describe('the inspector page of a proxy', () => {
  it('shows no violations panel while the proxy saw none', async () => {
    const listed = await fetch(`${proxy.url}/categories`, { headers: TARGET_AUTH });
    expect(listed.status).toBe(200);
    await eventually(() => page.locator('#request-rows tr').count()).toBe(1);
    await expect(page.locator('#violations-panel').isHidden()).resolves.toBe(true);
  });

  it('lists the proxied requests and, beside them, what broke the spec', async () => {
    target.state.fault = 'missing-field';
    const listed = await fetch(`${proxy.url}/categories`, { headers: TARGET_AUTH });
    expect(listed.status).toBe(200);
    const created = await fetch(`${proxy.url}/categories`, {
      method: 'POST',
      headers: { ...TARGET_AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'no name' }),
    });
    expect(created.status).toBe(400); // the target's own answer, passed on

    await eventually(() =>
      page.$$eval('#request-rows tr', (rows) =>
        rows.map((row) => [...row.cells].slice(1, 4).map((cell) => cell.textContent ?? '')),
      ),
    ).toEqual([
      ['POST', '/v1/categories', '400'],
      ['GET', '/v1/categories', '200'],
      ['GET', '/v1/categories', '200'],
    ]);
    const panel = page.locator('#violations-panel');
    await eventually(() => panel.isVisible()).toBe(true);
    const items = panel.locator('li.violation');
    await eventually(() => items.count()).toBeGreaterThanOrEqual(2);
    const texts = await items.allTextContents();
    expect(texts.some((text) => /request.*POST \/v1\/categories.*400.*body/s.test(text))).toBe(
      true,
    );
    expect(texts.some((text) => /response.*GET \/v1\/categories.*200.*body/s.test(text))).toBe(
      true,
    );
    await expect(page.locator('#violation-count').textContent()).resolves.toMatch(/^\d+ seen$/);
  });

  it('clears them with its button, saying none were seen since', async () => {
    await page.locator('#violations-clear').click();
    await eventually(() => page.locator('li.violation').count()).toBe(0);
    await expect(page.locator('#no-violations').isVisible()).resolves.toBe(true);
    expect((await proxy.violations.list()).count).toBe(0);
    expect(errors).toEqual([]);
  });
});
