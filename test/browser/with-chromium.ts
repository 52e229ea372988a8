// For a file of browser tests: where Chromium is missing, they are skipped with a note that the
// skip reporter shows after the summary; in CI they fail instead.
import { beforeAll, beforeEach } from 'vitest';
import {
  findChromium,
  INSTALL_HINT,
  isCi,
  SKIP_NOTE_PREFIX,
  type ChromiumLookup,
} from './chromium.js';

/**
 * Looks for Chromium and, where it is missing, registers the file's hooks: each test skipped
 * with a note, or in CI a failure that says why.
 * @returns the lookup, so that hooks can do nothing without Chromium.
 * @example const chromiumLookup = withChromium(); beforeAll(async () => { if (!chromiumLookup.found) return; ... });
 */
export function withChromium(): ChromiumLookup {
  const lookup = findChromium(process.env);
  if (lookup.found) return lookup;
  const missing = `Chromium not found (${lookup.why}). ${INSTALL_HINT}`;
  if (isCi(process.env)) {
    // CI installs Chromium (.ci/run): there, a missing one is a broken CI, not a reason to skip.
    beforeAll(() => {
      throw new Error(`The browser tests cannot run in CI: ${missing}`);
    });
  } else {
    beforeEach((ctx) => ctx.skip(`${SKIP_NOTE_PREFIX}: ${missing}`));
  }
  return lookup;
}
