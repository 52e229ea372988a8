// `npm run test:fast` leaves out the files that start processes: which ones is read from the
// files, so that a file converted to `mock.fetch` joins the fast tier and a helper that starts a
// process takes its importers out of it.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { processTestFiles } from './test-tiers.js';
import { tempFolder } from './temp-folders.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// Spelt in parts: this file starts no process, and names none for test-tiers.ts to find.
const CHILD_PROCESS = ['node:child', 'process'].join('_');
const PLAYWRIGHT_CORE = ['play', 'wright-core'].join('');
const BUILT_BIN = ['..', 'dist', 'cli', 'bin.js'].join('/');

/** A repository of the files given, by path from its root. */
async function repository(files: Record<string, string>): Promise<string> {
  const root = await tempFolder('tiers');
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

describe('processTestFiles', () => {
  it('takes a file that starts a process, itself or through a helper of test/ or scripts/, however deep', async () => {
    const root = await repository({
      'test/spawns.test.ts': `import { spawn } from '${CHILD_PROCESS}';\n`,
      'test/through-helper.test.ts': `import { run } from './helpers/run.js';\n`,
      'test/helpers/run.ts': `export { run } from './deeper.js';\n`,
      'test/helpers/deeper.ts': `import { execFile } from '${CHILD_PROCESS}';\n`,
      'test/browser/page.test.ts': `import { chromium } from '${PLAYWRIGHT_CORE}';\n`,
      'test/built.test.ts': `const BIN = new URL('${BUILT_BIN}', import.meta.url);\n`,
      'test/lazy.test.ts': `const { run } = await import('./helpers/run.js');\n`,
      'test/through-script.test.ts': `import { compile } from '../scripts/compile.js';\n`,
      'scripts/compile.ts': `import { execFile } from '${CHILD_PROCESS}';\n`,
    });
    expect(processTestFiles(root, ['test']).sort()).toEqual([
      'test/browser/page.test.ts',
      'test/built.test.ts',
      'test/lazy.test.ts',
      'test/spawns.test.ts',
      'test/through-helper.test.ts',
      'test/through-script.test.ts',
    ]);
  });

  it('leaves in the fast tier a file that runs in the process, whatever src/ it imports', async () => {
    const root = await repository({
      'test/in-process.test.ts': `import { createApp } from '../src/app.js';\nimport { key } from './helpers/keys.js';\n`,
      'test/helpers/keys.ts': `export const key = 'k';\n`,
      // The code under test may start processes: how the test runs it is what counts.
      'src/app.ts': `import { spawn } from '${CHILD_PROCESS}';\nexport const createApp = () => spawn;\n`,
      'src/app.test.ts': `import { createApp } from './app.js';\n`,
      'test/cycle-a.test.ts': `import './cycle-b.js';\n`,
      // A build script writes dist/: a test that imports it does not need the build.
      'test/build-step.test.ts': `import { step } from '../scripts/step.mjs';\n`,
      'scripts/step.mjs': `export const step = new URL('${BUILT_BIN}', import.meta.url);\n`,
      'test/cycle-b.ts': `import './cycle-a.test.js';\n`,
    });
    expect(processTestFiles(root, ['src', 'test'])).toEqual([]);
  });

  it('puts this repository’s CLI, browser and Redis files out of the fast tier, and mock.fetch files in it', () => {
    const files = processTestFiles(ROOT, ['src', 'test']);
    expect(files).toEqual(
      expect.arrayContaining([
        'test/cli.test.ts',
        'test/browser/inspector.test.ts',
        'test/redis-team.test.ts',
        'test/recipes/vitest.test.ts',
        'test/types-corpus.test.ts',
      ]),
    );
    expect(files).not.toContain('test/mock-object.test.ts');
    expect(files).not.toContain('test/test-tiers.test.ts');
  });
});
