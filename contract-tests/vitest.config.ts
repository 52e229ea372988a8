import { defineConfig } from 'vitest/config';
import type { ContractEnv } from './target.js';

// Read here, in the main process: inside test files vitest mirrors Vite's env into
// process.env, where BASE_URL is Vite's own and reads "/".
const contractEnv: ContractEnv = {
  BASE_URL: process.env.BASE_URL,
  API_KEY: process.env.API_KEY,
  CONTRACT_READ_ONLY: process.env.CONTRACT_READ_ONLY,
  CONTRACT_RUN_ID: process.env.CONTRACT_RUN_ID,
};

// The contract suite against a deployment: rules run one after another (some create data
// that others then look for), each with room for a slow network.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['**/*.contract.test.ts'],
    provide: { contractEnv },
    testTimeout: 30_000,
    fileParallelism: false,
    sequence: { concurrent: false },
  },
});
