// Every TypeScript snippet of the README, type-checked where a reader pastes it: a Vite
// react-ts project (the template's compiler settings, `tsc -b` as its build runs it), with the
// packages the snippets import installed and types generated from the installed spec.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  frontendProject,
  readmeSnippets,
  ROOT,
  type FrontendProject,
} from './recipes/frontend-project.js';

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

let project: FrontendProject;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/index.d.ts')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  project = await frontendProject();
}, 60_000);

afterAll(() => project?.remove());

/** tsc's errors, each pointed at the README line (or template file) it is about. */
function located(output: string): string[] {
  return [...output.matchAll(/^(.+?)\((\d+),(\d+)\): (error TS\d+: .*)$/gm)].map(
    ([, path, line, , message]) => `${project.origin(path!, Number(line))}: ${message}`,
  );
}

describe('the README’s TypeScript snippets', () => {
  it('name the file each goes to, and cover the app, its Vitest and Playwright tests and the express mount', () => {
    expect(project.snippets.map((snippet) => snippet.path)).toEqual(
      expect.arrayContaining([
        'src/api.ts',
        'src/Categories.tsx',
        'vite.config.ts',
        'vitest.config.ts',
        'test/mock-setup.ts',
        'test/api.test.ts',
        'playwright.config.ts',
        'e2e/fixtures.ts',
        'e2e/categories.spec.ts',
        'server.ts',
      ]),
    );
  });

  it('type-check in a Vite react-ts project, with the template’s compiler settings', async () => {
    const { code, output } = await project.run(process.execPath, [TSC, '-b', '--pretty', 'false']);
    expect(located(output), output).toEqual([]);
    expect(code, output).toBe(0);
  }, 120_000);

  it('would fail on the README’s old fetch example (the check is not vacuous)', async () => {
    // The snippet of the README before issue 19: its parameters are implicitly any (TS7006)
    // and `init.headers` is no property of `{}` (TS2339).
    await writeFile(
      join(project.dir, 'src/old-fetch.ts'),
      [
        "const API = import.meta.env.VITE_API_URL ?? 'http://127.0.0.1:4010/v1';",
        "const headers = { Authorization: 'Bearer petstore-kit-dev-key' };",
        'export async function call(path, init = {}) {',
        '  const res = await fetch(`${API}${path}`, { ...init, headers: { ...headers, ...init.headers } });',
        '  return res.json();',
        '}',
        '',
      ].join('\n'),
    );
    const { code, output } = await project.run(process.execPath, [
      TSC,
      '-p',
      'tsconfig.app.json',
      '--pretty',
      'false',
    ]);
    expect(code).not.toBe(0);
    expect(output).toMatch(/src\/old-fetch\.ts\(3,\d+\): error TS7006/);
    expect(output).toMatch(/src\/old-fetch\.ts\(4,\d+\): error TS2339/);
  }, 120_000);
});

describe('readmeSnippets', () => {
  it('refuses a TypeScript block that names no file, and a file named twice', () => {
    expect(() => readmeSnippets('text\n\n```ts\nconst x = 1;\n```\n')).toThrow(
      'README line 4: a TypeScript block must start with a comment naming its file',
    );
    expect(() =>
      readmeSnippets('```ts\n// a.ts\nexport {};\n```\n\n```tsx\n// a.ts\nexport {};\n```\n'),
    ).toThrow('README line 7: a.ts is named twice (first at line 2)');
    expect(readmeSnippets('```sh\nnpm test\n```\n```tsx\n// src/A.tsx: a comment\n```\n')).toEqual([
      { path: 'src/A.tsx', line: 5, code: '// src/A.tsx: a comment\n' },
    ]);
  });
});
