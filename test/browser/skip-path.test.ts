// Where Chromium is missing the browser tests must never vanish quietly: a local run
// skips them and says so after its summary; a CI run fails.
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runVitest } from '../vitest-run.js';
import { findChromium, isCi } from './chromium.js';

/** The browser test files in a vitest of their own, as `npm test` runs them, without Chromium. */
function runBrowserTests(env: Record<string, string>) {
  return runVitest(['test/browser/fetch-from-page.test.ts', 'test/recipes/playwright.test.ts'], {
    CHROMIUM_PATH: '/nonexistent/chromium',
    ...env,
  });
}

// Concurrent: each is a vitest run of its own, a few seconds of start-up. Three minutes each,
// not Vitest's one: the two start at once, and on two busy cores a run can take more.
describe.concurrent('without Chromium', { timeout: 180_000 }, () => {
  it('a local run passes, and its summary ends with a banner saying how to install it', async () => {
    const { code, output } = await runBrowserTests({});
    expect(code, output).toBe(0);
    // Every browser test skipped, however many there are, and the banner counts them.
    const skipped = /Tests\s+(\d+) skipped \(\1\)/.exec(output)?.[1];
    expect(Number(skipped), output).toBeGreaterThan(0);
    const afterSummary = output.slice(output.indexOf('Duration'));
    expect(afterSummary).toContain(
      'BROWSER TESTS SKIPPED: Chromium not found (CHROMIUM_PATH=/nonexistent/chromium is not an executable file). ' +
        'Install it: apt-get install chromium (or set CHROMIUM_PATH)',
    );
    expect(afterSummary).toContain(`(${skipped} browser tests did not run)`);
  });

  it('a CI run fails instead of skipping', async () => {
    const { code, output } = await runBrowserTests({ CI: 'true' });
    expect(code, output).toBe(1);
    expect(output).toContain('The browser tests cannot run in CI: Chromium not found');
    expect(output).toMatch(/Test Files {2}2 failed \(2\)/);
  });
});

describe('findChromium', () => {
  it('takes CHROMIUM_PATH first, else looks for chromium and chromium-browser on PATH', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-kit-chromium-'));
    const fake = join(dir, 'chromium-browser');
    await writeFile(fake, '#!/bin/sh\n');
    await chmod(fake, 0o755);
    expect(findChromium({ CHROMIUM_PATH: fake })).toEqual({ found: true, path: fake });
    expect(findChromium({ CHROMIUM_PATH: join(dir, 'nothing') })).toMatchObject({ found: false });
    const onPath = findChromium({ PATH: dir });
    // Debian's /usr/bin/chromium wins where it is installed.
    expect(onPath).toEqual({ found: true, path: expect.stringMatching(/chromium(-browser)?$/) });
  });

  it('CI counts as set unless empty, false or 0', () => {
    expect([undefined, '', 'false', '0', 'true', '1'].map((CI) => isCi({ CI }))).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
    ]);
  });
});
