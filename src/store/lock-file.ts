// One writer per data file: the file itself is locked, through its open handle, with a lock
// the operating system keeps on the file (its inode, whatever path reached it) and releases
// when the handle closes or the process dies. See decisions/006-data-file-lock.md.
import type { FileHandle } from 'node:fs/promises';
import { readdir, readFile, stat } from 'node:fs/promises';
import { DataFileError, describe } from './data-file.js';

/**
 * Takes the lock of the file open in `handle` (an exclusive lock, which needs a handle open
 * for writing), or throws one clear line naming the process that holds it, where the platform
 * tells. Closing the handle releases it; so does the death of the process, even by kill -9.
 * @example
 * const handle = await open('data.jsonl', 'r+');
 * await lockFile(handle, 'data.jsonl'); // ... await handle.close();
 */
export async function lockFile(handle: FileHandle, path: string): Promise<void> {
  let granted: boolean;
  try {
    // Loaded only by a mock that keeps a data file: a platform without a build of this
    // native module still runs every other mock.
    const { tryLock } = await import('fs-native-extensions');
    granted = tryLock(handle.fd);
  } catch (error) {
    throw new DataFileError(
      path,
      `cannot be locked (${describe(error)}); keep the data file on a local disk, whose file system has locks`,
      undefined,
      { cause: error },
    );
  }
  if (granted) return;
  const holder = await holderOf(handle);
  throw new DataFileError(
    path,
    `in use by another petstore-kit mock${holder === undefined ? '' : ` (process ${holder})`}, through this path or another link to the same file; stop it first`,
  );
}

/**
 * Whether `handle` still holds the file that `path` names: a compaction by another mock may
 * have replaced it between the open and the lock.
 */
export async function isFileAt(handle: FileHandle, path: string): Promise<boolean> {
  const [held, named] = await Promise.all([handle.stat(), stat(path).catch(() => undefined)]);
  return named !== undefined && held.dev === named.dev && held.ino === named.ino;
}

/**
 * The process that holds a lock on the file of `handle`, where `/proc` tells (Linux): the
 * lock itself does not name its holder.
 */
async function holderOf(handle: FileHandle): Promise<number | undefined> {
  try {
    const { dev, ino } = await handle.stat();
    for (const pid of await readdir('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
      for (const fd of fds) {
        const file = await stat(`/proc/${pid}/fd/${fd}`).catch(() => undefined);
        if (file?.ino !== ino || file.dev !== dev) continue;
        if (Number(pid) === process.pid && Number(fd) === handle.fd) continue;
        const info = await readFile(`/proc/${pid}/fdinfo/${fd}`, 'utf8').catch(() => '');
        if (/^lock:/m.test(info)) return Number(pid);
      }
    }
  } catch {
    // No /proc (macOS, Windows): the refusal names no process.
  }
  return undefined;
}
