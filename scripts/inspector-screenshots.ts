// Screenshots of the inspector page at 1280×720, light and dark, for docs/scenarios.md and the
// closing note of issue 19: a mock with the seed data, the requests of a small app (lists,
// creates, a 400, a 401, a 404, a forced 500, a reset fault), a session, a delay set.
//
// Usage: npm run build && npx tsx scripts/inspector-screenshots.ts [folder]   (default: docs/)
// Needs Chromium (Debian's: apt-get install chromium, or CHROMIUM_PATH).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startMock } from '../src/index.js';
import { CHROMIUM_ARGS, findChromium } from '../test/browser/chromium.js';

const KEY = 'inspector-demo-key';
const folder = process.argv[2] ?? 'docs';
const found = findChromium(process.env);
if (!found.found) throw new Error(`Chromium not found: ${found.why}`);

const mock = await startMock({ apiKeys: [KEY], seedCount: 10 });
const admin = mock.url.replace(/\/v1$/, '/__mock');
try {
  const auth = { Authorization: `Bearer ${KEY}` };
  const json = { ...auth, 'Content-Type': 'application/json' };
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${mock.url}${path}`, init).then(
      (res) => res.arrayBuffer(),
      () => undefined,
    );
  await call('/categories', { headers: auth });
  await call('/categories', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name: 'Axolotl', description: 'Salamanders that never grow up' }),
  });
  await call('/store/orders', { headers: auth });
  await call('/categories', { method: 'POST', headers: json, body: '{"description":"no name"}' });
  await call('/categories');
  await call('/pets/10', { headers: auth });
  await call('/store/orders', { headers: { ...auth, Prefer: 'code=500' } });
  await call('/categories', { headers: { ...auth, Prefer: 'fault=reset' } });
  await call('/nowhere', { headers: auth });
  await call('/categories', { method: 'POST', headers: json, body: '{"name":"Quokka"}' });
  // A parallel test worker's session: the page offers a picker.
  await call('/categories', { headers: { ...auth, 'Mock-Session': 'worker-1' } });
  await fetch(`${admin}/settings`, {
    method: 'PATCH',
    headers: json,
    body: JSON.stringify({ delay: { min: 100, max: 300 } }),
  });

  const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
  await mkdir(folder, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, colorScheme });
    await page.goto(`${admin}/`);
    await page.getByLabel('API key').fill(KEY);
    await page.getByLabel('API key').press('Enter');
    await page.locator('#request-rows tr').nth(9).waitFor();
    await page.locator('#collections button').first().waitFor();
    const path = join(folder, `inspector-${colorScheme}.png`);
    await page.screenshot({ path });
    console.log(`wrote ${path}`);
    await page.close();
  }
  await browser.close();
} finally {
  await mock.close();
}
