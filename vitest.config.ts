import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SKIP_NOTE_PREFIX } from './test/browser/chromium.js';
import { SkipBannerReporter } from './test/browser/skip-reporter.js';
import { REDIS_SKIP_NOTE_PREFIX } from './test/redis/find-redis.js';
import { processTestFiles } from './test/test-tiers.js';

/**
 * The slowest files by wall time, slowest first, started before the other files of their project
 * so that the workers end together: a file of half a minute started last keeps one worker
 * busy while the others have nothing left. Vitest orders files by the durations it keeps in
 * node_modules/.vite, which a fresh clone (CI) has not, and then starts the largest first.
 * Ranked by the seconds each took in a whole run (decisions/047); a file past about 8 s belongs
 * here.
 */
const SLOWEST_FIRST = [
  'test/contract-proof.test.ts', // the contract suite against every faulty server, in-process
  'test/browser/playwright-msw.test.ts', // Vite, mocks in the page, the worker's Chromium
  'test/cli.test.ts', // the CLI in process; the built one for signals, kill -9, time zones
  'test/browser/playwright-fixture.test.ts', // one Playwright run on the worker's Chromium
  'test/browser/playwright-docs-config.test.ts', // Vite, the mock, Chromium, six tests
  'test/redis-mock.test.ts', // replicas in process, one built CLI killed with kill -9
  'test/browser/inspector.test.ts', // the worker's Chromium launched
  'test/recipes/playwright.test.ts', // Vite, the mock and two Chromiums
  'test/redis-team.test.ts', // replicas and Redis servers started, stopped, frozen
  'test/corpus-large/probe.test.ts', // the built mock over the largest descriptions
  'test/types-corpus.test.ts', // TypeScript 5 in the process, TypeScript 7's tsc
  'test/skip-paths.test.ts', // two Vitest runs without Chromium and redis-server
  'test/proxy.test.ts', // the built CLI's proxy
  'test/readme-snippets.test.ts', // the snippets of every page type-checked
  'test/contract-receiver.test.ts', // waits for webhooks that come, and for one that does not
  'test/recipes/vitest.test.ts', // the recipes' Vitest run
  'test/contract-cli.test.ts', // the contract suite run in process, twice by the built CLI
  'test/stream-adapters.test.ts', // a send timeout waited out
  'test/contract-realworld.test.ts', // the contract CLI against public documents' mocks
  'test/corpus.test.ts', // a mock for each document of the corpus
];

/**
 * Each project's files together, MSW 3's three first: a worker is a process of one project, and
 * when the next file is of another project Vitest stops the worker and starts a new one, which
 * imports src/ and its libraries again (decisions/063). Each worker goes on to `node` once done
 * with them, where the short files come last so that the workers end together (decisions/064).
 */
const PROJECT_ORDER = ['msw3', 'node'];

/** Vitest's order (durations kept, else the largest file first), by project, each one's slowest first. */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): [number, number] => {
      const path = relative(file.project.config.root, file.moduleId).split(sep).join('/');
      const project = PROJECT_ORDER.indexOf(file.project.name);
      const known = SLOWEST_FIRST.indexOf(path);
      return [
        project === -1 ? PROJECT_ORDER.length : project,
        known === -1 ? SLOWEST_FIRST.length : known,
      ];
    };
    return (await super.sort(files)).sort((a, b) => {
      const [projectA, knownA] = rank(a);
      const [projectB, knownB] = rank(b);
      return projectA - projectB || knownA - knownB;
    });
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

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const TEST_FILES = ['src/**/*.test.ts', 'test/**/*.test.ts'];
// test/recipes/frontend-app/ holds the tests of a frontend project, which test/recipes/ run there.
const EXCLUDE = [...configDefaults.exclude, 'test/recipes/frontend-app/**'];

/**
 * Runs over the public descriptions of the corpus, as `npm run test:corpus` is: their own script
 * (`npm run test:corpus-mocks`, which CI runs), not `npm test`'s.
 */
const CORPUS_FILES = ['test/corpus.test.ts', 'test/contract-realworld.test.ts'];

/**
 * Install fresh apps from the npm registry, as a reader does (a minute of CPU and minutes of
 * network): their own script (`npm run test:registry`, which CI runs), not `npm test`'s.
 */
const REGISTRY_FILES = ['test/recipes/fresh-app.test.ts'];

/**
 * Not `test:fast`'s (`vitest --mode fast`): the files that start the built CLI, Chromium,
 * Playwright, redis-server or tsc, and the one in-process file of over a minute of CPU, the
 * contract suite's proof. Read from the files only when asked for.
 */
function slowFiles(): string[] {
  return [
    ...processTestFiles(ROOT, ['src', 'test']).filter(
      (file) => !CORPUS_FILES.includes(file) && !REGISTRY_FILES.includes(file),
    ),
    'test/contract-proof.test.ts',
  ];
}

/**
 * `npm test`'s files in Node with the installed MSW 2: one project, so that a worker goes on from
 * the files that start processes to the in-process ones without being started again
 * (decisions/064). `--mode fast` (`npm run test:fast`) makes it `fast`, without those that start
 * processes.
 */
function nodeProject(mode: string): TestProjectInlineConfiguration {
  const exclude = [...EXCLUDE, ...CORPUS_FILES, ...REGISTRY_FILES];
  return mode === 'fast'
    ? {
        extends: true,
        test: { name: 'fast', include: TEST_FILES, exclude: [...exclude, ...slowFiles()] },
      }
    : { extends: true, test: { name: 'node', include: TEST_FILES, exclude } };
}

// The project's own tests. The contract suite (contract-tests/) runs against a
// deployment and has its own config.
export default defineConfig(({ mode }) => ({
  test: {
    // Every file once with the installed MSW 2, in one of three projects: `node` (what `npm test`
    // runs), `corpus` and `registry`; and the MSW files once more with MSW 3. With `--mode fast`,
    // only the in-process files of `node`, as the project `fast`. Each project names its files:
    // a project that extends this config adds to an `include` here.
    projects:
      mode === 'fast'
        ? [nodeProject(mode)]
        : [
            nodeProject(mode),
            { extends: true, test: { name: 'corpus', include: CORPUS_FILES } },
            { extends: true, test: { name: 'registry', include: REGISTRY_FILES } },
            ...(mswThreeRuns
              ? [
                  {
                    extends: true as const,
                    // msw and msw/node, as the sources and tests import them, are MSW 3's.
                    resolve: { alias: [{ find: /^msw(?=\/|$)/, replacement: 'msw3' }] },
                    test: {
                      name: 'msw3',
                      include: MSW_FILES,
                      env: { PETSTORE_KIT_MSW_MAJOR: '3' },
                    },
                  },
                ]
              : []),
          ],
    exclude: EXCLUDE,
    // Every folder a test makes in the system's temporary folder lies in its run's folder, and
    // is removed when its test or its file ends; a run that leaves one fails, naming it.
    globalSetup: ['test/temp-folders-run.ts'],
    setupFiles: ['test/temp-folders-file.ts'],
    // A bound only, for a test that hangs: a passing test ends when it is done. A run of the
    // built CLI's whole contract suite can take over 20 s on two busy cores.
    testTimeout: 60_000,
    // Hooks start Chromium, Redis servers and replica processes: on two busy cores that can
    // take longer than Vitest's 10 s default. A hook that hangs still fails, a minute later.
    hookTimeout: 60_000,
    // Three files at once on 2 cores for `npm test`: most wait on servers, browsers and child
    // processes, and a third worker fills that wait (decisions/065). The in-process files of
    // `--mode fast` keep a core busy each: a third there would only import src/ once more.
    maxWorkers: mode === 'fast' ? 2 : 3,
    // Each worker keeps the modules it imported from one file to the next, instead of importing
    // src/ (and ajv, faker...) again for each file (decisions/031). One file mocks a module
    // (test/options-read.test.ts, which resets the modules it mocked when it ends); none leaves
    // process.env changed, and files still run one at a time in each worker.
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
}));
