import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The suite's reporter: silent while the rules run; `petstore-kit contract` prints the report. */
export const CONTRACT_REPORTER = fileURLToPath(new URL('./reporter.ts', import.meta.url));

/**
 * Where the suite's compiled modules are kept between runs, when the user asks for it:
 * `PETSTORE_KIT_CONTRACT_CACHE` names a directory of the user's own (never a shared one, where
 * another user could plant modules, nor node_modules, read-only when installed globally).
 * Off by default: vitest's module cache is experimental, and two runs at once on one cache
 * (two CI jobs on one runner) made one of them fail with ENOENT on a file the other moved.
 * A run that cannot judge for its own cache's sake is worse than a run 0.8 s slower.
 * @default off
 */
function moduleCache(): { fsModuleCache: boolean; fsModuleCachePath?: string } {
  const chosen = process.env.PETSTORE_KIT_CONTRACT_CACHE;
  if (!chosen || chosen === 'off') return { fsModuleCache: false };
  return { fsModuleCache: true, fsModuleCachePath: chosen };
}

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
    // Compiling the suite's TypeScript is a third of a run's start-up: kept when asked (above).
    experimental: moduleCache(),
  },
});
