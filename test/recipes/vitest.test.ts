// docs/recipes.md's Vitest recipe, run as written in a frontend project: a global setup starts one
// mock and provides its URL, each test file works in a session of its own, reset before each
// test. Two of the project's files (ours, not the page's) create at the same moment in two
// workers and must each see only their own record. Three workers for three files: with two,
// one isolation file may wait for the worker running the third file while the other waits for it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { frontendProject, ROOT, type FrontendProject } from './frontend-project.js';

let project: FrontendProject;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/index.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  project = await frontendProject();
}, 60_000);

afterAll(() => project?.remove());

it('runs as written: one mock for the run, its URL injected, each file in its own session, reset per test', async () => {
  // In the project, so that it goes with it.
  const barriers = join(project.dir, '.barriers');
  const { code, output } = await project.run(
    process.execPath,
    [join(project.dir, 'node_modules/vitest/vitest.mjs'), 'run', '--maxWorkers=3'],
    { BARRIER_DIR: barriers },
  );
  expect(code, output).toBe(0);
  expect(output).toMatch(/✓ test\/api\.test\.ts \(3 tests\)/);
  expect(output).toMatch(/✓ test\/chat\.test\.ts \(1 test\)/);
  expect(output).toMatch(/Test Files {2}4 passed \(4\)/);
  expect(output).toMatch(/Tests {2}8 passed \(8\)/);
}, 120_000);
