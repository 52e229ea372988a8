// The append-only file under a file store: appends made durable in groups, and the whole file
// replaced atomically (compaction, reset). One job at a time, in the order they were asked.
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe } from './data-file.js';
import { lockFile } from './lock-file.js';

export interface JournalHooks<Op> {
  /** A group of appends is durable: called before any of their writers hears of it. */
  committed(ops: readonly Op[]): void;
  /**
   * A group could not be made durable: it and every append queued after it (which may build
   * on it) are dropped, and their writers get the error once the file is cut back.
   */
  dropped(error: unknown): void;
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
  /** Why the file can no longer be trusted to match memory, once it cannot. */
  #broken: Error | undefined;
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
   * Throws when appends can no longer be taken: call it before changing anything that an
   * append would have to undo.
   */
  assertWritable(): void {
    if (this.#closed) throw new Error(`The store of ${this.path} is closed`);
    if (this.#broken) throw this.#broken;
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
      const { handle, size } = await writeReplacement(this.path, lines());
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

  /** Finishes every queued job, then closes the file. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.drain();
    this.#closed = true;
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
    if (!this.#broken && !this.#closed) {
      try {
        // Part of the group may have reached the file: cut it back to the last durable write.
        await this.#handle.truncate(this.#size);
        await this.#handle.datasync();
      } catch (cause) {
        this.#broken = new Error(
          `The data file ${this.path} could not be restored after a failed write (${describe(error)}; then ${describe(cause)}): it refuses writes until the mock restarts`,
          { cause },
        );
      }
    }
    for (const append of dropped) append.reject(error);
  }
}

/**
 * Writes `lines` to `<path>.tmp`, syncs it, renames it over `path` and syncs the folder, so
 * that the rename itself is durable. Returns the new file, open for appending.
 * @example const { handle, size } = await writeReplacement('data.jsonl', [HEADER_LINE]);
 */
export async function writeReplacement(
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
