// Vitest's global setup: every temporary file of a run (the tests', and those of the CLIs,
// Chromium, Playwright and Vite they start) goes in one folder, removed when the run ends.
// `os.tmpdir()` reads TMPDIR, which the workers and every process they start inherit; the
// files' own clean-up stays, this is what a failed or killed test leaves.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Set to the run's folder: a nested Vitest run (or another project's setup) uses it as it is. */
export const TEMP_ROOT_VARIABLE = 'PETSTORE_KIT_TEST_TMPDIR' as const;

/**
 * Points TMPDIR at a new folder of the run's, unless one is in use already.
 * @returns what ends it: TMPDIR as it was, and the folder removed (by the setup that made it)
 * @example const end = useTempRoot(process.env); ...; end();
 */
export function useTempRoot(env: NodeJS.ProcessEnv): () => void {
  if (env[TEMP_ROOT_VARIABLE]) return () => {};
  const outer = env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'petstore-kit-tests-'));
  env.TMPDIR = root;
  env[TEMP_ROOT_VARIABLE] = root;
  return () => {
    if (outer === undefined) delete env.TMPDIR;
    else env.TMPDIR = outer;
    delete env.PETSTORE_KIT_TEST_TMPDIR;
    // A browser still closing may write in its profile meanwhile: what is left stays, and no
    // run fails for it.
    try {
      rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // left in the system's temporary folder, which it cleans
    }
  };
}

export default function setup(): () => void {
  return useTempRoot(process.env);
}
