import { relative, sep } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SKIP_NOTE_PREFIX } from './test/browser/chromium.js';
import { SkipBannerReporter } from './test/browser/skip-reporter.js';
import { REDIS_SKIP_NOTE_PREFIX } from './test/redis/find-redis.js';

/**
 * The slowest files, slowest first, started before all others so that the two workers end
 * together: a 60 s file started last keeps one worker busy for a minute while the other has
 * nothing left. Vitest orders files by the durations it keeps in node_modules/.vite, but a
 * fresh clone (CI) has none, and then it starts the largest first: test/contract-realworld.test.ts,
 * 54 lines and over a minute, came among the last. Each with its CPU seconds, its child processes included,
 * and its seconds in a run of these files on 2 workers at a load of 10 (26 Nov 2026, the
 * method in docs/test-speed.md; cli and readme-snippets run alone after they were cut, and
 * contract-proof and contract-cli alone at a load of 5-7 on 27 Nov): on two cores the CPU is
 * most of a file's time.
 */
const SLOWEST_FIRST = [
  'test/contract-proof.test.ts', // 59-83 CPU s, 68-110 s alone: the contract suite against faulty servers, in-process
  'test/cli.test.ts', // 30-48 CPU s alone (27 Nov, load 2-10): the built CLI started some 50 times
  'test/contract-coverage.test.ts', // 24-29 CPU s alone (27 Nov): five runs of the built contract CLI
  'test/contract-realworld.test.ts', // 35 CPU s, 115 s: the contract CLI against public documents' mocks
  'test/browser/playwright-fixture.test.ts', // 36-40 CPU s alone (27 Nov, /proc sampler): one Playwright run, four Chromiums
  'test/contract-cli.test.ts', // 47 CPU s, 72 s alone: the built contract CLI
  'test/browser/inspector.test.ts', // 26-30 CPU s alone (27 Nov, /proc sampler): Chromium
  'test/browser/playwright-docs-config.test.ts', // 70 s alone (6 Dec, load of 5 others' work): Vite, the mock, Chromium
  'test/browser/playwright-proxy.test.ts', // 64 s alone (6 Dec, load of 5 others' work): Vite, the mock, Chromium
  'test/browser/playwright-msw.test.ts', // 52-62 s alone (6 Dec, load of 11): Vite, two mocks, two Chromiums
  'test/recipes/playwright.test.ts', // 23 CPU s, 58 s: Vite, the mock and two Chromiums
  'test/corpus.test.ts', // 25 CPU s, 57 s: a mock for each document, the expected ones' operations called
  'test/redis-mock.test.ts', // 25 CPU s, 55 s: replicas of the built CLI
  'test/redis-team.test.ts', // 19 CPU s, 43 s: replicas and Redis servers started, stopped, frozen
  'test/readme-snippets.test.ts', // 16 CPU s, 35 s: the snippets of every page type-checked
  'test/diff.test.ts', // 13 CPU s, 30 s
  'test/browser/msw-worker.test.ts', // 9 CPU s, 26 s: Chromium
  'test/browser/inspector-widths.test.ts', // 7 CPU s, 24 s: Chromium
  'test/fast-yaml.test.ts', // 5 CPU s, 20 s
  'test/file-store.test.ts', // 6 CPU s, 19 s: writers killed at random moments
  'test/recipes/vitest.test.ts', // 10 CPU s, 17 s: the recipes' Vitest run
];

/** Vitest's order (durations kept, else the largest file first), the slowest above all. */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const path = relative(file.project.config.root, file.moduleId).split(sep).join('/');
      const known = SLOWEST_FIRST.indexOf(path);
      return known === -1 ? SLOWEST_FIRST.length : known;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/** The MSW handlers' test files, run again with `msw` resolving to MSW 3 (the `msw3` alias). */
const MSW_FILES = [
  'test/msw.test.ts',
  'test/msw-document-spec.test.ts',
  'test/browser/msw-worker.test.ts',
];

/** MSW 3 needs Node 22.12 (its `engines`); on an older Node its run is left out, and said so. */
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const mswThreeRuns = major > 22 || (major === 22 && minor >= 12);
if (!mswThreeRuns)
  process.stderr.write(`MSW 3 tests left out: Node ${process.versions.node} is older than 22.12\n`);

// The project's own tests. The contract suite (contract-tests/) runs against a
// deployment and has its own config.
export default defineConfig({
  test: {
    // Every file once with the installed MSW 2, and the MSW files once more with MSW 3. Each
    // project names its files: a project that extends this config adds to an `include` here.
    projects: [
      { extends: true, test: { name: 'main', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } },
      ...(mswThreeRuns
        ? [
            {
              extends: true as const,
              // msw and msw/node, as the sources and tests import them, are MSW 3's.
              resolve: { alias: [{ find: /^msw(?=\/|$)/, replacement: 'msw3' }] },
              test: { name: 'msw3', include: MSW_FILES, env: { PETSTORE_KIT_MSW_MAJOR: '3' } },
            },
          ]
        : []),
    ],
    // The tests of a frontend project of its own, which test/recipes/ run there.
    exclude: [...configDefaults.exclude, 'test/recipes/frontend-app/**'],
    // A bound only, for a test that hangs: a passing test ends when it is done. Tests that run
    // the built CLI's whole contract suite took over 20 s (the old bound) at a load of 20 on two
    // cores, and failed for it (test/contract-cli.test.ts, its first two tests).
    testTimeout: 60_000,
    // Hooks start Chromium, Redis servers and replica processes: on two busy cores that can
    // take longer than Vitest's 10 s default. A hook that hangs still fails, a minute later.
    hookTimeout: 60_000,
    // Two files at once even on 2 cores (vitest's default there is one): most files wait on
    // servers, browsers and child processes, and the suite took 618 s with one worker, 365 s
    // with two, all green (npx vitest run --maxWorkers=2).
    maxWorkers: 2,
    // Each worker keeps the modules it imported from one file to the next instead of importing
    // src/ (and ajv, faker...) again for each of the 90 files: 15 unit files took 17 s instead
    // of 28 s (npx vitest run --no-isolate <files>), the whole suite 1,232 s instead of 1,867 s
    // on a busy machine. No test file mocks modules or leaves process.env changed, and files
    // still run one at a time in each worker.
    isolate: false,
    sequence: { sequencer: SlowestFirst },
    // After the default summary: a banner when tests were skipped for want of Chromium or
    // redis-server.
    reporters: [
      'default',
      new SkipBannerReporter(process.stderr, [
        { prefix: SKIP_NOTE_PREFIX, what: 'browser tests' },
        { prefix: REDIS_SKIP_NOTE_PREFIX, what: 'Redis tests' },
      ]),
    ],
  },
});
