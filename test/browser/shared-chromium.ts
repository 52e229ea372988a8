// One Chromium for each Vitest worker, shared by the browser files it runs and by the Playwright
// runs they start: a launch costs a few CPU seconds, a connection a fraction of one. The files
// that drive Chromium themselves open contexts of their own in it; a Playwright run's workers
// connect to it (PW_TEST_CONNECT_WS_ENDPOINT) instead of each launching one. Vitest's
// `isolate: false` keeps this module, and so the browser, from one file to the next; Chromium
// ends with the worker, which holds the other end of its pipe.
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { CHROMIUM_ARGS } from './chromium.js';

/** The worker's Chromium, by its path: the server, and this process's connection to it. */
interface Launched {
  server: Promise<BrowserServer>;
  browser?: Promise<Browser>;
}
const launched = new Map<string, Launched>();

/**
 * The worker's Chromium at `path`, served on a loopback WebSocket, launched on the first call.
 * @returns the server: `wsEndpoint()` is what a Playwright run connects to
 * @example (await sharedChromiumServer(lookup.path)).wsEndpoint() // ws://127.0.0.1:…
 */
function sharedChromiumServer(path: string): Promise<BrowserServer> {
  const known = launched.get(path);
  if (known) return known.server;
  const server = chromium.launchServer({
    executablePath: path,
    args: CHROMIUM_ARGS,
    host: '127.0.0.1',
  });
  const entry: Launched = { server };
  launched.set(path, entry);
  // A launch that failed, or a browser that crashed, is launched again by the next file.
  const forget = () => launched.get(path) === entry && launched.delete(path);
  server.then((opened) => opened.on('close', forget), forget);
  return server;
}

/**
 * The variables a Playwright run takes to use the worker's Chromium instead of launching its
 * own in each of its workers (Playwright's own `PW_TEST_CONNECT_WS_ENDPOINT`, which a config's
 * `connectOptions` and `launchOptions` give way to). A config run as written stays as written.
 * @example spawn(node, [cli, 'test'], { env: { ...env, ...(await sharedChromiumEnv(path)) } })
 */
export async function sharedChromiumEnv(
  path: string,
): Promise<{ PW_TEST_CONNECT_WS_ENDPOINT: string }> {
  return { PW_TEST_CONNECT_WS_ENDPOINT: (await sharedChromiumServer(path)).wsEndpoint() };
}

/**
 * The worker's Chromium at `path`, connected to once. A file opens its own contexts or pages and
 * closes them; it never closes the browser, which the next file uses.
 * @example const browser = await sharedChromium(lookup.path); const context = await browser.newContext();
 */
export function sharedChromium(path: string): Promise<Browser> {
  const server = sharedChromiumServer(path);
  const entry = launched.get(path)!;
  if (entry.browser) return entry.browser;
  const browser = server.then((opened) => chromium.connect(opened.wsEndpoint()));
  entry.browser = browser;
  // A connection lost is made again by the next file.
  const forget = () => entry.browser === browser && delete entry.browser;
  browser.then((connected) => connected.on('disconnected', forget), forget);
  return browser;
}
