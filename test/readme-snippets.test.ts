// Every TypeScript snippet of the README and of docs/*.md, type-checked where a reader pastes
// it: a Vite react-ts project per page (the template's compiler settings and TypeScript, `tsc -b`
// as its build runs it), with the packages the snippets import installed and, for the recipes, types
// generated from the installed spec.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  frontendProject,
  readmeSnippets,
  RECIPES_PAGE,
  ROOT,
  type FrontendProject,
} from './recipes/frontend-project.js';
import { layoutDisagreements } from './recipes/docs-layout.js';

/** The template's TypeScript (create-vite's react-ts installs TypeScript 7), as its build runs it. */
const TSC = join(ROOT, 'node_modules/typescript7/bin/tsc');

/** The README and every docs page, from the repository's root. */
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/**
 * The Storybook recipe's snippets need Storybook, which this project does not install: `npm run
 * test:storybook` type-checks and builds them in a fresh app (test/recipes/storybook.ts).
 */
const CHECKED_ELSEWHERE = ['docs/storybook.md'];

/** The pages other than the recipes that hold TypeScript, each type-checked on its own. */
const OTHER_PAGES_WITH_TYPESCRIPT = PAGES.filter(
  (page) =>
    page !== RECIPES_PAGE &&
    !CHECKED_ELSEWHERE.includes(page) &&
    /^\s*```(ts|tsx|typescript)\s*$/m.test(readFileSync(join(ROOT, page), 'utf8')),
);

let project: FrontendProject;
/** The project of each other page, by page. */
const others = new Map<string, FrontendProject>();
/** One `tsc -b` over every page's project, run from the recipes' project. */
let build: { code: number | null; output: string };

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/index.d.ts')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does)');
  project = await frontendProject();
  for (const page of OTHER_PAGES_WITH_TYPESCRIPT) others.set(page, await frontendProject(page));
  // One build of every project rather than one tsc per page: the libraries they share (the
  // DOM's, React's, petstore-kit's own types) are read and bound once, not once a page, for
  // half the CPU (4 pages: 19.6 CPU s apart, 7.7 together). Each project is still a program
  // of its own, with its own settings and files.
  build = await project.run(process.execPath, [
    TSC,
    '-b',
    project.dir,
    ...[...others.values()].map((other) => other.dir),
    '--pretty',
    'false',
  ]);
}, 240_000);

afterAll(() =>
  Promise.all([project, ...others.values()].map((each) => each?.remove())).then(() => undefined),
);

/**
 * tsc's errors about the files of a project, each pointed at the page line (or template file)
 * it is about. tsc names files relative to where it ran (`cwd`).
 */
function located(output: string, of = project, cwd = of.dir): string[] {
  return [...output.matchAll(/^(.+?)\((\d+),(\d+)\): (error TS\d+: .*)$/gm)].flatMap(
    ([, path, line, , message]) => {
      const inProject = relative(of.dir, resolve(cwd, path!));
      if (inProject.startsWith('..') || isAbsolute(inProject)) return [];
      return [`${of.origin(inProject, Number(line))}: ${message}`];
    },
  );
}

/**
 * Whether the build failed for an error no project's files explain (a setting, a library's
 * types): that fails every page, as it would fail each page's own build.
 */
function unexplainedFailure(): boolean {
  if (build.code === 0) return false;
  const errors = build.output.match(/error TS\d+/g)?.length ?? 0;
  const explained = [project, ...others.values()].reduce(
    (count, each) => count + located(build.output, each, project.dir).length,
    0,
  );
  return explained === 0 || explained < errors;
}

describe('the recipes’ TypeScript snippets (docs/recipes.md)', () => {
  it('name the file each goes to, and cover the app, its Vitest and Playwright tests and the express mount', () => {
    expect(project.snippets.map((snippet) => snippet.path)).toEqual(
      expect.arrayContaining([
        'src/api/client.ts',
        'src/Categories.tsx',
        'src/App.tsx',
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

  it('type-check in a Vite react-ts project, with the template’s compiler settings', () => {
    expect(located(build.output), build.output).toEqual([]);
    expect(unexplainedFailure(), build.output).toBe(false);
  });

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

describe('every other page’s TypeScript snippets', () => {
  it('are found on the pages that hold them (the list is not empty by mistake)', () => {
    expect(OTHER_PAGES_WITH_TYPESCRIPT).toContain('docs/frontend.md');
  });

  it.each(OTHER_PAGES_WITH_TYPESCRIPT)(
    '%s: name their files and type-check in a Vite react-ts project',
    (page) => {
      expect(located(build.output, others.get(page), project.dir), build.output).toEqual([]);
      expect(unexplainedFailure(), build.output).toBe(false);
    },
  );
});

describe('one layout of files across the pages (issue 47, item 10)', () => {
  it('every page writes a file as every other does, and each test is where Vitest or Playwright looks', () => {
    const pages = PAGES.map((page) => ({
      page,
      snippets: readmeSnippets(readFileSync(join(ROOT, page), 'utf8'), page),
    }));
    expect(layoutDisagreements(pages)).toEqual([]);
  });

  it('refuses the layout the docs had: one file two ways, a test outside the include (the check is not vacuous)', () => {
    const recipes = readmeSnippets(
      [
        '```ts\n// src/api.ts\nexport const client = 1;\n```',
        "```ts\n// vitest.config.ts\nexport default { test: { include: ['test/**/*.test.ts'] } };\n```",
        "```ts\n// playwright.config.ts\nexport default { testDir: './e2e' };\n```",
        '```ts\n// test/api.test.ts\nexport {};\n```',
        '```ts\n// e2e/categories.spec.ts\nexport {};\n```',
      ].join('\n\n'),
      'docs/recipes.md',
    );
    const frontend = readmeSnippets(
      [
        '```ts\n// src/api.ts\nexport interface paths {}\n```',
        '```ts\n// src/categories.test.ts\nexport {};\n```',
        '```ts\n// test/msw.ts (MSW 2)\nexport const v = 2;\n```',
        '```ts\n// test/msw.ts (MSW 3)\nexport const v = 3;\n```',
      ].join('\n\n'),
      'docs/frontend.md',
    );
    expect(
      layoutDisagreements([
        { page: 'docs/frontend.md', snippets: frontend },
        { page: 'docs/recipes.md', snippets: recipes },
      ]),
    ).toEqual([
      'docs/recipes.md:2 writes src/api.ts otherwise than docs/frontend.md:2',
      "docs/frontend.md:7: src/categories.test.ts is a test neither Vitest's include (test/**/*.test.ts) nor Playwright's testDir (./e2e) runs",
    ]);
  });
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The relative links of a page outside its code, with the line each is on. */
function linksOf(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, index) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    if (fenced) return;
    for (const [, target] of text.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g))
      if (!/^[a-z]+:/.test(target!)) links.push({ target: target!, line: index + 1 });
  });
  return links;
}

function anchorsOf(markdown: string): string[] {
  return [...markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, '').matchAll(/^#+ (.+)$/gm)].map(
    ([, heading]) => anchorOf(heading!),
  );
}

describe('the links between the README and the docs pages', () => {
  it('lead to a file that exists, and to a heading it has', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const { target, line } of linksOf(readFileSync(join(ROOT, page), 'utf8'))) {
        const [file, anchor] = target.split('#');
        const path = file ? normalize(join(dirname(page), file)) : page;
        // The options helper generates this page from the one table of options (issue 29).
        if (path === 'docs/options.md' && !existsSync(join(ROOT, path))) continue;
        if (!existsSync(join(ROOT, path))) broken.push(`${page}:${line}: ${target}: no ${path}`);
        else if (anchor && !anchorsOf(readFileSync(join(ROOT, path), 'utf8')).includes(anchor))
          broken.push(`${page}:${line}: ${target}: ${path} has no heading #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('would see a link to a heading that moved (the check is not vacuous)', () => {
    expect(linksOf('See [it](docs/a.md#b-c) and `[not](this)`.\n```\n[nor](this)\n```\n')).toEqual([
      { target: 'docs/a.md#b-c', line: 1 },
    ]);
    expect(anchorsOf('## Sessions: isolated state, for workers\n')).toEqual([
      'sessions-isolated-state-for-workers',
    ]);
  });
});

describe('readmeSnippets', () => {
  it('refuses a TypeScript block that names no file, and a file named twice', () => {
    expect(() => readmeSnippets('text\n\n```ts\nconst x = 1;\n```\n')).toThrow(
      'README line 4: a TypeScript block must start with a comment naming its file',
    );
    expect(() =>
      readmeSnippets('```ts\n// a.ts\nexport {};\n```\n\n```tsx\n// a.ts\nexport {};\n```\n'),
    ).toThrow('README line 7: a.ts is named twice (first at line 2)');
    expect(() => readmeSnippets('```ts\nconst x = 1;\n```\n', 'docs/proxy.md')).toThrow(
      'docs/proxy.md line 2: a TypeScript block must start with a comment naming its file',
    );
    expect(readmeSnippets('```sh\nnpm test\n```\n```tsx\n// src/A.tsx: a comment\n```\n')).toEqual([
      { path: 'src/A.tsx', line: 5, code: '// src/A.tsx: a comment\n' },
    ]);
    // One version of a file per MSW major, and not two for the same one.
    expect(
      readmeSnippets('```ts\n// a.ts (MSW 2)\n```\n```ts\n// a.ts (MSW 3)\n```\n').map(
        (snippet) => snippet.msw,
      ),
    ).toEqual([2, 3]);
    expect(() =>
      readmeSnippets('```ts\n// a.ts (MSW 3)\n```\n```ts\n// a.ts (MSW 3)\n```\n'),
    ).toThrow('README line 5: a.ts is named twice (first at line 2)');
  });
});
