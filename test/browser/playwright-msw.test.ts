// petstore-kit/playwright when the mock runs in the page itself (docs/frontend.md's MSW worker in
// a Vite dev app, React's StrictMode), in a real Playwright run with headless Chromium (issue
// 47): the fixture's force, clear and reset must reach a mock no request of the fixture can.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { sharedChromiumEnv } from './shared-chromium.js';
import { withChromium } from './with-chromium.js';
import { tempFolder } from '../temp-folders.js';
import { freePorts } from '../free-port.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The Vite plugin the app's config imports, copied beside it. */
const PLUGIN = fileURLToPath(new URL('./no-dependency-source-maps.mjs', import.meta.url));
const chromium = withChromium();
let dir: string | undefined;

beforeAll(async () => {
  if (!chromium.found) return;
  if (!existsSync(join(ROOT, 'dist/playwright.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  dir = await tempFolder('playwright-msw');
  await cp(fileURLToPath(new URL('./playwright-msw', import.meta.url)), dir, {
    recursive: true,
  });
  await cp(PLUGIN, join(dir, 'no-dependency-source-maps.mjs'));
  const modules = join(dir, 'node_modules');
  await mkdir(modules);
  for (const name of await readdir(join(ROOT, 'node_modules')))
    if (!name.startsWith('.')) await symlink(join(ROOT, 'node_modules', name), join(modules, name));
  // petstore-kit as npm installs it, a folder of node_modules, not a link: Vite pre-bundles it
  // with the app's other dependencies, as for a user, where a linked package is served as the
  // app's own source (with an inline source map: three times the bytes, in every page).
  const installed = join(modules, 'petstore-kit');
  for (const part of ['package.json', 'dist', 'spec'])
    await cp(join(ROOT, part), join(installed, part), {
      recursive: true,
      filter: (source) => !source.endsWith('.map'),
    });
  // MSW's worker script in public/, as `msw init` puts it in an app.
  await promisify(execFile)(
    process.execPath,
    [join(ROOT, 'node_modules/msw/cli/index.js'), 'init', 'public', '--no-save'],
    { cwd: dir },
  );
});

async function playwright(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  // Its workers connect to this worker's Chromium rather than each launch one.
  const browser = chromium.found ? await sharedChromiumEnv(chromium.path) : {};
  const child = spawn(
    process.execPath,
    [
      join(dir!, 'node_modules/@playwright/test/cli.js'),
      'test',
      '--config',
      'playwright.config.mjs',
    ],
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        NO_COLOR: '1',
        CI: '1',
        ...browser,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

it('forces, clears and resets the mock in the page, past StrictMode’s ignored answer', async () => {
  if (!chromium.found) return;
  const [appPort] = await freePorts(1);
  const { code, output } = await playwright({ APP_PORT: String(appPort) });
  expect(output).toMatch(/Running 7 tests using 1 worker/);
  expect(code, output).toBe(0);
  expect(output).toMatch(/7 passed/);
}, 240_000);
