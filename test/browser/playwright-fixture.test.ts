// petstore-kit/playwright in a real Playwright run: two workers at once in headless Chromium,
// against one mock the config's webServer starts (project "shared"), then against a mock each
// worker's fixture starts (project "own"). One run for both projects: a run and each of its
// workers cost a Chromium launch. The project imports the package as a user would (a link to
// this checkout).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, it } from 'vitest';
import { sharedChromiumEnv } from './shared-chromium.js';
import { withChromium } from './with-chromium.js';
import { tempFolder } from '../temp-folders.js';
import { freePort } from '../free-port.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const chromium = withChromium();
let dir: string;

beforeAll(async () => {
  if (!chromium.found) return;
  if (!existsSync(join(ROOT, 'dist/playwright.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  dir = await tempFolder('playwright');
  await cp(fileURLToPath(new URL('./playwright-fixture', import.meta.url)), dir, {
    recursive: true,
  });
  const modules = join(dir, 'node_modules');
  await mkdir(modules);
  for (const name of await readdir(join(ROOT, 'node_modules')))
    if (!name.startsWith('.')) await symlink(join(ROOT, 'node_modules', name), join(modules, name));
  await symlink(ROOT, join(modules, 'petstore-kit'));
});

async function playwright(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  // Its workers connect to this worker's Chromium rather than each launch one.
  const browser = chromium.found ? await sharedChromiumEnv(chromium.path) : {};
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
        PETSTORE_KIT_BIN: join(ROOT, 'dist/cli/bin.js'),
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

/** One add as the spec logs it: project, worker, session, the mock's URL and the name. */
interface Add {
  project: string;
  worker: string;
  session: string;
  url: string;
  name: string;
}

function addsOf(output: string, project: string): Add[] {
  const lines = output.matchAll(/^\[(\w+)\] worker (\d+) (\S+) at (\S+) added (\w+)$/gm);
  return [...lines]
    .map(([, p, worker, session, url, name]) => ({
      project: p!,
      worker: worker!,
      session: session!,
      url: url!,
      name: name!,
    }))
    .filter((add) => add.project === project);
}

let run: { code: number | null; output: string; mockUrl: string } | undefined;

beforeAll(async () => {
  if (!chromium.found) return;
  const port = await freePort();
  const result = await playwright({ MOCK_PORT: String(port) });
  run = { ...result, mockUrl: `http://127.0.0.1:${port}/v1` };
  expect(result.code, result.output).toBe(0);
  expect(result.output).toMatch(/Running 14 tests using 2 workers/);
  expect(result.output).toMatch(/14 passed/);
}, 240_000);

it('two workers share the webServer’s mock, each in its own session', () => {
  if (!chromium.found) return;
  const { output, mockUrl } = run!;
  const adds = addsOf(output, 'shared');
  expect(adds.map((add) => add.name).sort(), output).toEqual(['Axolotl', 'Capybara', 'Dugong']);
  expect(new Set(adds.map((add) => add.url)), output).toEqual(new Set([mockUrl]));
  // The three adds ran on two workers, in two sessions.
  expect(new Set(adds.map((add) => add.session)).size, output).toBe(2);
  for (const add of adds) expect(add.session).toBe(`petstore-kit-worker-${add.worker}`);
});

it('without a mock URL, each worker’s fixture starts a mock of its own', () => {
  if (!chromium.found) return;
  const { output, mockUrl } = run!;
  const adds = addsOf(output, 'own');
  expect(adds.map((add) => add.name).sort(), output).toEqual(['Axolotl', 'Capybara', 'Dugong']);
  expect(
    adds.filter((add) => add.url === mockUrl),
    output,
  ).toEqual([]);
  // A mock to each worker: as many mocks as workers, and a worker keeps its own.
  const workers = new Set(adds.map((add) => add.worker));
  expect(new Set(adds.map((add) => add.url)).size, output).toBe(workers.size);
  for (const worker of workers)
    expect(new Set(adds.filter((add) => add.worker === worker).map((add) => add.url)).size).toBe(1);
});
