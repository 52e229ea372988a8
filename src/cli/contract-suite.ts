import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where the contract suite's rules are and how vitest runs them, given inline to
 * `createVitest` (no config file: vite bundling one cost every run a few hundred ms).
 *
 * `npm run build` compiles the suite to JavaScript beside the CLI (dist/contract-tests/), and
 * the run hands those modules to Node as they are (`server.deps.external`): no module is
 * transformed at run time, so a run has nothing to cache and two runs at once share no files.
 * The CLI run from its sources (src/, under tsx or vitest) has no compiled suite beside it and
 * runs the TypeScript suite in contract-tests/, which vitest transforms.
 */
export interface ContractSuite {
  /** The folder holding the suite's test file. */
  root: string;
  /** Whether `root` holds the compiled suite (dist/contract-tests) rather than its sources. */
  compiled: boolean;
  /** The suite's silent reporter (contract-tests/reporter.ts). */
  reporter: string;
}

/** The compiled suite beside this module when it runs from dist/cli/, else the sources. */
export function locateSuite(): ContractSuite {
  const compiled = fileURLToPath(new URL('../contract-tests/', import.meta.url));
  if (existsSync(`${compiled}categories.contract.test.js`))
    return { root: compiled, compiled: true, reporter: `${compiled}reporter.js` };
  const sources = fileURLToPath(new URL('../../contract-tests/', import.meta.url));
  return { root: sources, compiled: false, reporter: `${sources}reporter.ts` };
}

/**
 * The vitest options of a run of the suite: its rules one after another (some create data that
 * others then look for), no time limit per rule (each request has its own, --timeout, and every
 * rule its own bound, --rule-timeout).
 */
export function suiteOptions(suite: ContractSuite, env: NodeJS.ProcessEnv = process.env) {
  return {
    config: false as const,
    root: suite.root,
    include: [suite.compiled ? '*.contract.test.js' : '*.contract.test.ts'],
    watch: false,
    testTimeout: 0,
    pool: 'threads' as const,
    fileParallelism: false,
    sequence: { concurrent: false },
    // The compiled suite's modules go to Node as they are: only its test file passes through vite.
    ...(suite.compiled ? { server: { deps: { external: [/\.js$/] } } } : {}),
    experimental: suite.compiled ? { fsModuleCache: false } : moduleCache(env),
  };
}

/**
 * Where the TypeScript suite's compiled modules are kept between runs, when the user asks:
 * `PETSTORE_KIT_CONTRACT_CACHE` names a directory of the user's own. Off by default: vitest's
 * module cache is experimental, and two runs at once on one cache (two CI jobs on one runner)
 * made one of them fail with ENOENT on a file the other moved. The built CLI needs none: its
 * suite is compiled already.
 * @default off
 */
export function moduleCache(env: NodeJS.ProcessEnv = process.env): {
  fsModuleCache: boolean;
  fsModuleCachePath?: string;
} {
  const chosen = env.PETSTORE_KIT_CONTRACT_CACHE;
  if (!chosen || chosen === 'off') return { fsModuleCache: false };
  return { fsModuleCache: true, fsModuleCachePath: chosen };
}
