// The inspector page at /__mock/ as a person uses it, in headless Chromium: the key asked for
// once, the requests of an app on another origin appearing live, one opened from the keyboard,
// a delay set and felt, a reset seen, the session picker once the mock lists sessions.
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { sharedChromium } from './shared-chromium.js';
import { withChromium } from './with-chromium.js';

const KEY = 'inspector-browser-key';
const chromiumLookup = withChromium();
const BUILT = fileURLToPath(new URL('../../dist/inspector/index.html', import.meta.url));

let browser: Browser;
const toClose: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  if (!chromiumLookup.found) return;
  if (!existsSync(BUILT))
    throw new Error('dist/inspector is missing: run `npm run build` (npm test does)');
  browser = await sharedChromium(chromiumLookup.path);
});

afterEach(async () => {
  await Promise.all(toClose.splice(0).map((close) => close()));
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  toClose.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A page of a site of its own (another origin than the mock's), as the app under test. */
async function openSite(): Promise<Page> {
  const origin = await listen((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><meta charset="utf-8"><title>An app</title>');
  });
  const page = await browser.newPage();
  toClose.push(() => page.close());
  await page.goto(`${origin}/`);
  return page;
}

/** The inspector at `url`, at 1280×720, connected with the key. */
async function openInspector(url: string, colorScheme: 'light' | 'dark' = 'light') {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, colorScheme });
  toClose.push(() => page.close());
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.clock.install();
  await page.goto(url);
  await page.getByLabel('API key').fill(KEY);
  await page.getByLabel('API key').press('Enter');
  await page.locator('#app').waitFor();
  return { page, errors };
}

/** Runs in the app's page: one fetch, its status and how long it took, as the app saw it. */
async function appFetch(arg: { url: string; init: RequestInit }) {
  const started = performance.now();
  const res = await fetch(arg.url, arg.init);
  await res.text();
  return { status: res.status, ms: performance.now() - started };
}

/** The rows of the request table as text: method, path, status. */
function rowsOf(page: Page): Promise<string[][]> {
  return page.$$eval('#request-rows tr', (rows) =>
    rows.map((row) => [...row.cells].slice(1, 4).map((cell) => cell.textContent ?? '')),
  );
}

/** Waits until the table shows these rows (method, path, status), newest first. */
async function expectRows(page: Page, rows: string[][]): Promise<void> {
  await eventually(page, () => rowsOf(page)).toEqual(rows);
}

/** The page's poll period (inspector/src/main.ts's POLL_MS). */
const POLL_MS = 1000;

/**
 * What the page shows, awaited for up to 15 s. The page's clock is Playwright's, installed before
 * it loads (time flows as it does): each read first jumps it a poll period ahead, so the poll that
 * was due a second later runs at once instead of being waited for.
 */
function eventually<T>(page: Page, read: () => T | Promise<T>) {
  return expect.poll(
    async () => {
      await page.clock.fastForward(POLL_MS);
      return read();
    },
    { timeout: 15_000, interval: 100 },
  );
}

const auth = { Authorization: `Bearer ${KEY}` };
const json = { ...auth, 'Content-Type': 'application/json' };

describe('the inspector page', () => {
  let mock: RunningMock;
  let admin: string;

  beforeEach(async () => {
    if (!chromiumLookup.found) return;
    mock = await startMock({ apiKeys: [KEY] });
    toClose.push(() => mock.close());
    admin = mock.url.replace(/\/v1$/, '/__mock');
  });

  it('asks for the key once, refuses a wrong one, and keeps it for the tab', async () => {
    const page = await browser.newPage();
    toClose.push(() => page.close());
    await page.clock.install();
    await page.goto(`${admin}/`);
    await page.getByLabel('API key').fill('not-the-key');
    await page.getByLabel('API key').press('Enter');
    await eventually(page, () => page.locator('#key-error').textContent()).toMatch(
      /^That key was refused/,
    );
    expect(await page.locator('#app').isHidden()).toBe(true);
    await page.getByLabel('API key').fill(KEY);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.locator('#app').waitFor();
    // Reloaded, the tab still has it: no second question.
    await page.reload();
    await page.locator('#app').waitFor();
    expect(await page.locator('#gate').isHidden()).toBe(true);
  });

  it('shows the app’s requests live, opens one from the keyboard, applies a delay, and resets', async () => {
    const [site, { page, errors }] = await Promise.all([openSite(), openInspector(`${admin}/`)]);
    await eventually(page, () => page.locator('#collections .count').textContent()).toBe('10');

    const sent = [
      { url: `${mock.url}/categories`, init: { headers: auth } },
      {
        url: `${mock.url}/categories`,
        init: { method: 'POST', headers: json, body: JSON.stringify({ name: 'Axolotl' }) },
      },
      {
        url: `${mock.url}/categories`,
        init: { method: 'POST', headers: json, body: JSON.stringify({ description: 'no name' }) },
      },
      // No key: a simple request (no preflight), which the mock answers 401.
      { url: `${mock.url}/categories`, init: {} },
    ];
    for (const request of sent) await site.evaluate(appFetch, request);
    await expectRows(page, [
      ['GET', '/v1/categories', '401'],
      ['POST', '/v1/categories', '400'],
      ['POST', '/v1/categories', '201'],
      ['GET', '/v1/categories', '200'],
    ]);
    // The create shows in the counts.
    await eventually(page, () => page.locator('#collections .count').textContent()).toBe('11');

    // From the filters, Tab reaches the table (one stop), the arrows move, Enter opens.
    await page.locator('#filters button[type=reset]').focus();
    await page.keyboard.press('Tab');
    // On the newest row, though older ones were the table's first rows.
    expect(await page.locator('#request-rows tr:first-child:focus').count()).toBe(1);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const dialog = page.locator('#detail');
    await dialog.locator('pre').nth(1).waitFor();
    expect(await page.locator('#detail-title').textContent()).toBe('POST /v1/categories');
    const [request, response] = await dialog.locator('section').allInnerTexts();
    expect(request).toContain('"name": "Axolotl"');
    expect(request).toMatch(/authorization\s+Bearer \*\*\*/);
    expect(response).toContain('201');
    expect(response).toContain('"id": 11');
    expect(await dialog.innerText()).not.toContain(KEY);
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(false);
    // Focus is back on the row that was opened.
    expect(await page.locator('#request-rows tr:focus').innerText()).toMatch(
      /^\S+\tPOST\t\/v1\/categories\t201\t/,
    );

    // A delay, set on the page, is felt by the app and shown in the log.
    await page.locator('#delay-min').fill('300');
    await page.locator('#delay-max').fill('300');
    await page.getByRole('button', { name: 'Apply' }).click();
    await eventually(page, () => page.locator('#settings-message').textContent()).toMatch(
      /^Applied/,
    );
    const slow = await site.evaluate(appFetch, sent[0]!);
    expect(slow.status).toBe(200);
    expect(slow.ms).toBeGreaterThanOrEqual(300);
    await eventually(page, () => page.locator('#request-rows tr').count()).toBe(5);
    const shown = await page.locator('#request-rows tr').first().locator('td').nth(4).textContent();
    expect(parseFloat(shown ?? '')).toBeGreaterThanOrEqual(300);

    // Reset, once confirmed: the start-up counts, an empty log, the start-up settings.
    page.once('dialog', (asked) => void asked.dismiss());
    await page.getByRole('button', { name: 'Reset the mock' }).click();
    expect(await rowsOf(page)).toHaveLength(5);
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.accept();
      }),
    );
    await page.getByRole('button', { name: 'Reset the mock' }).click();
    expect(await asked).toMatch(/^Reset the default state\?/);
    await eventually(page, () => page.locator('#collections .count').textContent()).toBe('10');
    await page.locator('#no-requests').waitFor();
    expect(await rowsOf(page)).toEqual([]);
    expect(await page.locator('#delay-max').inputValue()).toBe('0');
    expect(errors).toEqual([]);
  });

  it('filters the log by method, path and status, and says when a filter is not one it takes', async () => {
    const [site, { page }] = await Promise.all([openSite(), openInspector(`${admin}/`)]);
    for (const name of ['Quokka', 'Wombat'])
      await site.evaluate(appFetch, {
        url: `${mock.url}/categories`,
        init: { method: 'POST', headers: json, body: JSON.stringify({ name }) },
      });
    await site.evaluate(appFetch, { url: `${mock.url}/pets/10`, init: { headers: auth } });
    await site.evaluate(appFetch, { url: `${mock.url}/categories`, init: {} });
    await eventually(page, () => page.locator('#request-rows tr').count()).toBe(4);
    await page.getByLabel('Method').selectOption('POST');
    await expectRows(page, [
      ['POST', '/v1/categories', '201'],
      ['POST', '/v1/categories', '201'],
    ]);
    await page.getByLabel('Method').selectOption('');
    await page.getByLabel('Status').fill('4xx');
    await expectRows(page, [['GET', '/v1/categories', '401']]);
    await page.getByLabel('Status').fill('');
    await page.getByLabel('Path').fill('/v1/pets/*');
    await expectRows(page, [['GET', '/v1/pets/10', '200']]);
    await page.getByLabel('Status').fill('abc');
    await eventually(page, () => page.locator('#filter-error').textContent()).toBe(
      'Status takes one status, such as 201, or a class of them, such as 4xx: “abc” is not one.',
    );
    // No count of an earlier filter stays beside it.
    expect(await page.locator('#request-count').textContent()).toBe('');
  });

  it('is readable in light and dark, by the system’s choice or the toggle', async () => {
    const background = (page: Page) =>
      page
        .locator('body')
        .evaluate((body) => body.ownerDocument.defaultView.getComputedStyle(body).backgroundColor);
    const luminance = (rgb: string) => {
      const [r = 0, g = 0, b = 0] = rgb.match(/\d+/g)!.map(Number);
      return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    };
    const { page: light } = await openInspector(`${admin}/`, 'light');
    const { page: dark } = await openInspector(`${admin}/`, 'dark');
    expect(luminance(await background(light))).toBeGreaterThan(0.8);
    expect(luminance(await background(dark))).toBeLessThan(0.2);
    // The toggle goes from the system's choice to light, then dark.
    const toggle = light.getByRole('button', { name: /^Theme/ });
    await toggle.click();
    expect(await toggle.textContent()).toBe('Theme: light');
    await toggle.click();
    expect(await toggle.textContent()).toBe('Theme: dark');
    expect(luminance(await background(light))).toBeLessThan(0.2);
  });
});

describe('the session picker', () => {
  it('appears once the mock has sessions, and shows the requests, records and reset of the one picked', async () => {
    const mock = await startMock({ apiKeys: [KEY] });
    toClose.push(() => mock.close());
    const site = await openSite();
    const worker = { ...json, 'Mock-Session': 'worker-1' };
    await site.evaluate(appFetch, {
      url: `${mock.url}/categories`,
      init: { method: 'POST', headers: worker, body: JSON.stringify({ name: 'Quokka' }) },
    });
    await site.evaluate(appFetch, { url: `${mock.url}/categories`, init: { headers: auth } });

    const { page, errors } = await openInspector(`${mock.url.replace(/\/v1$/, '/__mock')}/`);
    // Its name is its label's text and the option shown: `Session default`.
    const picker = page.getByRole('combobox', { name: /^Session/ });
    await picker.waitFor();
    expect(await picker.locator('option').allTextContents()).toEqual(['default', 'worker-1']);
    await expectRows(page, [['GET', '/v1/categories', '200']]);
    await eventually(page, () => page.locator('#collections .count').textContent()).toBe('10');

    await picker.selectOption('worker-1');
    await expectRows(page, [['POST', '/v1/categories', '201']]);
    expect(await page.locator('#request-rows td.session').allTextContents()).toEqual(['worker-1']);
    await eventually(page, () => page.locator('#collections .count').textContent()).toBe('11');
    // The row opens from the session's own log.
    await page.locator('#request-rows tr').first().click();
    await page.locator('#detail pre').first().waitFor();
    expect(await page.locator('#detail').innerText()).toContain('"name": "Quokka"');
    await page.keyboard.press('Escape');

    // Reset with the session picked resets that session only, and says so first.
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.accept();
      }),
    );
    await page.getByRole('button', { name: 'Reset session worker-1' }).click();
    expect(await asked).toMatch(/^Reset session “worker-1”\?/);
    await eventually(page, () => page.locator('#collections .count').textContent()).toBe('10');
    await page.locator('#no-requests').waitFor();
    await picker.selectOption('');
    await expectRows(page, [['GET', '/v1/categories', '200']]);
    expect(errors).toEqual([]);
  });

  it('shows the session picked, not the answer about the one before that came back after', async () => {
    const mock = await startMock({ apiKeys: [KEY] });
    toClose.push(() => mock.close());
    const site = await openSite();
    const worker = { ...json, 'Mock-Session': 'worker-1' };
    await site.evaluate(appFetch, {
      url: `${mock.url}/categories`,
      init: { method: 'POST', headers: worker, body: JSON.stringify({ name: 'Quokka' }) },
    });
    await site.evaluate(appFetch, { url: `${mock.url}/categories`, init: { headers: auth } });
    const { page } = await openInspector(`${mock.url.replace(/\/v1$/, '/__mock')}/`);
    const picker = page.getByRole('combobox', { name: /^Session/ });
    await picker.waitFor();
    await expectRows(page, [['GET', '/v1/categories', '200']]);
    // The default state's poll under way when worker-1 is picked comes back after the pick and
    // before worker-1's first answer, with the same id (each session numbers its own log).
    let defaultAsked!: () => void;
    const underWay = new Promise<void>((resolve) => (defaultAsked = resolve));
    let picked!: () => void;
    const pickMade = new Promise<void>((resolve) => (picked = resolve));
    let defaultAnswered!: () => void;
    const defaultBack = new Promise<void>((resolve) => (defaultAnswered = resolve));
    await page.route('**/__mock/requests?*', async (route) => {
      if (route.request().headers()['mock-session'] === undefined) {
        defaultAsked();
        await pickMade;
        await route.continue();
        // Its whole answer is back in the page before worker-1's request leaves.
        await (await route.request().response())?.finished();
        defaultAnswered();
        return;
      }
      await defaultBack;
      await route.continue();
    });
    await page.clock.fastForward(POLL_MS);
    await underWay;
    await picker.selectOption('worker-1');
    picked();
    await expectRows(page, [['POST', '/v1/categories', '201']]);
  });

  it('stays hidden while the mock has no sessions', async () => {
    const mock = await startMock({ apiKeys: [KEY] });
    toClose.push(() => mock.close());
    const { page } = await openInspector(`${mock.url.replace(/\/v1$/, '/__mock')}/`);
    await eventually(page, () => page.locator('#collections .count').textContent()).toBe('10');
    expect(await page.locator('#session-picker').isHidden()).toBe(true);
  });
});
