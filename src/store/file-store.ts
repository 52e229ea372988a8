// The store behind `--data <file>`: the state in memory, every write appended to the file and
// synced before it is acknowledged. See decisions/003-data-file.md for the file's format.
import { open, realpath, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import {
  DataFileError,
  deleteLine,
  describe,
  HEADER_LINE,
  putLine,
  readDataFile,
  snapshotLines,
} from './data-file.js';
import { Journal, syncFolder } from './journal.js';
import { isFileAt, lockFile } from './lock-file.js';
import { LocalSides } from './local-side-data.js';
import { keyIn } from '../vocabulary/record.js';
import { MemoryStore } from './memory-store.js';
import {
  checkRoom,
  jsonOf,
  keyOf,
  newId,
  recordOf,
  StoreStates,
  textsOf,
  withId,
  type CollectionState,
  type Totals,
} from './records.js';
import {
  DEFAULT_STORE_LIMITS,
  StoreKeyTakenError,
  type Collection,
  type CollectionDescriptor,
  type RecordId,
  type ScopeUsage,
  type SideData,
  type StateBackend,
  type Store,
  type StoreLimits,
  type StoredRecord,
} from './store.js';
import type { Texts } from '../vocabulary/texts.js';

/** When the file is rewritten as a snapshot of the live records. */
export interface CompactionPolicy {
  /** A file smaller than this is never compacted. */
  minBytes: number;
  /** Compact once the file is this many times the size of a snapshot of the live records. */
  ratio: number;
}

/**
 * Small files are left alone; a larger one is compacted once two thirds of it is history:
 * the file stays within three times its live data, and compaction rewrites about half a
 * byte for each byte appended.
 */
const DEFAULT_COMPACTION: CompactionPolicy = { minBytes: 1 << 20, ratio: 3 };

export interface FileStoreOptions {
  /** @default DEFAULT_STORE_LIMITS */
  limits?: Partial<StoreLimits>;
  /**
   * Told, as one line, of what the store recovered from or could not do but survived: a
   * half-written last record cut off at start-up, a compaction that failed.
   * @default ignore them
   * @example { onWarning: (line) => logger.warn(line) }
   */
  onWarning?: (line: string) => void;
  /** @default DEFAULT_COMPACTION */
  compaction?: Partial<CompactionPolicy>;
}

/**
 * Opens (or creates) the data file at `path` and loads its state. Every write is durable
 * (written and synced) before its promise resolves; reads see only durable writes. The file
 * is locked against other processes until `close`.
 * A missing file is created, but not a missing folder: that is more likely a typo.
 * @throws {DataFileError} one clear line when the file is damaged before its last line, is
 * not a data file, is locked by a running mock, or cannot be created, read or written.
 * @example
 * const store = await openFileStore('data/petstore.jsonl', { onWarning: console.warn });
 * if (!store.loaded) await seed(store);
 * await store.markInitial();
 */
export async function openFileStore(
  path: string,
  options: FileStoreOptions = {},
): Promise<FileStore> {
  const compaction = { ...DEFAULT_COMPACTION, ...options.compaction };
  if (!(compaction.ratio > 1) || !(compaction.minBytes >= 0))
    throw new RangeError(
      `compaction needs a ratio above 1 and minBytes of 0 or more, not ${JSON.stringify(options.compaction)}`,
    );
  const file = await placeOf(path);
  const { handle, size, states, loaded } = await load(file, options.onWarning);
  try {
    const limits = { ...DEFAULT_STORE_LIMITS, ...options.limits };
    if (states.totals.records > limits.maxRecords || states.totals.bytes > limits.maxBytes) {
      throw new DataFileError(
        file,
        `it holds ${states.totals.records} records of ${states.totals.bytes} bytes, more than the store's limits (${limits.maxRecords} records, ${limits.maxBytes} bytes)`,
      );
    }
    // A crash during a compaction leaves its unfinished copy.
    await rm(`${file}.tmp`, { force: true });
    return new FileStore({
      file,
      handle,
      size,
      states,
      loaded,
      limits,
      compaction,
      options,
    });
  } catch (error) {
    // Which releases the lock.
    await handle.close();
    throw error;
  }
}

/** One write as the journal carries it to the committed state. */
interface Write {
  readonly seq: number;
  readonly collection: string;
  readonly id: RecordId;
  /** Undefined for a delete. */
  readonly record: StoredRecord | undefined;
  /** The record's JSON, as the store keeps it; empty for a delete. */
  readonly json: string;
  readonly size: number;
}

/** A write that is queued but not yet durable: later writes to its record build on it. */
interface Pending {
  readonly seq: number;
  readonly record: StoredRecord | undefined;
  readonly size: number;
  readonly durable: Promise<void>;
}

/** A record as the next write sees it: durable, or as a pending write leaves it. */
interface Latest {
  readonly record: StoredRecord | undefined;
  readonly size: number;
  readonly pending: Pending | undefined;
}

interface FileStoreParts {
  file: string;
  handle: FileHandle;
  size: number;
  states: StoreStates;
  loaded: boolean;
  limits: StoreLimits;
  compaction: CompactionPolicy;
  options: FileStoreOptions;
}

/** What a collection of a file store uses of it: the store's own methods, kept off its API. */
interface StoreAccess {
  /** Resolves when writes may go on; undefined (no wait) when they already may. */
  gate(): Promise<void> | undefined;
  /** The record with this id as the next write must see it. */
  latest(name: string, id: RecordId): Latest;
  /** The durable records of a collection, as their JSON, for reads. */
  durable(name: string): CollectionState;
  /** The last integer id handed out in a collection, pending creates included. */
  lastId(name: string): number;
  /**
   * Queues a write, checked against the limits with every pending write counted, and
   * settles when it is durable. Synchronous up to the queueing, so that the next write
   * (and the next id) builds on it.
   */
  write(
    collection: string,
    id: RecordId,
    record: StoredRecord | undefined,
    json: string,
    line: string,
  ): Promise<void>;
}

/**
 * A store kept in a data file. Made by `openFileStore`.
 * @example
 * const store = await openFileStore('data.jsonl');
 * await store.collection({ name: 'categories', idProperty: 'id', idKind: 'integer' }).create({ name: 'Dog' });
 * await store.close(); // the next openFileStore('data.jsonl') holds the Dog
 */
export class FileStore implements StateBackend {
  /** The data file, as an absolute path. */
  readonly path: string;
  /** One process: its scopes and side data are kept in memory, never in the file. */
  readonly shared = false;
  readonly limits: StoreLimits;
  /**
   * Whether the file held data when it was opened: any collection, even emptied. The mock
   * seeds only a store that did not.
   */
  readonly loaded: boolean;
  /** What reads see: only writes that are durable. */
  #committed: StoreStates;
  /** Writes queued but not yet durable, by collection and id. */
  readonly #pending = new Map<string, Map<RecordId, Pending>>();
  readonly #pendingLastIds = new Map<string, number>();
  /** The totals with every pending write counted: what limits are checked against. */
  #latest: Totals;
  #seq = 0;
  readonly #journal: Journal<Write>;
  readonly #collections = new Map<string, FileCollection>();
  readonly #onWarning: (line: string) => void;
  readonly #compaction: CompactionPolicy;
  #compacting = false;
  /** The file size under which no compaction is tried, raised after one fails. */
  #compactionFloor: number;
  #marked: StoreStates | undefined;
  /** Set while a reset, mark or close waits for the writes before it: later writes wait. */
  #gate: Promise<void> | undefined;
  /** Handed to the collections, which read and write through it. */
  readonly #access: StoreAccess = {
    gate: () => this.#gate,
    latest: (name, id) => this.#latestOf(name, id),
    durable: (name) => this.#committed.of(name),
    lastId: (name) =>
      Math.max(this.#committed.of(name).lastId, this.#pendingLastIds.get(name) ?? 0),
    write: (collection, id, record, json, line) => this.#write(collection, id, record, json, line),
  };

  /** The scopes: in memory, never written to the file, made from this store's mark. */
  readonly #scopes: MemoryStore;

  constructor(parts: FileStoreParts) {
    this.path = parts.file;
    this.limits = parts.limits;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the mark's accessors below
    const store = this;
    this.#scopes = new MemoryStore(
      { limits: parts.limits },
      {
        get marked() {
          return store.#marked;
        },
        set marked(states) {
          store.#marked = states;
        },
        scopes: new Map(),
        used: new Set(),
        usage: new Map(),
        sides: new LocalSides(),
        main: () => store.#latest,
      },
    );
    this.loaded = parts.loaded;
    this.#committed = parts.states;
    this.#latest = { ...parts.states.totals };
    this.#onWarning = parts.options.onWarning ?? (() => undefined);
    this.#compaction = parts.compaction;
    this.#compactionFloor = this.#compaction.minBytes;
    this.#journal = new Journal(parts.file, parts.handle, parts.size, {
      committed: (writes) => this.#commit(writes),
      dropped: () => this.#rollBack(),
      warn: (line) => this.#onWarning(line),
    });
  }

  /**
   * @throws {DataFileError} when the file holds records of this collection whose ids do not
   * fit `spec` (the spec changed since they were written).
   */
  collection(descriptor: CollectionDescriptor): Collection {
    let collection = this.#collections.get(descriptor.name);
    if (!collection) {
      this.#checkIds(descriptor);
      collection = new FileCollection(descriptor, this.#access);
      this.#collections.set(descriptor.name, collection);
    }
    return collection;
  }

  async count(): Promise<number> {
    return this.#committed.totals.records;
  }

  async markInitial(): Promise<void> {
    await this.#exclusively(async () => {
      this.#marked = this.#committed.copy();
    });
  }

  /**
   * A scope of this store: a state of its own kept in memory, never written to the file,
   * made from the mark when first used (see StateBackend).
   */
  scope(name: string): Store {
    return this.#scopes.scope(name);
  }

  scopeNames(): Promise<string[]> {
    return this.#scopes.scopeNames();
  }

  dropScope(name: string): Promise<boolean> {
    return this.#scopes.dropScope(name);
  }

  touchScope(name: string): Promise<void> {
    return this.#scopes.touchScope(name);
  }

  scopeUsage(): Promise<ScopeUsage[]> {
    return this.#scopes.scopeUsage();
  }

  /** The documents and lists of the main state or of a scope: in memory, never in the file. */
  sideData(scope?: string): SideData {
    return this.#scopes.sideData(scope);
  }

  /** Durable like any write: the file is replaced by a snapshot of the marked state. */
  async reset(): Promise<void> {
    await this.#exclusively(async () => {
      const target = this.#marked?.copy() ?? new StoreStates();
      await this.#journal.replace(
        () => snapshotLines(target),
        () => {
          this.#committed = target;
          this.#rollBack();
        },
      );
    });
  }

  /**
   * Rewrites the file as a snapshot of the durable state. Done on its own as the file grows
   * (see `CompactionPolicy`); writes meanwhile wait for it, and none is lost.
   */
  compact(): Promise<void> {
    return this.#journal.replace(() => snapshotLines(this.#committed));
  }

  /** Waits for every pending write, then closes the file, which releases its lock. */
  async close(): Promise<void> {
    await this.#exclusively(() => this.#journal.close());
  }

  #latestOf(name: string, id: RecordId): Latest {
    const pending = this.#pending.get(name)?.get(id);
    if (pending) return { record: pending.record, size: pending.size, pending };
    const json = this.#committed.of(name).records.get(id);
    if (json === undefined) return { record: undefined, size: 0, pending: undefined };
    return { record: recordOf(json), size: Buffer.byteLength(json), pending: undefined };
  }

  #write(
    collection: string,
    id: RecordId,
    record: StoredRecord | undefined,
    json: string,
    line: string,
  ): Promise<void> {
    const size = Buffer.byteLength(json);
    this.#journal.assertWritable();
    const before = this.#latestOf(collection, id);
    const records = (record ? 1 : 0) - (before.record ? 1 : 0);
    const bytes = size - before.size;
    // The whole store's: the scopes' records beyond the mark count with the file's.
    checkRoom(this.limits, this.#scopes.whole(), records, bytes);
    const seq = ++this.#seq;
    const durable = this.#journal.append(line, { seq, collection, id, record, json, size });
    let pending = this.#pending.get(collection);
    if (!pending) {
      pending = new Map();
      this.#pending.set(collection, pending);
    }
    pending.set(id, { seq, record, size, durable });
    if (record && !before.record && typeof id === 'number' && id > this.#access.lastId(collection))
      this.#pendingLastIds.set(collection, id);
    this.#latest.records += records;
    this.#latest.bytes += bytes;
    return durable;
  }

  #commit(writes: readonly Write[]): void {
    for (const write of writes) {
      if (write.record) {
        this.#committed.put(write.collection, write.id, write.json);
        const state = this.#committed.of(write.collection);
        if (typeof write.id === 'number') state.lastId = Math.max(state.lastId, write.id);
      } else {
        this.#committed.delete(write.collection, write.id);
      }
      const pending = this.#pending.get(write.collection);
      if (pending?.get(write.id)?.seq === write.seq) pending.delete(write.id);
    }
    this.#compactIfDue();
  }

  /** Back to what is durable: pending writes were dropped, or the durable state replaced. */
  #rollBack(): void {
    this.#pending.clear();
    this.#pendingLastIds.clear();
    this.#latest = { ...this.#committed.totals };
  }

  #compactIfDue(): void {
    const size = this.#journal.size;
    if (this.#compacting || size < this.#compactionFloor) return;
    // A snapshot line is a record's JSON and about 50 bytes around it.
    const live = this.#committed.totals.bytes + 50 * this.#committed.totals.records;
    if (size < this.#compaction.ratio * live) return;
    this.#compacting = true;
    this.compact()
      .then(() => {
        this.#compactionFloor = this.#compaction.minBytes;
      })
      .catch((error: unknown) => {
        this.#compactionFloor = size * 2;
        this.#onWarning(
          `Could not compact the data file ${this.path} (${describe(error)}); it keeps growing, and compaction is tried again once it doubles`,
        );
      })
      .finally(() => {
        this.#compacting = false;
      });
  }

  /** Runs `task` once every write queued before has settled, holding later writes back. */
  async #exclusively(task: () => Promise<void>): Promise<void> {
    while (this.#gate) await this.#gate;
    const run = (async () => {
      try {
        await this.#journal.drain();
        await task();
      } finally {
        // Before `run` settles, so that the writes held back find the gate open.
        this.#gate = undefined;
      }
    })();
    this.#gate = run.then(
      () => undefined,
      () => undefined,
    );
    await run;
  }

  #checkIds(descriptor: CollectionDescriptor): void {
    const state = this.#committed.byName.get(descriptor.name);
    if (!state) return;
    const kind = descriptor.idKind === 'integer' ? 'number' : 'string';
    for (const [id, json] of state.records) {
      if (typeof id !== kind || keyIn(recordOf(json), descriptor) !== id)
        throw new DataFileError(
          this.path,
          `its collection "${descriptor.name}" holds a record with id ${JSON.stringify(id)}, but the spec now gives that collection ${descriptor.idKind} ids in "${[...(descriptor.idWithin ?? []), descriptor.idProperty].join('.')}"; use another data file for this spec`,
        );
    }
  }
}

class FileCollection implements Collection {
  readonly #json: string;

  constructor(
    readonly descriptor: CollectionDescriptor,
    private readonly store: StoreAccess,
  ) {
    this.#json = JSON.stringify(descriptor.name);
  }

  async list(): Promise<readonly StoredRecord[]> {
    return Array.from(this.store.durable(this.descriptor.name).records.values(), recordOf);
  }

  async texts(): Promise<readonly string[]> {
    return Array.from(this.store.durable(this.descriptor.name).records.values());
  }

  async storedTexts(): Promise<Texts> {
    return textsOf(this.store.durable(this.descriptor.name));
  }

  async get(id: RecordId): Promise<StoredRecord | undefined> {
    const json = this.store.durable(this.descriptor.name).records.get(keyOf(this.descriptor, id));
    return json === undefined ? undefined : recordOf(json);
  }

  async create(
    fields: Readonly<Record<string, unknown>>,
    chosen?: RecordId,
  ): Promise<StoredRecord> {
    const gate = this.#gate();
    if (gate) await gate;
    const name = this.descriptor.name;
    const taken = (id: RecordId) => this.store.latest(name, id).record !== undefined;
    const id =
      chosen === undefined
        ? newId(this.descriptor, this.store.lastId(name), taken)
        : keyOf(this.descriptor, chosen);
    if (chosen !== undefined && taken(id))
      throw new StoreKeyTakenError(name, this.descriptor.idProperty, id);
    const record = withId(this.descriptor, id, fields);
    await this.#put(id, record);
    return record;
  }

  async update(
    id: RecordId,
    change: (current: StoredRecord) => Readonly<Record<string, unknown>>,
  ): Promise<StoredRecord | undefined> {
    const gate = this.#gate();
    if (gate) await gate;
    const key = keyOf(this.descriptor, id);
    const { record: current, pending } = this.store.latest(this.descriptor.name, key);
    if (!current) {
      // The answer rests on a delete not yet durable: not given before it is.
      await pending?.durable;
      return undefined;
    }
    const record = withId(this.descriptor, key, change(current));
    await this.#put(key, record);
    return record;
  }

  async remove(id: RecordId): Promise<boolean> {
    const gate = this.#gate();
    if (gate) await gate;
    const key = keyOf(this.descriptor, id);
    const { record: current, pending } = this.store.latest(this.descriptor.name, key);
    if (!current) {
      await pending?.durable;
      return false;
    }
    const idJson = JSON.stringify(key);
    await this.store.write(
      this.descriptor.name,
      key,
      undefined,
      '',
      deleteLine(this.#json, idJson),
    );
    return true;
  }

  #put(id: RecordId, record: StoredRecord): Promise<void> {
    const json = jsonOf(record);
    const line = putLine(this.#json, JSON.stringify(id), json);
    return this.store.write(this.descriptor.name, id, record, json, line);
  }

  /**
   * What a write must wait for while a reset, mark or close holds writes back; undefined
   * otherwise, and then the write is not deferred at all: ids are handed out in call order.
   */
  #gate(): Promise<void> | undefined {
    const gate = this.store.gate();
    return gate && this.#afterGates(gate);
  }

  async #afterGates(gate: Promise<void> | undefined): Promise<void> {
    while (gate) {
      await gate;
      gate = this.store.gate();
    }
  }
}

/**
 * The absolute path of the file, through any symbolic link (a compaction replaces the file
 * by renaming, which would otherwise replace the link). Refuses, with one line, a path whose
 * folder is missing or that is not a file.
 */
async function placeOf(path: string): Promise<string> {
  const given = resolve(path);
  const folder = await realpath(dirname(given)).catch(() => undefined);
  if (!folder || !(await stat(folder)).isDirectory())
    throw new DataFileError(given, `its folder ${dirname(given)} does not exist; create it first`);
  const file = await realpath(given).catch(() => join(folder, basename(given)));
  const fileStats = await stat(file).catch(() => undefined);
  if (fileStats && !fileStats.isFile())
    throw new DataFileError(file, 'it is not a regular file (a folder?)');
  return file;
}

interface Loaded {
  handle: FileHandle;
  size: number;
  states: StoreStates;
  loaded: boolean;
}

async function load(file: string, onWarning?: (line: string) => void): Promise<Loaded> {
  const { handle, created } = await openLocked(file);
  try {
    if (created) await syncFolder(dirname(file));
    const contents = await readDataFile(handle, file);
    if (contents.end === 0) {
      // New, or empty as `touch` (or a crash right after the creation) leaves it.
      await handle.write(HEADER_LINE, 0);
      await handle.datasync();
      return {
        handle,
        size: Buffer.byteLength(HEADER_LINE),
        states: contents.states,
        loaded: false,
      };
    }
    if (contents.torn) {
      await handle.truncate(contents.end);
      await handle.datasync();
      onWarning?.(
        `Recovered the data file ${file}: its last record (line ${contents.torn.line}, ${contents.torn.bytes} bytes) was half-written, with no newline, so it was dropped; the state is that of the last complete write`,
      );
    }
    return { handle, size: contents.end, states: contents.states, loaded: contents.loaded };
  } catch (error) {
    await handle.close();
    if (error instanceof DataFileError) throw error;
    throw new DataFileError(file, `cannot be read or repaired (${describe(error)})`, undefined, {
      cause: error,
    });
  }
}

/**
 * Opens the file, creating it if it is missing, and locks it. Tried again when another mock
 * replaced the file (a compaction) between the open and the lock.
 */
async function openLocked(file: string): Promise<{ handle: FileHandle; created: boolean }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const opened = await openOrCreate(file);
    if (!opened) continue;
    try {
      await lockFile(opened.handle, file);
      if (await isFileAt(opened.handle, file)) return opened;
    } catch (error) {
      await opened.handle.close();
      throw error;
    }
    await opened.handle.close();
  }
  throw new DataFileError(file, 'could not be locked: another mock keeps replacing it');
}

/** The file open to read and write, or undefined when it was created meanwhile by another. */
async function openOrCreate(
  file: string,
): Promise<{ handle: FileHandle; created: boolean } | undefined> {
  try {
    return { handle: await open(file, 'r+'), created: false };
  } catch (error) {
    if (codeOf(error) !== 'ENOENT')
      throw new DataFileError(file, `cannot be opened to read and write (${describe(error)})`);
  }
  try {
    return { handle: await open(file, 'wx+'), created: true };
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return undefined;
    throw new DataFileError(file, `cannot be created (${describe(error)})`, undefined, {
      cause: error,
    });
  }
}

function codeOf(error: unknown): unknown {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
