/* global process */
// The docs' Playwright config for petstore-kit/playwright, with the docs' Vite dev server in
// front of the mock: the page calls its own origin, and Vite's proxy forwards `/v1` to the mock.
import { defineConfig } from '@playwright/test';

const mockPort = process.env.MOCK_PORT;
const appPort = process.env.APP_PORT;
const mockOrigin = `http://127.0.0.1:${mockPort}`;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers: 1,
  reporter: 'list',
  // The Chromium, Vite and the mock share two cores with other work: a minute a test and 15 s
  // for what a page shows, not Playwright's 30 s and 5 s. A passing test waits no longer.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${appPort}`,
    mockUrl: `${mockOrigin}/v1`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH,
      args: [
        '--disable-gpu',
        '--no-first-run',
        ...(process.env.CHROMIUM_DISABLE_FEATURES
          ? [`--disable-features=${process.env.CHROMIUM_DISABLE_FEATURES}`]
          : []),
      ],
    },
  },
  webServer: [
    {
      command: `node ${process.env.PETSTORE_KIT_BIN} mock --port ${mockPort} --host 127.0.0.1 --quiet`,
      url: `${mockOrigin}/v1/categories`,
      reuseExistingServer: false,
    },
    {
      command: `node node_modules/vite/bin/vite.js --host 127.0.0.1 --port ${appPort} --strictPort`,
      url: `http://127.0.0.1:${appPort}`,
      env: { MOCK_ORIGIN: mockOrigin },
      reuseExistingServer: false,
    },
  ],
});
