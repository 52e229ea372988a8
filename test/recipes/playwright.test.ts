// docs/recipes.md's Playwright recipe, run as written in a frontend project with headless Chromium:
// Playwright starts the mock and the Vite dev server, two workers run fully parallel, each in
// a session of its own. Besides the page's tests, two of ours add a category on two workers
// at the same moment: each must see only its own, and the mock's default state neither; a
// third holds the first list back: the page says it is loading and offers no add until then.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sharedChromiumEnv } from '../browser/shared-chromium.js';
import { withChromium } from '../browser/with-chromium.js';
import { frontendProject, ROOT, type FrontendProject } from './frontend-project.js';
import { freePorts } from '../free-port.js';

const chromium = withChromium();

let project: FrontendProject;

beforeAll(async () => {
  if (!chromium.found) return;
  if (!existsSync(join(ROOT, 'dist/index.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  project = await frontendProject();
}, 60_000);

afterAll(() => project?.remove());

it('runs as written, fully parallel on two workers, one mock and one dev server for both', async () => {
  if (!chromium.found) return;
  const [mockPort, appPort] = await freePorts(2);
  // In the project, so that it goes with it.
  const barriers = join(project.dir, '.barriers');
  const { code, output } = await project.run(
    process.execPath,
    [
      join(project.dir, 'node_modules/@playwright/test/cli.js'),
      'test',
      '--workers=2',
      '--reporter=list',
      // A minute a test, not Playwright's 30 s: on a busy machine the first page waits for
      // Vite's first build, and our two tests wait up to 20 s for each other at their barrier.
      '--timeout=60000',
    ],
    {
      // CI: never reuse a server found on those ports.
      CI: '1',
      CHROMIUM_PATH: chromium.path,
      // This worker's Chromium, launched with our flags: its two workers connect to it rather
      // than each launch one.
      ...(await sharedChromiumEnv(chromium.path)),
      MOCK_PORT: String(mockPort),
      APP_PORT: String(appPort),
      BARRIER_DIR: barriers,
    },
  );
  expect(code, output).toBe(0);
  expect(output).toMatch(/Running 5 tests using 2 workers/);
  expect(output).toMatch(/5 passed/);
}, 180_000);
