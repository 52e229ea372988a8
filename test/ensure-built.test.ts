// `npm start` (and `npm run contract`, `npm run test:corpus`) build only the parts of dist/
// that are missing or older than their sources (issue 29: every start rebuilt everything).
// scripts/ensure-built.mjs runs here in a small project of its own, with an `npm` first on its
// PATH that only writes down what it was asked to run: npm's own start was most of each run's CPU.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from './recipes/frontend-project.js';
import { tempFolderSync } from './temp-folders.js';

const SCRIPT = join(ROOT, 'scripts/ensure-built.mjs');

const SOURCES = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'src/cli/bin.ts',
  'src/wiring/start-mock.ts',
  'contract-tests/rules.ts',
  'spec/admin.yaml',
  'spec/openapi.yaml',
  'inspector/tsconfig.json',
  'inspector/index.html',
  'inspector/src/main.ts',
  'inspector/generated/admin.d.ts',
];
const OUTPUTS = [
  'dist/cli/bin.js',
  'dist/index.js',
  'dist/bundles/msw.browser.js',
  'dist/contract-tests/suite.js',
  'dist/inspector/main.js',
  'dist/inspector/index.html',
];

let dir = '';

/** A project built 50 s after its sources were last written, with `changed` written since. */
function project({ built = true, changed = [] as string[] } = {}): void {
  dir = tempFolderSync('ensure-built');
  const files = built ? [...SOURCES, ...OUTPUTS] : SOURCES;
  for (const file of files) {
    mkdirSync(join(dir, dirname(file)), { recursive: true });
    writeFileSync(join(dir, file), '');
  }
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin/npm'), '#!/bin/sh\necho "npm $*" >> built.log\n', { mode: 0o755 });
  const now = Date.now() / 1000;
  // Folders too: a file added or removed changes its folder's time.
  const all = [...new Set(files.flatMap((file) => [file, ...foldersOf(file)]))];
  for (const file of all) {
    const at = OUTPUTS.includes(file) || file.startsWith('dist') ? now - 50 : now - 100;
    utimesSync(join(dir, file), at, at);
  }
  for (const file of changed) utimesSync(join(dir, file), now, now);
}

function foldersOf(file: string): string[] {
  const folders: string[] = [];
  for (let folder = dirname(file); folder !== '.'; folder = dirname(folder)) folders.push(folder);
  return folders;
}

/** The npm commands ensure-built ran: `npm run build`, `npm run build:inspector`, or none. */
async function run(): Promise<string[]> {
  const PATH = `${join(dir, 'bin')}${delimiter}${process.env.PATH ?? ''}`;
  await promisify(execFile)(process.execPath, [SCRIPT], {
    cwd: dir,
    env: { ...process.env, PATH },
  });
  try {
    return readFileSync(join(dir, 'built.log'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

describe('scripts/ensure-built.mjs', () => {
  it('builds everything when dist/ is missing, as in a fresh clone', async () => {
    project({ built: false });
    expect(await run()).toEqual(['npm run build']);
  }, 60_000);

  it('builds everything when the browser bundle of petstore-kit/msw is missing, as in a dist/ built before it existed', async () => {
    project();
    rmSync(join(dir, 'dist/bundles/msw.browser.js'));
    expect(await run()).toEqual(['npm run build']);
  }, 60_000);

  it('builds nothing when dist/ is newer than every source', async () => {
    project();
    expect(await run()).toEqual([]);
  }, 60_000);

  it.each([
    'src/wiring/start-mock.ts',
    'contract-tests/rules.ts',
    'package.json',
    'tsconfig.build.json',
  ])(
    'builds everything when %s changed',
    async (file) => {
      project({ changed: [file] });
      expect(await run()).toEqual(['npm run build']);
    },
    60_000,
  );

  it.each(['inspector/src/main.ts', 'inspector/index.html', 'spec/admin.yaml'])(
    'builds the inspector alone when %s changed',
    async (file) => {
      project({ changed: [file] });
      expect(await run()).toEqual(['npm run build:inspector']);
    },
    60_000,
  );

  it('builds nothing when the bundled spec changed: the mock reads it when it starts', async () => {
    project({ changed: ['spec/openapi.yaml'] });
    expect(await run()).toEqual([]);
  }, 60_000);

  it('reads the types generated for the inspector as its output, not a source', async () => {
    project({ changed: ['inspector/generated/admin.d.ts'] });
    expect(await run()).toEqual([]);
  }, 60_000);
});

describe('package.json', () => {
  it('runs the check before npm start, npm run contract and npm run test:corpus', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    for (const script of ['prestart', 'precontract', 'pretest:corpus'])
      expect(scripts[script], script).toBe('node scripts/ensure-built.mjs');
  });
});
