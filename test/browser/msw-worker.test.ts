// petstore-kit/msw in a browser: a dev app served by Vite, its requests answered by MSW's
// service worker (setupWorker) with the bundled spec, in headless Chromium. Nothing listens for
// /v1 at the page's origin: every answer below comes from the mock inside the page.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sharedChromium } from './shared-chromium.js';
import { withChromium } from './with-chromium.js';
import { tempFolderSync } from '../temp-folders.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const APP = fileURLToPath(new URL('./msw-worker-app/', import.meta.url));
const AUTH = { Authorization: 'Bearer page-key' };
const chromiumLookup = withChromium();

let browser: Browser;
let vite: ViteDevServer;
let page: Page;
let folder: string;
const pageErrors: string[] = [];

/** What a page's fetch() gave back, in a form that crosses from the page to the test. */
interface Answer {
  status: number;
  type: string | null;
  body: unknown;
}

/** One fetch() by the page, to a path of its own origin, as the app's code makes it. */
function call(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return page.evaluate(
    async ({ path, init }): Promise<Answer> => {
      const answer = await fetch(path, init);
      const text = await answer.text();
      return {
        status: answer.status,
        type: answer.headers.get('content-type'),
        body: text === '' ? undefined : JSON.parse(text),
      };
    },
    { path, init },
  );
}

/** The MSW the app installs: MSW 2, or MSW 3 (the `msw3` alias) in the msw3 Vitest project. */
const MSW = join(ROOT, 'node_modules', process.env.PETSTORE_KIT_MSW_MAJOR === '3' ? 'msw3' : 'msw');

/**
 * The app as a project installs it: petstore-kit (this repository, built) and msw in its
 * node_modules, MSW's worker script put in public/ by `msw init`.
 */
async function makeApp(): Promise<string> {
  const app = tempFolderSync('msw-worker');
  cpSync(APP, app, { recursive: true });
  mkdirSync(join(app, 'node_modules'));
  // petstore-kit as npm installs it, a folder, not a link: Vite pre-bundles it as for a user,
  // where a linked package is served as source with an inline source map.
  for (const part of ['package.json', 'dist', 'spec'])
    cpSync(join(ROOT, part), join(app, 'node_modules/petstore-kit', part), {
      recursive: true,
      filter: (source) => !source.endsWith('.map'),
    });
  symlinkSync(MSW, join(app, 'node_modules/msw'), 'dir');
  await promisify(execFile)(
    process.execPath,
    [join(MSW, 'cli/index.js'), 'init', 'public', '--no-save'],
    { cwd: app },
  );
  return app;
}

beforeAll(async () => {
  if (!chromiumLookup.found) return;
  if (!existsSync(join(ROOT, 'dist/bundles/msw.browser.js')))
    throw new Error('dist/bundles/msw.browser.js is missing: run `npm run build` (npm test does)');
  folder = await makeApp();
  vite = await createServer({
    root: folder,
    configFile: false,
    logLevel: 'silent',
    cacheDir: join(folder, '.vite'),
    // One msw, the app's.
    resolve: { dedupe: ['msw'] },
    server: { host: '127.0.0.1', port: 0, fs: { allow: [folder, ROOT] } },
  });
  await vite.listen();
  const url = vite.resolvedUrls?.local[0];
  if (!url) throw new Error('Vite gave no address');
  browser = await sharedChromium(chromiumLookup.path);
  page = await browser.newPage();
  const failed = new Promise<never>((_resolve, reject) =>
    page.on('pageerror', (error) => {
      pageErrors.push(error.message);
      reject(new Error(`the page failed before the mock was ready: ${error.message}`));
    }),
  );
  // An error after the mock is ready is the last test's to report.
  failed.catch(() => undefined);
  await page.goto(url);
  // The first load has Vite bundle the dependencies; a busy machine takes its time.
  await Promise.race([
    page.waitForSelector('body[data-mock="ready"]', { state: 'attached', timeout: 120_000 }),
    failed,
  ]);
}, 180_000);

afterAll(async () => {
  await page?.close();
  await vite?.close();
});

beforeEach(async () => {
  if (!chromiumLookup.found) return;
  // The page keeps its mock on `window` (msw-worker-app/src/main.js).
  await page.evaluate(() =>
    (globalThis as unknown as { mock: { reset(): Promise<void> } }).mock.reset(),
  );
});

describe('petstore-kit/msw under setupWorker, in Chromium (the bundled spec)', () => {
  it('keeps what the page creates: create, then list', async () => {
    const created = await call('/v1/categories', {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Axolotls' }),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Axolotls', id: expect.any(Number) });
    const list = await call('/v1/categories', { headers: AUTH });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(4);
    expect(list.body).toContainEqual(created.body);
  });

  it('starts each test from the seed data again (reset)', async () => {
    const list = await call('/v1/categories', { headers: AUTH });
    expect(list.body).toHaveLength(3);
  });

  it('answers a body that breaks the schema with the spec’s 400', async () => {
    const answer = await call('/v1/categories', {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'no name' }),
    });
    expect(answer.status).toBe(400);
    expect(answer.type).toMatch(/^application\/json/);
    expect(answer.body).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((answer.body as { message: string }).message).toMatch(/name/);
  });

  it('answers a request without the key with the spec’s 401', async () => {
    const answer = await call('/v1/categories');
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ status: 401, code: 'missing_credential' });
  });

  it('answers the spec’s 500 when the page asks for it (Prefer: code=500)', async () => {
    const answer = await call('/v1/categories', { headers: { ...AUTH, Prefer: 'code=500' } });
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ status: 500 });
  });

  it('ran with no error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
