import { mkdtempSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect, inject, onTestFinished, TestRunner } from 'vitest';
import { TEMP_PREFIX } from './temp-folders-run.js';

/**
 * The folders made outside a test (a file's top level, a `beforeAll`) or in a concurrent test,
 * which test/temp-folders-file.ts removes when their file ends. Files run one at a time in a
 * worker, so this list is only ever the running file's.
 */
const untilFileEnds: string[] = [];

/** When a folder is removed: by default when the test that made it ends, else when its file ends. */
export interface TempFolderOptions {
  /** `'file'` for what outlives its test (a mock the file closes in its `afterAll`). */
  until?: 'test' | 'file';
}

/**
 * A new empty folder in the system's temporary folder, removed when the test that made it
 * ends, or, made outside a test or in a concurrent one, when its file ends (after its `afterAll`
 * hooks). Child processes that write into it must have exited by then.
 * @example const data = join(await tempFolder('data'), 'mock.jsonl');
 */
export async function tempFolder(name: string, options: TempFolderOptions = {}): Promise<string> {
  return removedWhenDone(await mkdtemp(prefixOf(name)), options);
}

/** `tempFolder`, for a file's top level. */
export function tempFolderSync(name: string, options: TempFolderOptions = {}): string {
  return removedWhenDone(mkdtempSync(prefixOf(name)), options);
}

/** Removes the folders made outside a test since the running file began. */
export async function removeFileFolders(): Promise<void> {
  await Promise.all(untilFileEnds.splice(0).map(removeFolder));
}

function removedWhenDone(folder: string, { until = 'test' }: TempFolderOptions): string {
  const test = TestRunner.getCurrentTest();
  // onTestFinished attaches to the test that started last, not to a concurrent test's own.
  if (until === 'test' && test && !test.concurrent) onTestFinished(() => removeFolder(folder));
  else untilFileEnds.push(folder);
  return folder;
}

/**
 * Where a folder begins: in the run's folder (test/temp-folders-run.ts), else (a config without
 * it) in the system's under the tests' prefix; then the test file's name, so that a folder left
 * behind names its file.
 */
function prefixOf(name: string): string {
  const root = inject('tempRoot');
  const file = expect.getState().testPath;
  const label = `${file ? `${basename(file).replace(/\.test\.tsx?$/, '')}.` : ''}${name}-`;
  return root === undefined ? join(tmpdir(), `${TEMP_PREFIX}${label}`) : join(root, label);
}

function removeFolder(folder: string): Promise<void> {
  return rm(folder, { recursive: true, force: true, maxRetries: 5 });
}
