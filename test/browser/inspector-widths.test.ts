// The inspector page at three widths in Chromium (issue 32): a laptop's 1024 px, a narrow
// window's 800 px and a phone's 390 px. At each, the path of a request reads whole, columns
// nobody fills give way, no panel overlaps another and nothing scrolls sideways; a screenshot
// of each is kept for a person to look at in the folder PETSTORE_KIT_SCREENSHOTS names (else
// written to a temporary folder, removed when the file ends).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { sharedChromium } from './shared-chromium.js';
import { withChromium } from './with-chromium.js';
import { tempFolderSync } from '../temp-folders.js';

const KEY = 'inspector-widths-key';
const chromiumLookup = withChromium();
const BUILT = fileURLToPath(new URL('../../dist/inspector/index.html', import.meta.url));
const SHOTS = process.env.PETSTORE_KIT_SCREENSHOTS ?? tempFolderSync('inspector');
/** A path as long as a real one: a collection, an id and a query. */
const LONG_PATH = '/v1/categories?limit=20&offset=40&sort=name';

let browser: Browser;
let mock: RunningMock;

beforeAll(async () => {
  if (!chromiumLookup.found) return;
  if (!existsSync(BUILT))
    throw new Error('dist/inspector is missing: run `npm run build` (npm test does)');
  mock = await startMock({ apiKeys: [KEY] });
  const auth = { Authorization: `Bearer ${KEY}` };
  await fetch(`${mock.url}/categories`, { headers: auth });
  await fetch(`${mock.url}${LONG_PATH.slice(3)}`, { headers: auth });
  browser = await sharedChromium(chromiumLookup.path);
  // Chromium starts slowly on a busy machine.
}, 60_000);

afterAll(async () => {
  await mock?.close();
});

// The widths at once: each its own page over the same log, which only the beforeAll writes.
describe.concurrent.each([
  { width: 1024, height: 768 },
  { width: 800, height: 900 },
  { width: 390, height: 844 },
])('the inspector at $width px', ({ width, height }) => {
  it('shows every path whole, overlaps nothing and scrolls no sideways', async ({ expect }) => {
    const page = await browser.newPage({ viewport: { width, height } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${mock.url.replace(/\/v1$/, '/__mock')}/`);
    await page.getByLabel('API key').fill(KEY);
    await page.getByLabel('API key').press('Enter');
    await expect.poll(() => page.locator('#request-rows tr').count(), { timeout: 10_000 }).toBe(2);

    // Each path cell holds its whole text: nothing cut to an ellipsis.
    const cut = await page.$$eval('#request-rows td.path', (cells) =>
      cells.filter((cell) => cell.scrollWidth > cell.clientWidth).map((cell) => cell.textContent),
    );
    expect(cut).toEqual([]);
    // No session and no fault in the log: their columns give their room to the path.
    expect(await page.locator('table.log th', { hasText: 'Session' }).isVisible()).toBe(false);
    expect(await page.locator('table.log th', { hasText: 'Fault' }).isVisible()).toBe(false);
    // Nothing wider than the window.
    const overflow = await page
      .locator('html')
      .evaluate((html) => html.scrollWidth - html.ownerDocument.defaultView!.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The requests and the side panels side by side or one above the other, never on each other.
    const requests = await page.locator('section.requests').boundingBox();
    const side = await page.locator('aside.side').boundingBox();
    expect(requests && side).toBeTruthy();
    const apart =
      requests!.x + requests!.width <= side!.x || requests!.y + requests!.height <= side!.y;
    expect(apart).toBe(true);

    await page.screenshot({ path: join(SHOTS, `inspector-${width}.png`), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });
});
