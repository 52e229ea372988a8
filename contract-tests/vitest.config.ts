import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The suite's reporter: silent while the rules run; `petstore-kit contract` prints the report. */
export const CONTRACT_REPORTER = fileURLToPath(new URL('./reporter.ts', import.meta.url));

/**
 * Where the suite's compiled modules are kept between runs: the user's cache directory, never
 * a shared one (another user could plant modules there), nor node_modules (read-only when
 * installed globally). `PETSTORE_KIT_CONTRACT_CACHE` names another directory, or `off`.
 * @default $XDG_CACHE_HOME/petstore-kit/contract, else ~/.cache/petstore-kit/contract
 */
function moduleCache(): { fsModuleCache: boolean; fsModuleCachePath?: string } {
  const chosen = process.env.PETSTORE_KIT_CONTRACT_CACHE;
  if (chosen === 'off') return { fsModuleCache: false };
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return {
    fsModuleCache: true,
    fsModuleCachePath: chosen || join(base, 'petstore-kit', 'contract'),
  };
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
    // Compiling the suite's TypeScript was a third of the start-up of every run: it is kept.
    experimental: moduleCache(),
  },
});
