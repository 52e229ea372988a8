// petstore-kit/playwright in a real Playwright run: three workers at once in headless
// Chromium, against one mock the config's webServer starts, then against a mock each worker's
// fixture starts. The project imports the package as a user would (a link to this checkout).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withChromium } from './with-chromium.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const chromium = withChromium();
let dir: string;

beforeAll(async () => {
  if (!chromium.found) return;
  if (!existsSync(join(ROOT, 'dist/playwright.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  dir = await mkdtemp(join(tmpdir(), 'petstore-kit-playwright-'));
  await cp(fileURLToPath(new URL('./playwright-fixture', import.meta.url)), dir, {
    recursive: true,
  });
  const modules = join(dir, 'node_modules');
  await mkdir(modules);
  for (const name of await readdir(join(ROOT, 'node_modules')))
    if (!name.startsWith('.')) await symlink(join(ROOT, 'node_modules', name), join(modules, name));
  await symlink(ROOT, join(modules, 'petstore-kit'));
});

afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function playwright(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [
      join(dir, 'node_modules/@playwright/test/cli.js'),
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
        CHROMIUM_PATH: chromium.found ? chromium.path : '',
        PETSTORE_KIT_BIN: join(ROOT, 'dist/cli/bin.js'),
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

it('three workers share the webServer’s mock, each in its own session', async () => {
  if (!chromium.found) return;
  const { code, output } = await playwright({ MOCK_PORT: String(await freePort()) });
  expect(code, output).toBe(0);
  expect(output).toMatch(/Running 6 tests using 3 workers/);
  expect(output).toMatch(/6 passed/);
  // The three adds ran on three workers, in three sessions.
  const sessions = new Set(output.match(/petstore-kit-worker-\d+ added/g));
  expect(sessions.size, output).toBe(3);
}, 180_000);

it('without a mock URL, each worker’s fixture starts a mock of its own', async () => {
  if (!chromium.found) return;
  const { code, output } = await playwright({});
  expect(code, output).toBe(0);
  expect(output).toMatch(/Running 6 tests using 3 workers/);
  expect(output).toMatch(/6 passed/);
}, 180_000);
