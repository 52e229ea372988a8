// One writer per data file: `<file>.lock` names the process that holds it. A lock left by a
// process that died (kill -9) is taken over at once, since a restart must not wait for it.
import { link, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { DataFileError, describe } from './data-file.js';

interface Holder {
  pid: number;
  host: string;
}

/** Locks held by this process, which a pid alone cannot tell from a dead process's. */
const heldHere = new Set<string>();

/**
 * Takes the lock of the data file at `path` (an absolute path), or throws one clear line
 * naming the process that holds it.
 * @returns a function that releases the lock.
 * @example const release = await lockDataFile('/srv/mock/data.jsonl'); // ... await release();
 */
export async function lockDataFile(path: string): Promise<() => Promise<void>> {
  const lockPath = `${path}.lock`;
  const me: Holder = { pid: process.pid, host: hostname() };
  // Three tries: a lock can be released, or found stale, between two looks at it.
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await create(lockPath, me, path)) {
      heldHere.add(lockPath);
      let released = false;
      return async () => {
        // Twice would delete the lock of whoever took the file next.
        if (released) return;
        released = true;
        heldHere.delete(lockPath);
        await rm(lockPath, { force: true });
      };
    }
    const holder = await readHolder(lockPath, path);
    if (holder === undefined) continue;
    if (isAlive(holder, lockPath)) throw inUse(path, lockPath, holder);
    await takeOverStale(lockPath, holder, path);
  }
  throw new DataFileError(path, `could not take its lock ${lockPath}: it keeps changing`);
}

/** Creates the lock with its content in one step (a link cannot half exist), or false if held. */
async function create(lockPath: string, me: Holder, path: string): Promise<boolean> {
  const draft = `${lockPath}.${process.pid}`;
  try {
    await writeFile(draft, `${JSON.stringify(me)}\n`);
    await link(draft, lockPath);
    return true;
  } catch (error) {
    if (code(error) === 'EEXIST') return false;
    throw new DataFileError(
      path,
      `cannot create its lock ${lockPath} (${describe(error)})`,
      undefined,
      {
        cause: error,
      },
    );
  } finally {
    await rm(draft, { force: true }).catch(() => undefined);
  }
}

async function readHolder(lockPath: string, path: string): Promise<Holder | undefined> {
  let text: string;
  try {
    text = await readFile(lockPath, 'utf8');
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    throw new DataFileError(path, `cannot read its lock ${lockPath} (${describe(error)})`);
  }
  // Empty only if the machine went down before the lock's content reached the disk.
  if (text === '') return { pid: 0, host: hostname() };
  try {
    const holder = JSON.parse(text) as Partial<Holder>;
    if (typeof holder.pid === 'number' && typeof holder.host === 'string')
      return { pid: holder.pid, host: holder.host };
  } catch {
    // Reported below.
  }
  throw new DataFileError(
    path,
    `its lock ${lockPath} is not one petstore-kit wrote; delete it if no mock uses this file`,
  );
}

function isAlive(holder: Holder, lockPath: string): boolean {
  // Another machine's process cannot be looked up from here.
  if (holder.host !== hostname()) return true;
  // Our own pid: held by this process, or left by an earlier one that had the same pid (a
  // container's first process always has pid 1).
  if (holder.pid === process.pid) return heldHere.has(lockPath);
  if (holder.pid <= 0) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return code(error) === 'EPERM';
  }
}

/**
 * Moves a stale lock aside before deleting it, and checks what it moved: if a live process
 * took the lock in between, its lock is put back.
 */
async function takeOverStale(lockPath: string, stale: Holder, path: string): Promise<void> {
  const aside = `${lockPath}.stale.${process.pid}`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if (code(error) === 'ENOENT') return;
    throw error;
  }
  try {
    const moved = await readHolder(aside, path);
    if (
      moved &&
      (moved.pid !== stale.pid || moved.host !== stale.host) &&
      isAlive(moved, lockPath)
    ) {
      await link(aside, lockPath).catch(() => undefined);
      throw inUse(path, lockPath, moved);
    }
  } finally {
    await rm(aside, { force: true });
  }
}

function inUse(path: string, lockPath: string, holder: Holder): DataFileError {
  const where = holder.host === hostname() ? '' : ` on ${holder.host}`;
  return new DataFileError(
    path,
    `in use by another petstore-kit mock (process ${holder.pid}${where}); stop it, or delete ${lockPath} if that process is gone`,
  );
}

function code(error: unknown): unknown {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
