/* global process */
// The docs' Playwright config for petstore-kit/playwright with the mock in the page (MSW's
// worker): no `mockUrl`, so each worker's fixture starts a mock server the page never calls.
import { defineConfig } from '@playwright/test';

const appPort = process.env.APP_PORT;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  // One worker: the page's mock is the page's own, whatever worker opens it; a second worker
  // would cost a Node process more and prove nothing else.
  workers: 1,
  reporter: 'list',
  // The Chromium, Vite and the mock share two cores with other work: a minute a test and 15 s
  // for what a page shows, not Playwright's 30 s and 5 s. A passing test waits no longer.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${appPort}`,
    // No browser of its own: the worker connects to the test's Chromium (the test gives
    // PW_TEST_CONNECT_WS_ENDPOINT), launched with test/browser/chromium.ts's flags.
  },
  webServer: {
    command: `node node_modules/vite/bin/vite.js --host 127.0.0.1 --port ${appPort} --strictPort`,
    url: `http://127.0.0.1:${appPort}`,
    reuseExistingServer: false,
  },
});
