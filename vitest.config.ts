import { defineConfig } from 'vitest/config';
import { BrowserSkipReporter } from './test/browser/skip-reporter.js';

// The project's own tests. The contract suite (contract-tests/) runs against a
// deployment and has its own config.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    // After the default summary: a banner when browser tests were skipped for want of Chromium.
    reporters: ['default', new BrowserSkipReporter()],
  },
});
