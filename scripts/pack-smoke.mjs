#!/usr/bin/env node
/* global process, fetch, setTimeout, clearTimeout, performance, URL */
// petstore-kit as a frontend project gets it: `npm pack` (which builds, on prepack), the
// tarball installed into a fresh create-vite react-ts app, and everything run from there with
// no build step: MSW's handlers under Vitest (MSW 3 on Node >= 22.12, MSW 2 before), `npx petstore-kit mock`, `npx petstore-kit contract`, the library's startMock and
// its types, petstore-kit/express, the spec files through `exports`, and types generated from
// the installed spec as docs/recipes.md says. It checks the package is publishable and that its
// dependencies are what its shipped code imports, and prints what the install adds to the app,
// failing (after every other step) above the target of issue 47. Plain Node, so that it needs
// nothing the package does not ship. Exits 1, naming the step, on the first failure, and keeps
// the temporary folder to look into.
//
// Usage: node scripts/pack-smoke.mjs [--tarball petstore-kit-0.1.0.tgz]
//   (npm run test:pack; .ci/run packs once and runs it on each Node version with --tarball)
import { spawn } from 'node:child_process';
import { builtinModules } from 'node:module';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const DEFAULT_KEY = 'petstore-kit-dev-key';
// Offline-friendly: what the npm cache holds is not fetched again.
const INSTALL_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund'];
const MUST_SHIP = [
  'LICENSE',
  'README.md',
  'dist/index.js',
  'dist/index.d.ts',
  'dist/express.js',
  'dist/express.d.ts',
  'dist/cli/bin.js',
  'spec/openapi.yaml',
  'spec/admin.yaml',
  'dist/inspector/index.html',
  'dist/inspector/main.js',
  'dist/contract-tests/suite.js',
  'dist/contract-tests/rules/credentials.js',
];
/** The licence of the spec the package serves (spec/openapi.yaml, info.license). */
const LICENSE = 'Apache-2.0';
// contract-tests/ runs compiled from dist/contract-tests/ (src/cli/contract-suite.ts).
const MUST_NOT_SHIP = [
  /\.map$/,
  /^src\//,
  /^test\//,
  /node_modules\//,
  /^scripts\//,
  /^contract-tests\//,
];

/**
 * The most a user's `npm i -D petstore-kit` may add to a fresh Vite app (issue 47): packages
 * as npm counts them, megabytes of node_modules.
 */
const INSTALL_TARGET = { packages: 40, megabytes: 25 };

/**
 * `npm create vite@latest -- --template react-ts` (create-vite 9.3.0, 6 Dec 2026): the app
 * the install is measured in. Pinned, so the figure moves only when petstore-kit does.
 */
const VITE_APP = {
  name: 'frontend-app',
  private: true,
  version: '0.0.0',
  type: 'module',
  dependencies: { react: '^19.3.1', 'react-dom': '^19.3.1' },
  devDependencies: {
    '@types/node': '^24.19.2',
    '@types/react': '^19.3.0',
    '@types/react-dom': '^19.3.0',
    '@vitejs/plugin-react': '^6.1.2',
    oxlint: '^1.88.0',
    typescript: '~7.0.2',
    vite: '^8.3.4',
  },
};

/** Raised by a step; its message is what the reader needs, output included. */
class StepFailure extends Error {}

const timings = [];

async function step(name, action) {
  const started = performance.now();
  const result = await action();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  timings.push({ name, seconds });
  process.stdout.write(`ok    ${name} (${seconds} s)\n`);
  return result;
}

/** Runs a command to its end; a non-zero exit fails, showing what it printed. */
function run(command, args, { cwd, env = {}, timeoutMs = 180_000 }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const shown = `${command} ${args.join(' ')}`;
      if (code === 0) resolve(output);
      else
        reject(
          new StepFailure(`\`${shown}\` ended with ${signal ?? `exit code ${code}`}:\n${output}`),
        );
    });
  });
}

/**
 * Starts `npx petstore-kit mock --port 0` in its own process group (npx runs the bin under
 * a shell), and resolves with its URL once it says where it listens.
 */
function startMockCli(cwd) {
  const child = spawn('npx', ['--no', 'petstore-kit', 'mock', '--port', '0', '--quiet'], {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGTERM');
  };
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new StepFailure(`no URL within 30 s:\n${output}`)),
      30_000,
    );
    const onOutput = (chunk) => {
      output += chunk;
      const found = /listening on (http:\/\/\S+?)["\s)]/.exec(output)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new StepFailure(`the mock exited with ${code}:\n${output}`));
    });
  });
  return { url, stop };
}

async function expectCategoryList(url, key) {
  const res = await fetch(`${url}/categories`, { headers: { Authorization: `Bearer ${key}` } });
  const body = await res.json();
  if (res.status !== 200 || !Array.isArray(body)) {
    throw new StepFailure(`GET ${url}/categories: ${res.status} ${JSON.stringify(body)}`);
  }
  return body;
}

async function expectInspectorPage(url) {
  const res = await fetch(url);
  const text = await res.text();
  if (res.status !== 200 || !text.includes('API key')) {
    throw new StepFailure(`GET ${url}: ${res.status} ${text.slice(0, 200)}`);
  }
}

/** A module of the frontend project that uses the library as docs/recipes.md shows. */
const CONSUMER_MJS = `import { startMock } from 'petstore-kit';
const mock = await startMock({ apiKeys: ['k'] });
const headers = { Authorization: 'Bearer k', 'Content-Type': 'application/json' };
const created = await fetch(mock.url + '/categories', { method: 'POST', headers, body: '{"name":"Ferret"}' });
const before = await (await fetch(mock.url + '/categories', { headers })).json();
await mock.mock.reset();
const after = await (await fetch(mock.url + '/categories', { headers })).json();
await mock.close();
if (created.status !== 201 || before.length !== 11 || after.length !== 10) {
  console.error('startMock misbehaved', created.status, before.length, after.length);
  process.exit(1);
}
console.log('startMock answered at ' + mock.url + ': created 201, 11 categories, 10 after reset()');
`;

/**
 * The spec files through \`exports\`, and the express entry mounted in a plain Node server (as
 * connect and express call it): express is an optional peer, not installed here.
 */
const CONSUMER_EXPORTS_MJS = `import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { mockMiddleware } from 'petstore-kit/express';
const require = createRequire(import.meta.url);
for (const file of ['openapi.yaml', 'admin.yaml']) {
  const path = require.resolve('petstore-kit/spec/' + file);
  if (!readFileSync(path, 'utf8').startsWith('openapi:')) throw new Error(path + ' is not a spec');
  if (import.meta.resolve('petstore-kit/spec/' + file) !== 'file://' + path) throw new Error(file);
}
const mock = await mockMiddleware({ apiKeys: ['k'] });
const server = createServer((req, res) => mock(req, res, () => res.writeHead(418).end('mine')));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = 'http://127.0.0.1:' + server.address().port;
const list = await fetch(origin + mock.mock.basePath + '/categories', { headers: { Authorization: 'Bearer k' } });
const other = await fetch(origin + '/elsewhere');
server.close();
await mock.close();
if (list.status !== 200 || other.status !== 418) {
  console.error('petstore-kit/express misbehaved', list.status, other.status);
  process.exit(1);
}
console.log('spec files resolved through exports; petstore-kit/express answered ' + mock.mock.basePath + '/categories 200 and passed /elsewhere on');
`;

/** Typed use of the library; the expected error proves the types are not \`any\`. */
const CONSUMER_TS = `import { createApp, loadSpec, startMock, type RunningMock } from 'petstore-kit';
import { mockMiddleware, type MockMiddleware } from 'petstore-kit/express';
import type { components } from './petstore-api.js';
const mock: RunningMock = await startMock({ apiKeys: ['k'], cors: { origins: ['http://localhost:5173'] } });
const url: string = mock.url;
// @ts-expect-error: a port is a number
await startMock({ port: '4010' });
const app = createApp({ spec: await loadSpec(), apiKeys: ['k'] });
const base: string = app.mock.basePath;
// @ts-expect-error: the app has no such method (were its types missing, app would be any)
app.noSuchMethod();
await mock.mock.reset();
await mock.close();
const middleware: MockMiddleware = await mockMiddleware({ apiKeys: ['k'] });
const basePath: string = middleware.mock.basePath;
await middleware.close();
// Types generated from the installed spec, as docs/recipes.md says.
const category: components['schemas']['Category'] = { id: 1, name: 'Dog' };
// @ts-expect-error: name is required
const nameless: components['schemas']['NewCategory'] = { description: 'x' };
export { url, base, basePath, category, nameless };
`;

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** The packages a file imports or requires (bare specifiers, node: built-ins left out). */
function importedPackages(text) {
  const found = new Set();
  // from '...', import('...'), import '...', require('...'), createRequire(...)('...')
  const specifiers =
    /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+|\brequire\s*\(\s*|\bcreateRequire\([^)]*\)\s*\(\s*)['"]([^'"./][^'"]*)['"]/gm;
  // A package name (npm's rules: lower case, no spaces): text a bundled library keeps in a
  // string (`id: "sql-delete-from",` in fast-xml-parser's is-unsafe) is none.
  const packageName = /^(?:@[a-z0-9~][\w.~-]*\/)?[a-z0-9~][\w.~-]*(?:\/[^\s'"]*)?$/;
  for (const [, specifier] of text.matchAll(specifiers)) {
    if (!packageName.test(specifier)) continue;
    if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
    const parts = specifier.split('/');
    found.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return found;
}

/**
 * The installed package's dependencies are exactly what its shipped code imports: none
 * missing (a user would get ERR_MODULE_NOT_FOUND), none unused (a user would install it for
 * nothing; test-only packages belong in devDependencies).
 */
async function checkDependencies(installed) {
  const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
  // Its own files: in an app, its dependencies that clash with the app's are nested below it.
  const shipped = (await filesUnder(installed)).filter(
    (file) => /\.(m?js|ts)$/.test(file) && !file.startsWith('node_modules/'),
  );
  const imported = new Set();
  for (const file of shipped) {
    for (const name of importedPackages(await readFile(join(installed, file), 'utf8')))
      imported.add(name);
  }
  imported.delete(manifest.name);
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const missing = [...imported].filter((name) => !declared.has(name));
  // A dependency no shipped file imports may still be another dependency's peer: that one is used.
  const peersOfDependencies = new Set();
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const found = [join(installed, 'node_modules', name), join(installed, '..', name)];
    for (const folder of found) {
      const text = await readFile(join(folder, 'package.json'), 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      for (const peer of Object.keys(JSON.parse(text).peerDependencies ?? {}))
        peersOfDependencies.add(peer);
      break;
    }
  }
  const unused = Object.keys(manifest.dependencies ?? {}).filter(
    (name) => !imported.has(name) && !peersOfDependencies.has(name),
  );
  const problems = [
    manifest.private ? 'it is private: npm refuses to publish it' : '',
    manifest.license === LICENSE ? '' : `its licence is ${manifest.license}, not ${LICENSE}`,
    missing.length ? `imported but not dependencies: ${missing.join(', ')}` : '',
    unused.length ? `dependencies nothing shipped imports: ${unused.join(', ')}` : '',
  ].filter(Boolean);
  if (problems.length) throw new StepFailure(problems.join('; '));
  return Object.keys(manifest.dependencies ?? {}).length;
}

/** The size of the project's node_modules on disk, in kilobytes (du -sk). */
async function nodeModulesKb(project) {
  const [kb] = (await run('du', ['-sk', 'node_modules'], { cwd: project })).split('\t');
  return Number(kb);
}

/**
 * What installing the tarball added to the app: packages (as npm counts them, its output),
 * megabytes of node_modules (du, after less before).
 */
function addedWeight(installOutput, kbBefore, kbAfter) {
  const added = /added (\d+) packages?/.exec(installOutput)?.[1];
  if (added === undefined)
    throw new StepFailure(`npm said no "added N packages":\n${installOutput}`);
  return { packages: Number(added), megabytes: (kbAfter - kbBefore) / 1024 };
}

/** The version of a package the repository's own lockfile has (what its tests ran with). */
async function lockedVersion(path) {
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8'));
  const version = lock.packages[`node_modules/${path}`]?.version;
  if (!version) throw new StepFailure(`package-lock.json has no node_modules/${path}`);
  return version;
}

/** Vitest 5, which MSW 3 goes with (Vitest 4's mocker accepts MSW 2 only), pinned. */
const VITEST_5 = '5.1.2';

/**
 * The MSW and Vitest a user on this Node has: MSW 3 and Vitest 5 from Node 22.12 (their
 * engines), MSW 2 and Vitest 4 before; MSW versions and Vitest 4 as the repository tests them.
 */
async function mswAndVitest() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12)
    ? { msw: await lockedVersion('msw3'), vitest: VITEST_5 }
    : { msw: await lockedVersion('msw'), vitest: await lockedVersion('vitest') };
}

/** A Vitest file of the app: the mock's MSW handlers under setupServer, state kept, reset. */
const MSW_VITEST_TEST = `import { setupServer } from 'msw/node';
import { mockHandlers } from 'petstore-kit/msw';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';

const mock = await mockHandlers({ apiKeys: ['k'], origin: 'http://api.test' });
const server = setupServer(...mock.handlers);
// Both names: MSW 3 renamed onUnhandledRequest to onUnhandledFrame.
beforeAll(() => server.listen({ onUnhandledRequest: 'error', onUnhandledFrame: 'error' }));
beforeEach(() => mock.mock.reset());
afterAll(() => server.close());

it('keeps what a test creates, until reset', async () => {
  const headers = { Authorization: 'Bearer k', 'Content-Type': 'application/json' };
  const created = await fetch('http://api.test/v1/categories', { method: 'POST', headers, body: '{"name":"Ferret"}' });
  expect(created.status).toBe(201);
  const list = await (await fetch('http://api.test/v1/categories', { headers })).json();
  expect(list).toContainEqual(await created.json());
});
`;

/** The tarball to test: --tarball <file>, else undefined (npm pack makes one). */
function givenTarball(argv) {
  const at = argv.indexOf('--tarball');
  return at === -1 ? undefined : argv[at + 1];
}

async function main() {
  const work = await mkdtemp(join(tmpdir(), 'petstore-kit-pack-'));
  const project = join(work, 'frontend-app');
  let mock;
  process.stdout.write(`pack smoke test in ${work}\n`);
  try {
    const given = givenTarball(process.argv);
    process.stdout.write(`      Node ${process.versions.node}\n`);
    const tarball = await step(
      given ? `the tarball ${given}` : 'npm pack (builds on prepack)',
      async () => {
        if (given) return given;
        await run('npm', ['pack', '--pack-destination', work], { cwd: ROOT });
        const name = (await readdir(work)).find((file) => file.endsWith('.tgz'));
        if (!name) throw new StepFailure(`npm pack wrote no tarball into ${work}`);
        return join(work, name);
      },
    );

    await step('the tarball ships dist and spec, and nothing else', async () => {
      const files = (await run('tar', ['-tzf', tarball], { cwd: work }))
        .split('\n')
        .filter(Boolean)
        .map((file) => file.replace(/^package\//, ''));
      const missing = MUST_SHIP.filter((wanted) =>
        typeof wanted === 'string' ? !files.includes(wanted) : !files.some((f) => wanted.test(f)),
      );
      const extra = files.filter((file) => MUST_NOT_SHIP.some((pattern) => pattern.test(file)));
      if (missing.length || extra.length) {
        throw new StepFailure(
          `missing: ${missing.join(', ') || '-'}; unwanted: ${extra.join(', ') || '-'}`,
        );
      }
    });

    const kbBefore = await step('a fresh create-vite react-ts app, installed', async () => {
      await mkdir(project);
      await writeFile(join(project, 'package.json'), JSON.stringify(VITE_APP, null, 2));
      await run('npm', ['install', ...INSTALL_FLAGS], { cwd: project });
      return nodeModulesKb(project);
    });

    const installed = await step('npm i -D <tarball> into the app', () =>
      run('npm', ['install', '-D', tarball, ...INSTALL_FLAGS], { cwd: project }),
    );

    const weight = addedWeight(installed, kbBefore, await nodeModulesKb(project));
    process.stdout.write(
      `      npm i -D <tarball> added ${weight.packages} packages and ${weight.megabytes.toFixed(1)} MB ` +
        `to the app (target: under ${INSTALL_TARGET.packages} packages and ${INSTALL_TARGET.megabytes} MB)\n`,
    );

    await step("npm ls: the app's tree is valid (no missing or invalid peer)", () =>
      run('npm', ['ls', '--all'], { cwd: project }).then(() => undefined),
    );

    await step(
      `publishable, ${LICENSE}, its dependencies exactly what its shipped code imports`,
      async () => {
        const count = await checkDependencies(join(project, 'node_modules/petstore-kit'));
        await run('npm', ['publish', '--dry-run', tarball], { cwd: work });
        process.stdout.write(
          `      ${count} dependencies, each imported; npm publish --dry-run accepts it\n`,
        );
      },
    );

    const url = await step('npx petstore-kit mock --port 0 starts and prints its URL', () => {
      mock = startMockCli(project);
      return mock.url;
    });

    await step(`GET ${url}/categories with the default key: 200 and a list`, () =>
      expectCategoryList(url, DEFAULT_KEY),
    );

    await step(
      `GET ${new URL('/__mock/', url)}: the inspector page, from the installed package`,
      () => expectInspectorPage(new URL('/__mock/', url).href),
    );

    await step('npx petstore-kit contract against it: exit 0 (conforms)', () =>
      run('npx', ['--no', 'petstore-kit', 'contract', '--base-url', url], {
        cwd: project,
        env: { API_KEY: DEFAULT_KEY },
      }),
    );

    await step("import('petstore-kit'): startMock answers, reset() and close() work", async () => {
      await writeFile(join(project, 'consumer.mjs'), CONSUMER_MJS);
      process.stdout.write(
        `      ${(await run('node', ['consumer.mjs'], { cwd: project })).trim()}\n`,
      );
    });

    await step(
      'the spec files resolve through exports; petstore-kit/express serves behind a plain server',
      async () => {
        await writeFile(join(project, 'exports.mjs'), CONSUMER_EXPORTS_MJS);
        process.stdout.write(
          `      ${(await run('node', ['exports.mjs'], { cwd: project })).trim()}\n`,
        );
      },
    );

    await step('without ioredis, --redis says to npm i ioredis', async () => {
      const refused = await run(
        'npx',
        ['--no', 'petstore-kit', 'mock', '--port', '0', '--redis', 'redis://127.0.0.1:1'],
        { cwd: project },
      ).then(
        (output) => new StepFailure(`it started:\n${output}`),
        (failure) => failure,
      );
      if (!String(refused.message).includes('npm i ioredis'))
        throw new StepFailure(refused.message);
    });

    await step(
      'without pino-pretty, --log-format pretty says to npm i -D pino-pretty',
      async () => {
        const refused = await run(
          'npx',
          ['--no', 'petstore-kit', 'mock', '--port', '0', '--log-format', 'pretty'],
          { cwd: project, timeoutMs: 30_000 },
        ).then(
          (output) => new StepFailure(`it started:\n${output}`),
          (failure) => failure,
        );
        if (!String(refused.message).includes('npm i -D pino-pretty'))
          throw new StepFailure(refused.message);
      },
    );

    await step('petstore-kit types --spec node_modules/petstore-kit/spec/openapi.yaml', () =>
      run(
        'node',
        [
          'node_modules/petstore-kit/dist/cli/bin.js',
          'types',
          '--spec',
          'node_modules/petstore-kit/spec/openapi.yaml',
          '-o',
          'petstore-api.ts',
        ],
        { cwd: project },
      ),
    );

    await step(
      'the exported and generated types check in a strict TypeScript project',
      async () => {
        await writeFile(join(project, 'consumer.ts'), CONSUMER_TS);
        await run(
          'node',
          // skipLibCheck, as most projects have it: checking every .d.ts installed takes half a minute.
          [
            TSC,
            '--noEmit',
            '--strict',
            '--skipLibCheck',
            '--module',
            'nodenext',
            '--target',
            'es2022',
            'consumer.ts',
          ],
          { cwd: project },
        );
      },
    );
    // Last but the weight: MSW and Vitest change the app's node_modules.
    const { msw, vitest } = await mswAndVitest();
    await step(
      `MSW in Vitest: the handlers under setupServer (msw@${msw}, vitest@${vitest})`,
      async () => {
        await run('npm', ['install', '-D', `msw@${msw}`, `vitest@${vitest}`, ...INSTALL_FLAGS], {
          cwd: project,
        });
        await writeFile(join(project, 'msw.test.js'), MSW_VITEST_TEST);
        const output = await run('npx', ['--no', 'vitest', 'run', 'msw.test.js'], { cwd: project });
        if (!/1 passed/.test(output)) throw new StepFailure(`no test passed:\n${output}`);
        // As a user's next `npm install` would see it: no invalid or missing peer.
        await run('npm', ['ls', '--all'], { cwd: project });
      },
    );

    await step('the install is under the target (checked last, after every other step)', () => {
      const over = [
        weight.packages >= INSTALL_TARGET.packages ? `${weight.packages} packages` : '',
        weight.megabytes >= INSTALL_TARGET.megabytes ? `${weight.megabytes.toFixed(1)} MB` : '',
      ].filter(Boolean);
      if (over.length)
        throw new StepFailure(
          `npm i -D <tarball> added ${over.join(' and ')} to a fresh Vite app: the target is under ` +
            `${INSTALL_TARGET.packages} packages and ${INSTALL_TARGET.megabytes} MB (docs/development.md)`,
        );
    });
  } catch (err) {
    mock?.stop();
    process.stderr.write(`\nFAIL  pack smoke test: ${err instanceof Error ? err.message : err}\n`);
    process.stderr.write(`(kept ${work} to look into)\n`);
    process.exit(1);
  }
  mock?.stop();
  await rm(work, { recursive: true, force: true });
  const total = timings.reduce((sum, { seconds }) => sum + Number(seconds), 0).toFixed(1);
  process.stdout.write(`pack smoke test passed in ${total} s\n`);
}

await main();
