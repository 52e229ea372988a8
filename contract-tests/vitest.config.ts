import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import type { ContractEnv } from './target.js';

/** The suite's own reporter: advisories, and GitHub annotations under GitHub Actions. */
export const CONTRACT_REPORTER = fileURLToPath(new URL('./reporter.ts', import.meta.url));

// Read here, in the main process: inside test files vitest mirrors Vite's env into
// process.env, where BASE_URL is Vite's own and reads "/".
const contractEnv: ContractEnv = {
  BASE_URL: process.env.BASE_URL,
  API_KEY: process.env.API_KEY,
  CONTRACT_READ_ONLY: process.env.CONTRACT_READ_ONLY,
  CONTRACT_RUN_ID: process.env.CONTRACT_RUN_ID,
  CONTRACT_SEED: process.env.CONTRACT_SEED,
  CONTRACT_BUDGET: process.env.CONTRACT_BUDGET,
  CONTRACT_TIMEOUT: process.env.CONTRACT_TIMEOUT,
};

// The contract suite against a deployment: rules run one after another (some create data
// that others then look for).
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['**/*.contract.test.ts'],
    provide: { contractEnv },
    reporters: ['default', CONTRACT_REPORTER],
    // No time limit per rule: each request has its own (--timeout), and every wait is bounded.
    testTimeout: 0,
    pool: 'threads',
    fileParallelism: false,
    sequence: { concurrent: false },
  },
});
