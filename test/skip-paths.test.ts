// Where Chromium or redis-server is missing, their tests must never vanish quietly: a local run
// skips them and says so after its summary, a banner for each; a CI run fails. One Vitest of
// its own for both: each run of one costs seconds of CPU in start-up alone.
import { describe, expect, it } from 'vitest';
import { runVitest } from './vitest-run.js';

// Files that import little of src/: the nested run transforms all it imports afresh, and the
// skip path is the same in every file of a kind (withChromium, withRedis).
const BROWSER_FILES = [
  'test/browser/playwright-fixture.test.ts',
  'test/recipes/playwright.test.ts',
];
const REDIS_FILES = ['test/redis-failure.test.ts'];

/** The browser and Redis test files in a vitest of their own, as `npm test` runs them, without either. */
function runWithout(env: Record<string, string>) {
  return runVitest([...BROWSER_FILES, ...REDIS_FILES], {
    CHROMIUM_PATH: '/nonexistent/chromium',
    REDIS_SERVER_PATH: '/nonexistent/redis-server',
    ...env,
  });
}

/** How many tests the files skipped, each file every one of its tests, by Vitest's line for it. */
function skippedIn(output: string, files: readonly string[]): number {
  return files
    .map((file) => new RegExp(`${file.replaceAll('.', '\\.')} \\((\\d+) tests? \\| \\1 skipped\\)`))
    .map((line) => Number(line.exec(output)?.[1]))
    .reduce((sum, count) => sum + count, 0);
}

// Concurrent: each is a vitest run of its own, a few seconds of start-up. Three minutes each,
// not Vitest's one: the two start at once, and on two busy cores a run can take more.
describe.concurrent('without Chromium and redis-server', { timeout: 180_000 }, () => {
  it('a local run passes, and its summary ends with a banner for each saying how to install it', async () => {
    const { code, output } = await runWithout({});
    expect(code, output).toBe(0);
    // Every test skipped, however many there are, and each banner counts its own.
    const skipped = Number(/Tests\s+(\d+) skipped \(\1\)/.exec(output)?.[1]);
    const browser = skippedIn(output, BROWSER_FILES);
    const redis = skippedIn(output, REDIS_FILES);
    expect(browser, output).toBeGreaterThan(0);
    expect(redis, output).toBeGreaterThan(0);
    expect(browser + redis, output).toBe(skipped);
    const afterSummary = output.slice(output.indexOf('Duration'));
    expect(afterSummary).toContain(
      'BROWSER TESTS SKIPPED: Chromium not found (CHROMIUM_PATH=/nonexistent/chromium is not an executable file). ' +
        'Install it: apt-get install chromium (or set CHROMIUM_PATH)',
    );
    expect(afterSummary).toContain(`(${browser} browser tests did not run)`);
    expect(afterSummary).toContain(
      'REDIS TESTS SKIPPED: redis-server not found (REDIS_SERVER_PATH=/nonexistent/redis-server is not an executable file). ' +
        'Install it: apt-get install redis-server (or set REDIS_SERVER_PATH)',
    );
    expect(afterSummary).toContain(`(${redis} Redis tests did not run)`);
  });

  it('a CI run fails instead of skipping, every file of both', async () => {
    const { code, output } = await runWithout({ CI: 'true' });
    expect(code, output).toBe(1);
    expect(output).toContain('The browser tests cannot run in CI: Chromium not found');
    expect(output).toContain('The Redis tests cannot run in CI: redis-server not found');
    const files = BROWSER_FILES.length + REDIS_FILES.length;
    expect(output).toContain(`Test Files  ${files} failed (${files})`);
  });
});
