// petstore-kit/playwright when the page reaches the mock through the docs' Vite dev server
// (`server.proxy`: the page calls its own origin) and renders in React's StrictMode, in a real
// Playwright run with headless Chromium (issue 47, items 1 and 6): `mock.force()` must reach
// the mock whatever URL the page calls, and its default must survive StrictMode's second effect.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DISABLED_FEATURES } from './chromium.js';
import { withChromium } from './with-chromium.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const chromium = withChromium();
let dir: string | undefined;

beforeAll(async () => {
  if (!chromium.found) return;
  if (!existsSync(join(ROOT, 'dist/playwright.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  dir = await mkdtemp(join(tmpdir(), 'petstore-kit-playwright-proxy-'));
  await cp(fileURLToPath(new URL('./playwright-proxy', import.meta.url)), dir, {
    recursive: true,
  });
  const modules = join(dir, 'node_modules');
  await mkdir(modules);
  for (const name of await readdir(join(ROOT, 'node_modules')))
    if (!name.startsWith('.')) await symlink(join(ROOT, 'node_modules', name), join(modules, name));
  await symlink(ROOT, join(modules, 'petstore-kit'));
});

afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

/** Ports free right now, for the mock and the dev server the config reads from the env. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, async () => {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return server;
    }),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

function playwright(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
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
        CHROMIUM_PATH: chromium.found ? chromium.path : '',
        CHROMIUM_DISABLE_FEATURES: DISABLED_FEATURES.join(','),
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

it('forces the page’s calls through the dev server’s proxy, past StrictMode’s ignored answer', async () => {
  if (!chromium.found) return;
  const [mockPort, appPort] = await freePorts(2);
  const { code, output } = await playwright({
    MOCK_PORT: String(mockPort),
    APP_PORT: String(appPort),
  });
  expect(output).toMatch(/Running 6 tests using 1 worker/);
  expect(code, output).toBe(0);
  expect(output).toMatch(/6 passed/);
}, 240_000);
