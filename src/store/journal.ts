// The append-only file under a file store: appends made durable in groups, and the whole file
// replaced atomically (compaction, reset). One job at a time, in the order they were asked.
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe } from './data-file.js';
import { lockFile } from './lock-file.js';
import { StoreDiskFullError, StoreUnavailableError } from './store.js';

export interface JournalHooks<Op> {
  /** A group of appends is durable: called before any of their writers hears of it. */
  committed(ops: readonly Op[]): void;
  /**
   * A group could not be made durable: it and every append queued after it (which may build
   * on it) are dropped, and their writers get the error once the file is cut back.
   */
  dropped(error: unknown): void;
  /** Told, as one line, of a failure the journal survives (a cut-back that is retried). */
  warn(line: string): void;
}

interface Append<Op> {
  readonly line: string;
  readonly op: Op;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

type Job<Op> =
  | { readonly kind: 'appends'; readonly appends: Append<Op>[] }
  | { readonly kind: 'task'; readonly run: () => Promise<void> };

/** Bytes of snapshot text gathered before each write of a replacement file. */
const REPLACE_CHUNK = 1 << 20;

/** The first wait before a failed cut-back is tried again; it doubles up to the longest. */
const FIRST_REPAIR_MS = 100;
const LONGEST_REPAIR_MS = 5000;

/**
 * Writes dropped while the file could not be cut back: it may still hold their lines, which
 * a restart would read, so their writers hear of the failure only once the cut is durable.
 */
interface Damage<Op> {
  readonly failure: Error;
  readonly held: Append<Op>[];
  delayMs: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Appends lines to a file, each group with one write and one `fdatasync`, and settles each
 * append only once its line is on disk. Appends queued while a group is being made durable
 * form the next group, so concurrent writers share the cost of a sync.
 * @example
 * const journal = new Journal('data.jsonl', handle, size, { committed: apply, dropped: rollBack });
 * await journal.append('{"op":"delete","collection":"categories","id":1}\n', op);
 */
export class Journal<Op> {
  #handle: FileHandle;
  #size: number;
  readonly #jobs: Job<Op>[] = [];
  #running = false;
  /** Set while the file may hold bytes past `#size` that a failed write left. */
  #damage: Damage<Op> | undefined;
  #closed = false;

  constructor(
    readonly path: string,
    handle: FileHandle,
    size: number,
    private readonly hooks: JournalHooks<Op>,
  ) {
    this.#handle = handle;
    this.#size = size;
  }

  /** The bytes of the file that are durable. */
  get size(): number {
    return this.#size;
  }

  /**
   * Throws a StoreUnavailableError when appends cannot be taken now: call it before changing
   * anything that an append would have to undo.
   */
  assertWritable(): void {
    if (this.#closed)
      throw new StoreUnavailableError(
        `its data file ${this.path} is closed (the mock is stopping)`,
        1,
      );
    if (this.#damage)
      throw new StoreUnavailableError(
        `its data file ${this.path} is being repaired after a failed write (${describe(this.#damage.failure.cause)})`,
        Math.ceil(this.#damage.delayMs / 1000),
      );
  }

  /** Queues a line (ending in a newline); settles once it is durable or dropped. */
  append(line: string, op: Op): Promise<void> {
    this.assertWritable();
    return new Promise((resolve, reject) => {
      const last = this.#jobs.at(-1);
      // The group being written has left the queue: a new line joins the next group.
      if (last?.kind === 'appends') last.appends.push({ line, op, resolve, reject });
      else this.#queue({ kind: 'appends', appends: [{ line, op, resolve, reject }] });
    });
  }

  /**
   * Replaces the whole file by `lines` (taken when the job starts, after every job queued
   * before it), atomically: a crash leaves the old file or the new one, never a mix.
   * `replaced` runs as soon as the new file is in place, before any later job.
   */
  replace(lines: () => Iterable<string>, replaced?: () => void): Promise<void> {
    return this.#task(async () => {
      this.assertWritable();
      const { handle, size } = await writeReplacement(this.path, lines()).catch(
        (error: unknown) => {
          throw writeFailure(this.path, error);
        },
      );
      const old = this.#handle;
      this.#handle = handle;
      this.#size = size;
      replaced?.();
      await old.close().catch(() => undefined);
    });
  }

  /** Settles once every job queued so far has finished. */
  drain(): Promise<void> {
    return this.#task(async () => undefined);
  }

  /**
   * Finishes every queued job, then closes the file, which releases its lock. Writes still
   * held by a failed cut-back get it tried once more.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.drain();
    this.#closed = true;
    const damage = this.#damage;
    if (damage) {
      clearTimeout(damage.timer);
      this.#damage = undefined;
      let failure = damage.failure;
      if (!(await this.#cutBack())) {
        failure = new Error(
          `The mock stopped before its data file ${this.path} could be cut back after a failed write (${describe(damage.failure.cause)}): the next start may find this write in it`,
          { cause: damage.failure },
        );
        this.hooks.warn(failure.message);
      }
      for (const append of damage.held) append.reject(failure);
    }
    await this.#handle.close();
  }

  #task(run: () => Promise<void>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue({ kind: 'task', run: () => run().then(resolve, reject) });
    });
  }

  #queue(job: Job<Op>): void {
    this.#jobs.push(job);
    if (this.#running) return;
    this.#running = true;
    // Lines that arrive in the same turn of the event loop (requests read from the network
    // together) then share the first sync too.
    setImmediate(() => void this.#run());
  }

  async #run(): Promise<void> {
    for (let job = this.#jobs.shift(); job; job = this.#jobs.shift()) {
      if (job.kind === 'task') await job.run();
      else await this.#commit(job.appends);
    }
    this.#running = false;
  }

  async #commit(appends: Append<Op>[]): Promise<void> {
    try {
      this.assertWritable();
      const data = Buffer.from(appends.map((append) => append.line).join(''));
      await writeAll(this.#handle, data, this.#size);
      await this.#handle.datasync();
      this.#size += data.length;
    } catch (error) {
      await this.#drop(appends, error);
      return;
    }
    this.hooks.committed(appends.map((append) => append.op));
    for (const append of appends) append.resolve();
  }

  async #drop(appends: Append<Op>[], error: unknown): Promise<void> {
    const dropped = [...appends];
    for (let i = this.#jobs.length - 1; i >= 0; i--) {
      const job = this.#jobs[i];
      if (job?.kind === 'appends') {
        dropped.push(...job.appends);
        this.#jobs.splice(i, 1);
      }
    }
    // Synchronously, so that writes from now on build on what is durable.
    this.hooks.dropped(error);
    const failure = writeFailure(this.path, error);
    // Part of the group may have reached the file: cut it back to the last durable write.
    if (await this.#cutBack()) {
      for (const append of dropped) append.reject(failure);
      return;
    }
    // Until the cut is durable, writes are refused before they touch the file, and the
    // dropped ones wait: no client is answered a failure that a restart would undo.
    this.#damage = { failure, held: dropped, delayMs: FIRST_REPAIR_MS, timer: undefined };
    this.hooks.warn(
      `The data file ${this.path} could not be cut back after a failed write (${describe(error)}): writes are refused until it can, tried again every few seconds`,
    );
    this.#scheduleRepair();
  }

  async #cutBack(): Promise<boolean> {
    try {
      await this.#handle.truncate(this.#size);
      await this.#handle.datasync();
      return true;
    } catch {
      return false;
    }
  }

  #scheduleRepair(): void {
    const damage = this.#damage;
    if (!damage || this.#closed) return;
    // Through the queue, so that the cut never runs beside another job.
    damage.timer = setTimeout(() => void this.#task(() => this.#repair()), damage.delayMs);
    // A timer alone must not keep a process alive that has nothing else to do.
    damage.timer.unref();
  }

  async #repair(): Promise<void> {
    const damage = this.#damage;
    if (!damage) return;
    if (await this.#cutBack()) {
      this.#damage = undefined;
      for (const append of damage.held) append.reject(damage.failure);
      return;
    }
    damage.delayMs = Math.min(damage.delayMs * 2, LONGEST_REPAIR_MS);
    this.#scheduleRepair();
  }
}

/**
 * What a write that failed with `error` tells its writer: the disk is full, or the store is
 * unavailable for now. Either way nothing of it was stored.
 * @example writeFailure('data.jsonl', enospc) instanceof StoreDiskFullError // true
 */
function writeFailure(path: string, error: unknown): Error {
  if (error instanceof StoreDiskFullError || error instanceof StoreUnavailableError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return new StoreDiskFullError(path, { cause: error });
  return new StoreUnavailableError(
    `its data file ${path} cannot be written (${describe(error)})`,
    1,
    { cause: error },
  );
}

/**
 * Writes `lines` to `<path>.tmp`, syncs it, renames it over `path` and syncs the folder, so
 * that the rename itself is durable. Returns the new file, open for appending.
 * @example const { handle, size } = await writeReplacement('data.jsonl', [HEADER_LINE]);
 */
async function writeReplacement(
  path: string,
  lines: Iterable<string>,
): Promise<{ handle: FileHandle; size: number }> {
  const temp = `${path}.tmp`;
  // 'w' truncates a temp file left by a crash during an earlier replacement.
  const handle = await open(temp, 'w');
  let size = 0;
  try {
    // Locked before it takes the place of the file, so that the file is never unlocked.
    await lockFile(handle, path);
    let chunk = '';
    for (const line of lines) {
      chunk += line;
      if (chunk.length >= REPLACE_CHUNK) {
        size += await writeAll(handle, Buffer.from(chunk), size);
        chunk = '';
      }
    }
    if (chunk.length > 0) size += await writeAll(handle, Buffer.from(chunk), size);
    await handle.sync();
    await rename(temp, path);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(dirname(path));
  return { handle, size };
}

/**
 * Makes renames and creations in a folder durable, where the platform allows it.
 * @example await rename(temp, path); await syncFolder(dirname(path));
 */
export async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // Some platforms and file systems cannot sync a folder (Windows, some network file
    // systems); there the rename is as durable as the platform makes it.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

async function writeAll(handle: FileHandle, data: Buffer, position: number): Promise<number> {
  let written = 0;
  while (written < data.length) {
    const { bytesWritten } = await handle.write(
      data,
      written,
      data.length - written,
      position + written,
    );
    written += bytesWritten;
  }
  return written;
}
