// Mocks started on the small documents of test/fixtures/corpus-classes/, each of the shape of a
// class of problem a real description showed, for the test files that reproduce them.
import { fileURLToPath } from 'node:url';
import { startMock, type RunningMock } from '../src/index.js';
import { QUICK_SHUTDOWN } from './helpers.js';

/** A fixture of test/fixtures/corpus-classes/, by its file name. */
export const classFixture = (name: string): string =>
  fileURLToPath(new URL(`fixtures/corpus-classes/${name}`, import.meta.url));

/**
 * Starts mocks on the fixtures and closes them all when asked (a test file's afterEach).
 * @example const { mock, closeAll } = classMocks(); afterEach(closeAll); const api = await mock('record.yaml', 2);
 */
export function classMocks(): {
  mock: (name: string, seedCount?: number) => Promise<RunningMock>;
  closeAll: () => Promise<void>;
} {
  const started: RunningMock[] = [];
  return {
    async mock(name, seedCount = 0) {
      const running = await startMock({ ...QUICK_SHUTDOWN, spec: classFixture(name), seedCount });
      started.push(running);
      return running;
    },
    async closeAll() {
      await Promise.all(started.splice(0).map((running) => running.close()));
    },
  };
}
