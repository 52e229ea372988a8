// docs/recipes.md's Playwright config, run as written (its ports aside) after the mock was
// started by hand, as its coverage recipe says (issue 47, item 4), over the StrictMode app behind
// the docs' Vite proxy (playwright-proxy/: the page calls its own origin). Playwright must use
// the mock it finds (`reuseExistingServer`); the fixture's `mock.force()` must reach the mock
// whatever URL the page calls, its default survive StrictMode's second effect (issue 47, items
// 1 and 6); and `petstore-kit coverage --run` afterwards must report what the whole run
// exercised, though the fixture reset each test's session. One Playwright run for all of it:
// each run costs a Vite server and a Chromium.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/wiring/start-mock.js';
import { runCli } from '../helpers.js';
import { readmeSnippets } from '../recipes/frontend-project.js';
import { sharedChromiumEnv } from './shared-chromium.js';
import { withChromium } from './with-chromium.js';
import { tempFolder } from '../temp-folders.js';
import { freePorts } from '../free-port.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The Vite plugin the app's config imports, copied beside it. */
const PLUGIN = fileURLToPath(new URL('./no-dependency-source-maps.mjs', import.meta.url));
const PAGE = 'docs/recipes.md';
const chromium = withChromium();
let dir: string | undefined;
let mock: RunningMock | undefined;

beforeAll(async () => {
  if (!chromium.found) return;
  if (!existsSync(join(ROOT, 'dist/playwright.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  dir = await tempFolder('docs-config');
  // The StrictMode app behind Vite's proxy (playwright-proxy/), whose tests use the fixture.
  await cp(fileURLToPath(new URL('./playwright-proxy', import.meta.url)), dir, {
    recursive: true,
  });
  await cp(PLUGIN, join(dir, 'no-dependency-source-maps.mjs'));
  const modules = join(dir, 'node_modules');
  await mkdir(join(modules, '.bin'), { recursive: true });
  for (const name of await readdir(join(ROOT, 'node_modules')))
    if (!name.startsWith('.')) await symlink(join(ROOT, 'node_modules', name), join(modules, name));
  await symlink(ROOT, join(modules, 'petstore-kit'));
  // What `npm install` links for the config's `npx vite` and `npx petstore-kit`.
  await symlink(join(ROOT, 'node_modules/vite/bin/vite.js'), join(modules, '.bin/vite'));
  await symlink(join(ROOT, 'dist/cli/bin.js'), join(modules, '.bin/petstore-kit'));
});

afterAll(async () => {
  await mock?.close();
});

/** The page's `playwright.config.ts`, on the ports given instead of 4010 and 5173. */
async function docsConfig(mockPort: number, appPort: number): Promise<string> {
  const snippet = readmeSnippets(await readFile(join(ROOT, PAGE), 'utf8'), PAGE).find(
    ({ path }) => path === 'playwright.config.ts',
  );
  if (!snippet) throw new Error(`${PAGE} shows no playwright.config.ts`);
  return snippet.code.replaceAll('4010', String(mockPort)).replaceAll('5173', String(appPort));
}

function playwright(cwd: string, env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [
      join(cwd, 'node_modules/@playwright/test/cli.js'),
      'test',
      '--config',
      'playwright.config.ts',
      // One Chromium, not the page's three: the machine is shared.
      '--workers=1',
      '--reporter=list',
      // A minute a test, not Playwright's 30 s: on a busy machine the first page waits for
      // Vite's first build.
      '--timeout=60000',
    ],
    { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env } },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, output })),
  );
}

it('uses the mock started by hand, forces it through the proxy past StrictMode, and `coverage --run` then tells the whole run', async () => {
  if (!chromium.found) return;
  const [mockPort, appPort] = await freePorts(2);
  await writeFile(join(dir!, 'playwright.config.ts'), await docsConfig(mockPort!, appPort!));
  mock = await startMock({ port: mockPort, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${mockPort}`;
  const { code, output } = await playwright(dir!, {
    NO_COLOR: '1',
    CHROMIUM_PATH: chromium.path,
    // This worker's Chromium, launched with our flags, rather than one launched by the run.
    ...(await sharedChromiumEnv(chromium.path)),
    MOCK_ORIGIN: origin,
  });
  expect(output).not.toMatch(/is already used/);
  expect(code, output).toBe(0);
  expect(output).toMatch(/Running 6 tests using 1 worker/);
  expect(output).toMatch(/6 passed/);

  // Each test's session was reset before it: the sessions hold nothing of the run any more.
  const { out, code: exit } = await runCli('coverage', '--url', origin, '--run');
  expect(exit).toBe(0);
  // The page's two calls (StrictMode) in each test, forced or answered: the error state 2 + 0,
  // cleared 0 + 2, `times: 1` 1 + 1, `times: 2` 2 + 0, `for` 2 + the 200 polled after it,
  // another test's add unseen 0 + 2.
  expect(out).toContain('  GET /v1/categories  default  7');
  expect(out).toContain('  GET /v1/categories  200  6');
}, 240_000);
