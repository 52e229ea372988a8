// How `petstore-kit contract` runs its suite: the built CLI runs the suite compiled beside it,
// handed to Node as it is (nothing transformed, nothing cached, so two runs at once share no
// files); run from its sources it transforms the TypeScript suite, and keeps what it compiled
// only where the user asks (PETSTORE_KIT_CONTRACT_CACHE): a shared cache on by default made
// one of two runs at once stop with ENOENT, exit 2 ("could not judge"), in this project's CI.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { locateSuite, moduleCache, suiteOptions } from '../src/cli/contract-suite.js';

const SOURCES = fileURLToPath(new URL('../contract-tests/', import.meta.url));

describe("the contract suite's modules", () => {
  it('run from the sources when the CLI does, the module cache off unless asked for', () => {
    const suite = locateSuite();
    expect(suite).toEqual({ root: SOURCES, compiled: false, reporter: `${SOURCES}reporter.ts` });
    expect(existsSync(suite.reporter)).toBe(true);
    expect(suiteOptions(suite, {}).experimental).toEqual({ fsModuleCache: false });
    expect(moduleCache({ PETSTORE_KIT_CONTRACT_CACHE: 'off' })).toEqual({ fsModuleCache: false });
    expect(
      suiteOptions(suite, { PETSTORE_KIT_CONTRACT_CACHE: '/tmp/my-contract-cache' }).experimental,
    ).toEqual({ fsModuleCache: true, fsModuleCachePath: '/tmp/my-contract-cache' });
  });

  it('compiled go to Node untransformed, with no cache whatever the environment says', () => {
    const options = suiteOptions(
      { root: '/x/dist/contract-tests/', compiled: true, reporter: '/x/reporter.js' },
      { PETSTORE_KIT_CONTRACT_CACHE: '/tmp/my-contract-cache' },
    );
    expect(options.include).toEqual(['*.contract.test.js']);
    expect(options.experimental).toEqual({ fsModuleCache: false });
    expect(options.server?.deps.external.some((pattern) => pattern.test('/x/rules.js'))).toBe(true);
  });
});
