import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The suite's reporter: silent while the rules run; `petstore-kit contract` prints the report. */
export const CONTRACT_REPORTER = fileURLToPath(new URL('./reporter.ts', import.meta.url));

// The contract suite against a deployment: rules run one after another (some create data
// that others then look for). `petstore-kit contract` provides the plan and the target.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['**/*.contract.test.ts'],
    reporters: [CONTRACT_REPORTER],
    // No time limit per rule: each request has its own (--timeout), and every wait is bounded.
    testTimeout: 0,
    pool: 'threads',
    fileParallelism: false,
    sequence: { concurrent: false },
  },
});
