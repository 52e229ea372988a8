/* global process */
// The Playwright config a frontend team writes for petstore-kit/playwright, in both of its
// forms at once, one project each: "shared", one mock for every worker, started by `webServer`
// (MOCK_PORT), and "own", no mock URL, so each worker's fixture starts a mock of its own.
// One run for both: each Playwright run and each worker costs a Chromium launch.
import { defineConfig } from '@playwright/test';

const port = process.env.MOCK_PORT;
const mockUrl = port ? `http://127.0.0.1:${port}/v1` : undefined;

export default defineConfig({
  testDir: '.',
  fullyParallel: true,
  // Two workers: two sessions on the shared mock prove "a session per worker" as three would.
  workers: 2,
  reporter: 'list',
  // The Chromiums and the mocks share two cores with the rest of `npm test`: a minute a test
  // and 15 s for what a page shows, not Playwright's 30 s and 5 s. A passing test waits no longer.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // No browser of its own: the workers connect to the test's Chromium (the test gives
  // PW_TEST_CONNECT_WS_ENDPOINT), launched with test/browser/chromium.ts's flags.
  projects: [
    ...(mockUrl ? [{ name: 'shared', use: { mockUrl } }] : []),
    { name: 'own', use: { mockUrl: undefined } },
  ],
  webServer: port
    ? {
        command: `node ${process.env.PETSTORE_KIT_BIN} mock --port ${port} --quiet`,
        url: `${mockUrl}/categories`,
        reuseExistingServer: false,
      }
    : undefined,
});
