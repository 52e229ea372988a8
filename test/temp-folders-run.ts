// Vitest's globalSetup (vitest.config.ts): each project's run makes one folder in the system's
// temporary folder, inside which test/temp-folders.ts makes every folder a test needs, and fails
// the run when a test left anything in it. One folder a run, not a prefix in the shared folder:
// another run at the same time (a second checkout, CI's jobs) never counts as this one's.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/** How every folder the tests make in the system's temporary folder begins. */
export const TEMP_PREFIX = 'petstore-kit-test-';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's folder in the system's temporary folder (test/temp-folders.ts). */
    tempRoot: string;
  }
}

/**
 * Makes the run's folder and hands it to the project's tests; at teardown, which Vitest runs
 * once every file has ended (its `afterAll` hooks too), names what is left, fails the run if
 * anything is, and removes the folder.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = await mkdtemp(join(tmpdir(), TEMP_PREFIX));
  project.provide('tempRoot', root);
  return async () => {
    const left = await readdir(root);
    if (left.length > 0) {
      process.stderr.write(
        `\n${'!'.repeat(72)}\nThe tests of project ${project.name || '(root)'} left ${left.length} ` +
          `folder(s) in the temporary folder (${root}):\n` +
          left.map((name) => `  ${name}\n`).join('') +
          'Something wrote there after its test or file ended: see test/temp-folders.ts.\n' +
          `${'!'.repeat(72)}\n`,
      );
      process.exitCode = 1;
    }
    await rm(root, { recursive: true, force: true, maxRetries: 5 });
  };
}
