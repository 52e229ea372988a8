// Our `--disable-features` replaces Playwright's own (Chromium keeps the last one given), so it
// must name every feature Playwright turns off: read them where Playwright lists them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { CHROMIUM_ARGS, DISABLED_FEATURES } from './chromium.js';

it('turns off every feature Playwright turns off, and the omnibox popup’s WebUI', () => {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('playwright-core/package.json'));
  const bundle = readFileSync(join(root, 'lib/coreBundle.js'), 'utf8');
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle)?.[1];
  expect(list, 'Playwright’s list of disabled features was not found where it was').toBeDefined();
  const playwrights = [...list!.matchAll(/^\s*"([^"]+)"/gm)].map((match) => match[1]);
  expect(playwrights.length).toBeGreaterThan(5);
  expect(DISABLED_FEATURES).toEqual(expect.arrayContaining(playwrights));
  expect(DISABLED_FEATURES).toEqual(
    expect.arrayContaining(['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']),
  );
  expect(CHROMIUM_ARGS.filter((arg) => arg.startsWith('--disable-features='))).toEqual([
    `--disable-features=${DISABLED_FEATURES.join(',')}`,
  ]);
});
