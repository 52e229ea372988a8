import { configDefaults, defineConfig } from 'vitest/config';
import { SKIP_NOTE_PREFIX } from './test/browser/chromium.js';
import { SkipBannerReporter } from './test/browser/skip-reporter.js';
import { REDIS_SKIP_NOTE_PREFIX } from './test/redis/find-redis.js';

// The project's own tests. The contract suite (contract-tests/) runs against a
// deployment and has its own config.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The tests of a frontend project of its own, which test/recipes/ run there.
    exclude: [...configDefaults.exclude, 'test/recipes/frontend-app/**'],
    testTimeout: 20_000,
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
