// Which test files start processes (the built CLI, Chromium, Playwright, redis-server, tsc):
// `npm run test:fast` leaves them out. Read from the files themselves, so that the fast tier
// cannot drift from a hand-kept list: a file is in it unless it, or a helper of test/ it
// imports, names Node's child-process module, Playwright or the build's output folder, or a
// script of scripts/ it imports names one of the first two (a script may write dist/; a test
// that imports it does not need the build for that).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * What a file that starts a process names. Spelt in parts, so that this module and its test,
 * which start none, name none of them.
 */
const STARTS_PROCESSES = [String.raw`\bchild_${'process'}\b`, String.raw`\bplay${'wright'}\b`];

/** What a helper of test/ names: a process, or the build's output. */
const TEST_HELPER = new RegExp([...STARTS_PROCESSES, String.raw`['"\x60/]${'dist'}/`].join('|'));

/** What a script names: a process. */
const SCRIPT = new RegExp(STARTS_PROCESSES.join('|'));

/** The relative specifiers a file imports, exports from or loads with `import()`. */
const RELATIVE_IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every file under `dir` whose name ends in `.test.ts`, from `root`, with `/`. */
function testFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(root, path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * The test files under `dirs` that start processes, themselves or through a helper they import
 * from `test/` or `scripts/` (what they import from `src/` and `contract-tests/` is the code under
 * test, not how the test runs it).
 * @param root the repository's root
 * @example processTestFiles(process.cwd(), ['src', 'test']) // ['test/cli.test.ts', ...]
 */
export function processTestFiles(root: string, dirs: readonly string[]): string[] {
  const helpers = resolve(root, 'test') + sep;
  const scripts = resolve(root, 'scripts') + sep;
  const known = new Map<string, boolean>();
  const startsProcesses = (file: string, seen: Set<string>): boolean => {
    const cached = known.get(file);
    if (cached !== undefined) return cached;
    if (seen.has(file)) return false;
    seen.add(file);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return false;
    }
    const starts =
      (file.startsWith(scripts) ? SCRIPT : TEST_HELPER).test(text) ||
      [...text.matchAll(RELATIVE_IMPORT)].some(([, specifier]) => {
        const target = resolve(dirname(file), specifier!.replace(/\.js$/, '.ts'));
        const local = target.startsWith(helpers) || target.startsWith(scripts);
        return local && startsProcesses(target, seen);
      });
    known.set(file, starts);
    return starts;
  };
  return dirs
    .flatMap((dir) => testFiles(root, dir))
    .filter((path) => startsProcesses(resolve(root, path), new Set()))
    .map((path) => relative(root, resolve(root, path)).split(sep).join('/'));
}
