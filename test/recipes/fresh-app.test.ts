// Issue 47: every TypeScript snippet of the docs, put together as one app (docs-layout.ts), in a
// fresh create-vite react-ts app installed from the npm registry: type-checked by the template's
// own TypeScript (7), its Vitest tests run (the recipes' shared mock and the MSW handlers), and
// built for production with none of the mock. On Node 24 with MSW 3 and Vitest 5, the versions
// a team has now, and on Node 20 (its floor, 20.19) with MSW 2 and Vitest 4.
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { docsAppProject, ROOT, type FrontendProject } from './frontend-project.js';
import { freshApp, packThisCheckout, type Toolchain } from './fresh-app.js';
import { tempFolder } from '../temp-folders.js';
import { existsSync } from 'node:fs';

const MATRIX: Toolchain[] = [
  { node: 24, msw: 3, vitest: 5 },
  { node: 20, msw: 2, vitest: 4 },
];

let work: string;
let tarball: string;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/index.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  work = await tempFolder('fresh');
  tarball = await packThisCheckout(work);
}, 120_000);

describe.each(MATRIX)('Node $node, MSW $msw, Vitest $vitest', (tools) => {
  let project: FrontendProject;

  beforeAll(async () => {
    const folder = await mkdtemp(join(work, `node${tools.node}-`));
    project = await docsAppProject(tools.msw, await freshApp(folder, tarball, tools));
  }, 600_000);

  it('runs on the pinned Node, with the MSW and Vitest asked for', async () => {
    const node = await project.run('node', ['--version']);
    expect(node.output).toMatch(new RegExp(`^v${tools.node}\\.`));
    for (const [name, major] of [
      ['msw', tools.msw],
      ['vitest', tools.vitest],
    ] as const) {
      const manifest = JSON.parse(
        await readFile(join(project.dir, 'node_modules', name, 'package.json'), 'utf8'),
      ) as { version: string };
      expect(manifest.version, name).toMatch(new RegExp(`^${major}\\.`));
    }
  });

  it('type-checks every snippet with the template’s own TypeScript (tsc -b, as its build runs it)', async () => {
    const { code, output } = await project.run('tsc', ['-b', '--pretty', 'false']);
    const located = [...output.matchAll(/^(.+?)\((\d+),\d+\): (error TS\d+: .*)$/gm)].map(
      ([, path, line, message]) => `${project.origin(path!, Number(line))}: ${message}`,
    );
    expect(located, output).toEqual([]);
    expect(code, output).toBe(0);
  }, 180_000);

  it('runs the Vitest tests the docs show: the shared mock’s and the MSW handlers’', async () => {
    const { code, output } = await project.run('vitest', ['run']);
    expect(code, output).toBe(0);
    expect(output).toMatch(new RegExp(`RUN {2}v${tools.vitest}\\.`));
    expect(output).toMatch(/✓ test\/api\.test\.ts \(3 tests\)/);
    expect(output).toMatch(/✓ test\/categories-msw\.test\.ts \(3 tests\)/);
    expect(output).toMatch(/✓ test\/chat\.test\.ts \(1 test\)/);
    expect(output).toMatch(/Tests {2}7 passed \(7\)/);
  }, 180_000);

  it('builds for production with none of the mock', async () => {
    const { code, output } = await project.run('vite', ['build']);
    expect(code, output).toBe(0);
    const assets = join(project.dir, 'dist/assets');
    const scripts = (await readdir(assets)).filter((name) => name.endsWith('.js'));
    const code_ = Buffer.concat(
      await Promise.all(scripts.map((name) => readFile(join(assets, name)))),
    );
    expect(code_.includes('Mock-Session'), output).toBe(false);
    expect(code_.length, output).toBeLessThan(300_000);
  }, 180_000);
});
