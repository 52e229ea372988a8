// docs/storybook.md's recipe, headless, as CI runs it (`npm run test:storybook`, after npm test):
// a fresh create-vite app from the registry with the docs' snippets, Storybook 10 (Vite builder),
// msw-storybook-addon 3 and MSW 2 on Node 24, its stories type-checked and built statically,
// served on the loopback address and opened in Chromium: each story renders its own mock's
// records, a record added in one story is in no other, and the forced 500 shows the error.
// Without Chromium it says what it skipped; with CI set, that fails instead.
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium, INSTALL_HINT, isCi } from '../browser/chromium.js';
import { docsAppProject, ROOT, type FrontendProject } from './frontend-project.js';
import { freshApp, packThisCheckout } from './fresh-app.js';

const STORYBOOK = ['storybook@10', '@storybook/react-vite@10', 'msw-storybook-addon@3'];
/** A minute for a story to show what it should: a first page on a busy machine is slow. */
const WAIT_MS = 60_000;

async function main(): Promise<number> {
  const lookup = findChromium(process.env);
  if (!lookup.found) {
    const missing = `Chromium not found (${lookup.why}). ${INSTALL_HINT}`;
    if (isCi(process.env)) {
      console.error(`test:storybook cannot run in CI: ${missing}`);
      return 1;
    }
    console.warn(`\nSTORYBOOK RECIPE SKIPPED: ${missing}\n`);
    return 0;
  }
  if (!existsSync(join(ROOT, 'dist/index.js')))
    throw new Error('dist/ is missing: run `npm run build` first');
  const started = Date.now();
  const work = await mkdtemp(join(tmpdir(), 'petstore-kit-storybook-'));
  try {
    const tarball = await packThisCheckout(work);
    const app = await freshApp(work, tarball, { node: 24, msw: 2, vitest: 4 }, STORYBOOK);
    const project = await docsAppProject(2, app);
    step('the app, its install and the docs’ snippets', started);
    await must(project, 'msw', ['init', 'public', '--save']);
    // The stories and the preview with the app's settings: the template's tsconfig leaves them out.
    await writeFile(
      join(project.dir, 'tsconfig.storybook.json'),
      JSON.stringify({
        extends: './tsconfig.app.json',
        compilerOptions: { tsBuildInfoFile: './node_modules/.tmp/storybook.tsbuildinfo' },
        include: ['src', '.storybook', 'stories'],
      }),
    );
    await must(project, 'tsc', ['-p', 'tsconfig.storybook.json', '--pretty', 'false']);
    step('type-checked', started);
    await must(project, 'storybook', ['build', '-o', 'storybook-static', '--quiet'], {
      STORYBOOK_DISABLE_TELEMETRY: '1',
    });
    step('built', started);
    const server = await serve(join(project.dir, 'storybook-static'));
    try {
      await checkStories(lookup.path, urlOf(server));
    } finally {
      server.close();
    }
    step('every story as the recipe says', started);
    return 0;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function step(what: string, since: number): void {
  console.log(`ok    ${what} (${((Date.now() - since) / 1000).toFixed(0)} s)`);
}

async function must(
  project: FrontendProject,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<void> {
  const { code, output } = await project.run(command, args, env);
  if (code !== 0) throw new Error(`\`${command} ${args.join(' ')}\` failed:\n${output}`);
}

/** Opens each story in its own page of one browser, and checks what it shows. */
async function checkStories(executablePath: string, base: string): Promise<void> {
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const open = async (story: string): Promise<Page> => {
      const page = await browser.newPage();
      await page.goto(`${base}/iframe.html?id=categories--${story}&viewMode=story`);
      return page;
    };
    const items = async (page: Page, count: number, story: string) => {
      const list = page.getByRole('listitem');
      await list.nth(count - 1).waitFor({ timeout: WAIT_MS });
      const shown = await list.count();
      if (shown !== count) throw new Error(`${story}: ${shown} categories shown, not ${count}`);
    };
    const added = await open('after-adding');
    await added.getByText('Ferret').waitFor({ timeout: WAIT_MS });
    await items(added, 4, 'AfterAdding');
    // In the same page, as Storybook's sidebar switches stories (no reload: the worker and any
    // mock shared between stories live on): Seeded must show its own mock's three.
    await added.evaluate(() => {
      const preview = globalThis as unknown as {
        __STORYBOOK_ADDONS_CHANNEL__: { emit(event: string, args: object): void };
      };
      preview.__STORYBOOK_ADDONS_CHANNEL__.emit('setCurrentStory', {
        storyId: 'categories--seeded',
        viewMode: 'story',
      });
    });
    await added.getByText('Ferret').waitFor({ state: 'detached', timeout: WAIT_MS });
    await items(added, 3, 'Seeded, after AfterAdding in the same page');
    await items(await open('seeded'), 3, 'Seeded');
    const failed = await open('server-error');
    const alert = failed.getByRole('alert');
    await alert.waitFor({ timeout: WAIT_MS });
    const text = await alert.innerText();
    if (!text.trim()) throw new Error('ServerError: the alert is empty');
    if ((await failed.getByRole('listitem').count()) !== 0)
      throw new Error('ServerError: categories shown beside the error');
    console.log(`ok    ServerError shows "${text.trim()}"`);
  } finally {
    await browser.close();
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/** The static Storybook on a free loopback port (a service worker needs a secure origin). */
async function serve(root: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    stat(file)
      .then((found) => {
        if (!found.isFile() || !file.startsWith(root)) throw new Error('not a file');
        res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
        createReadStream(file).pipe(res);
      })
      .catch(() => res.writeHead(404).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function urlOf(server: Server): string {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the server has no port');
  return `http://127.0.0.1:${address.port}`;
}

main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  },
);
