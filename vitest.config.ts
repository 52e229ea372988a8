import { defineConfig } from 'vitest/config';

// The project's own tests. The contract suite (contract-tests/) runs against a
// deployment and has its own config.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
