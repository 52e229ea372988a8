import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** How to get Chromium where it is missing; Playwright's own download cannot be reached here. */
export const INSTALL_HINT = 'Install it: apt-get install chromium (or set CHROMIUM_PATH)';

/** Every skip note of a browser test starts so; the skip reporter looks for it. */
export const SKIP_NOTE_PREFIX = 'BROWSER TESTS SKIPPED';

/**
 * The features Playwright 1.65 turns off in every Chromium it launches (its `chromiumSwitches`).
 * Chromium keeps the last `--disable-features` it is given, so ours repeats them;
 * test/browser/chromium-args.test.ts fails when a Playwright upgrade adds one.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium 156 gives every page's window an address-bar popup made of two WebUI pages
 * (chrome://omnibox-popup.top-chrome/), in a renderer of their own that spends about 1.8 CPU s
 * starting, for a popup no headless test opens: off. And a spare renderer, started ahead for the
 * next page, serves none of ours: each page is in a context of its own, which a spare of another
 * context cannot serve, so every page cost a renderer started for nothing (decisions/056).
 */
export const DISABLED_FEATURES = [
  ...PLAYWRIGHT_DISABLED_FEATURES,
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'SpareRendererForSitePerProcess',
];

/**
 * Flags beside the ones Playwright passes (--headless, --no-sandbox, a fresh profile):
 * a closed network refuses Chromium's background connections, many at a time.
 */
export const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

export type ChromiumLookup = { found: true; path: string } | { found: false; why: string };

/**
 * Where Chromium is: `CHROMIUM_PATH` when set, else /usr/bin/chromium (Debian's package),
 * else `chromium` or `chromium-browser` on the PATH.
 * @example findChromium(process.env) // { found: true, path: '/usr/bin/chromium' }
 */
export function findChromium(env: NodeJS.ProcessEnv): ChromiumLookup {
  if (env.CHROMIUM_PATH) {
    return isExecutable(env.CHROMIUM_PATH)
      ? { found: true, path: env.CHROMIUM_PATH }
      : { found: false, why: `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file` };
  }
  const onPath = (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .flatMap((dir) => [join(dir, 'chromium'), join(dir, 'chromium-browser')]);
  const path = ['/usr/bin/chromium', ...onPath].find(isExecutable);
  return path
    ? { found: true, path }
    : { found: false, why: 'no /usr/bin/chromium, and no chromium or chromium-browser on PATH' };
}

/** Whether a missing Chromium must fail the run: in CI, which installs it (.ci/run). */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
