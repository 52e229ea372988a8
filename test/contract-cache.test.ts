// The contract suite's module cache (vitest's experimental fsModuleCache) is the user's choice:
// on by default, two runs at once on one cache directory made one stop with ENOENT, exit 2
// ("could not judge"), in this project's own CI.
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The suite's vitest config as a run with `cache` in its environment reads it. */
async function configWith(cache: string | undefined) {
  vi.resetModules();
  if (cache === undefined) delete process.env.PETSTORE_KIT_CONTRACT_CACHE;
  else process.env.PETSTORE_KIT_CONTRACT_CACHE = cache;
  const { default: config } = await import('../contract-tests/vitest.config.js');
  return config.test?.experimental;
}

const saved = process.env.PETSTORE_KIT_CONTRACT_CACHE;
afterEach(() => {
  if (saved === undefined) delete process.env.PETSTORE_KIT_CONTRACT_CACHE;
  else process.env.PETSTORE_KIT_CONTRACT_CACHE = saved;
});

describe("the contract suite's module cache", () => {
  it('is off unless asked for, so that concurrent runs share nothing', async () => {
    expect(await configWith(undefined)).toEqual({ fsModuleCache: false });
    expect(await configWith('off')).toEqual({ fsModuleCache: false });
  });

  it('is kept in the directory the user names', async () => {
    expect(await configWith('/tmp/my-contract-cache')).toEqual({
      fsModuleCache: true,
      fsModuleCachePath: '/tmp/my-contract-cache',
    });
  });
});
