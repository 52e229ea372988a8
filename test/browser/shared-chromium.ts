// One Chromium for each Vitest worker, shared by the browser files it runs, each file in
// contexts of its own: a launch costs a few CPU seconds, a context a fraction of one. Vitest's
// `isolate: false` keeps this module, and so the browser, from one file to the next; Chromium
// ends with the worker, which holds the other end of its pipe.
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS } from './chromium.js';

/** The worker's browser, by Chromium's path. */
const launched = new Map<string, Promise<Browser>>();

/**
 * The worker's Chromium at `path`, launched on the first call. A file opens its own contexts or
 * pages and closes them; it never closes the browser, which the next file uses.
 * @example const browser = await sharedChromium(lookup.path); const context = await browser.newContext();
 */
export function sharedChromium(path: string): Promise<Browser> {
  const known = launched.get(path);
  if (known) return known;
  const browser = chromium.launch({ executablePath: path, args: CHROMIUM_ARGS });
  launched.set(path, browser);
  // A launch that failed, or a browser that crashed, is launched again by the next file.
  const forget = () => launched.get(path) === browser && launched.delete(path);
  browser.then((opened) => opened.on('disconnected', forget), forget);
  return browser;
}
