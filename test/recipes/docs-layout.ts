// One layout of files across the docs (issue 47, item 10): every page's snippets go into one
// app, so two pages that write the same file must write it alike, and every test a page shows
// must be where the runner the docs configure looks for it.
import type { MswMajor, Snippet } from './frontend-project.js';

/** A page and its TypeScript snippets (readmeSnippets). */
export interface PageSnippets {
  page: string;
  snippets: readonly Snippet[];
}

/** A snippet with the page it is on, for messages. */
export interface PlacedSnippet extends Snippet {
  page: string;
}

const TEST_FILE = /\.(test|spec)\.tsx?$/;

/**
 * What keeps the pages from making one app: a file two snippets write differently (for the
 * same MSW major), and a test file neither Vitest's `include` (the `vitest.config.ts` snippet)
 * nor Playwright's `testDir` (the `playwright.config.ts` snippet) covers. Empty when they agree.
 * @example layoutDisagreements([{ page: 'a.md', snippets: [{ path: 'x.ts', line: 2, code: '1' }] }]) // []
 */
export function layoutDisagreements(pages: readonly PageSnippets[]): string[] {
  const all: PlacedSnippet[] = pages.flatMap(({ page, snippets }) =>
    snippets.map((snippet) => ({ ...snippet, page })),
  );
  const problems: string[] = [];
  all.forEach((snippet, index) => {
    const first = all.find(
      (other, at) =>
        at < index &&
        other.path === snippet.path &&
        (!other.msw || !snippet.msw || other.msw === snippet.msw),
    );
    if (first && first.code !== snippet.code)
      problems.push(
        `${snippet.page}:${snippet.line} writes ${snippet.path} otherwise than ${first.page}:${first.line}`,
      );
  });
  const vitest = all.find((snippet) => snippet.path === 'vitest.config.ts');
  const playwright = all.find((snippet) => snippet.path === 'playwright.config.ts');
  const includes = vitest ? stringsOf(vitest.code, 'include') : [];
  const testDir = playwright ? stringsOf(playwright.code, 'testDir')[0] : undefined;
  for (const snippet of all.filter((each) => TEST_FILE.test(each.path))) {
    const inVitest = includes.some((glob) => globRegExp(glob).test(snippet.path));
    const inPlaywright = testDir !== undefined && snippet.path.startsWith(`${normal(testDir)}/`);
    if (!inVitest && !inPlaywright)
      problems.push(
        `${snippet.page}:${snippet.line}: ${snippet.path} is a test neither Vitest's include (${includes.join(', ') || 'none shown'}) nor Playwright's testDir (${testDir ?? 'none shown'}) runs`,
      );
  }
  return problems;
}

/** The string literals of a config's `key: '…'` or `key: ['…', …]`. */
function stringsOf(code: string, key: string): string[] {
  const value = new RegExp(`\\b${key}:\\s*(\\[[^\\]]*\\]|'[^']*')`).exec(code)?.[1] ?? '';
  return [...value.matchAll(/'([^']*)'/g)].map((match) => match[1]!);
}

function normal(path: string): string {
  return path.replace(/^\.\//, '').replace(/\/$/, '');
}

/** A glob of Vitest's include (`**`, `*`, `{a,b}`) as a regular expression over a path. */
export function globRegExp(glob: string): RegExp {
  let source = '';
  const text = normal(glob);
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (text.startsWith('**/', i)) {
      source += '(?:.*/)?';
      i += 2;
    } else if (text.startsWith('**', i)) {
      source += '.*';
      i += 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '{') source += '(?:';
    else if (char === '}') source += ')';
    else if (char === ',') source += '|';
    else source += char.replace(/[.+?^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/**
 * Every page's snippets as one app's files for one MSW major: each file once.
 * @throws when the pages disagree (layoutDisagreements).
 */
export function oneApp(pages: readonly PageSnippets[], msw: MswMajor): PlacedSnippet[] {
  const problems = layoutDisagreements(pages);
  if (problems.length > 0) throw new Error(`the docs disagree:\n${problems.join('\n')}`);
  const files = new Map<string, PlacedSnippet>();
  for (const { page, snippets } of pages)
    for (const snippet of snippets)
      if ((!snippet.msw || snippet.msw === msw) && !files.has(snippet.path))
        files.set(snippet.path, { ...snippet, page });
  return [...files.values()];
}
