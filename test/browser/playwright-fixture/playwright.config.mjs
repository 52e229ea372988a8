/* global process */
// The Playwright config a frontend team writes for petstore-kit/playwright: one mock for every
// worker, started by `webServer` (MOCK_PORT), or none, and each worker starts its own.
import { defineConfig } from '@playwright/test';

const port = process.env.MOCK_PORT;
const mockUrl = port ? `http://127.0.0.1:${port}/v1` : undefined;

export default defineConfig({
  testDir: '.',
  fullyParallel: true,
  workers: 3,
  reporter: 'list',
  use: {
    mockUrl,
    // Playwright's own browser download is out of reach: the system's Chromium.
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH,
      args: ['--disable-gpu', '--no-first-run'],
    },
  },
  webServer: port
    ? {
        command: `node ${process.env.PETSTORE_KIT_BIN} mock --port ${port} --quiet`,
        url: `${mockUrl}/categories`,
        reuseExistingServer: false,
      }
    : undefined,
});
