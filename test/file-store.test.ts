import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  appendFile,
  chmod,
  link,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  stat,
  symlink,
  writeFile,
  type FileHandle,
} from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Typescript from 'typescript';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DataFileError } from '../src/store/data-file.js';
import { openFileStore, type FileStore, type FileStoreOptions } from '../src/store/file-store.js';
import {
  StoreDiskFullError,
  StoreUnavailableError,
  type CollectionDescriptor,
} from '../src/store/store.js';
import {
  apply,
  copyModel,
  describeModel,
  emptyModel,
  KILL_COLLECTIONS,
  Workload,
  type Model,
} from './fixtures/kill-workload.js';
import { tempFolder } from './temp-folders.js';

const pets: CollectionDescriptor = { name: 'pets', idProperty: 'id', idKind: 'integer' };
const orders: CollectionDescriptor = { name: 'orders', idProperty: 'orderId', idKind: 'uuid' };
const HEADER = '{"format":"petstore-kit-data","version":1}\n';

let folder: string;
let file: string;
const opened: FileStore[] = [];

beforeEach(async () => {
  folder = await tempFolder('file-store');
  file = join(folder, 'data.jsonl');
});

afterEach(async () => {
  vi.restoreAllMocks();
  for (const store of opened.splice(0)) await store.close();
});

async function openStore(options?: FileStoreOptions): Promise<FileStore> {
  const store = await openFileStore(file, options);
  opened.push(store);
  return store;
}

/** Closes and opens the file again, as a restart does. */
async function reopen(store: FileStore, options?: FileStoreOptions): Promise<FileStore> {
  await store.close();
  return openStore(options);
}

/** The rejection of `opening`, which must be a DataFileError with a one-line message. */
async function refusal(opening: Promise<unknown>): Promise<DataFileError> {
  const error = await opening.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DataFileError);
  expect((error as Error).message).not.toContain('\n');
  return error as DataFileError;
}

/** The prototype of the file handles the store writes through, to make its syncs fail. */
async function fileHandlePrototype(): Promise<FileHandle> {
  const probe = await open(tmpdir(), 'r');
  await probe.close();
  return Object.getPrototypeOf(probe) as FileHandle;
}

function eio(): Error {
  return fault('EIO', 'i/o error, fsync');
}

/** An error as Node's file system calls raise it. */
function fault(code: string, what: string): Error {
  return Object.assign(new Error(`${code}: ${what}`), { code });
}

describe('persistence', () => {
  it('creates a missing file, which holds no data yet', async () => {
    const store = await openStore();
    expect(store.loaded).toBe(false);
    expect(await readFile(file, 'utf8')).toBe(HEADER);
    expect((await reopen(store)).loaded).toBe(false);
  });

  it('keeps creates, updates, deletes, the list order and the id counters across a restart', async () => {
    let store = await openStore();
    let collection = store.collection(pets);
    for (const name of ['Rex', 'Tom', 'Kit', 'Max']) await collection.create({ name });
    await collection.update(2, (current) => ({ ...current, age: 4 }));
    await collection.remove(4);
    await collection.remove(1);

    store = await reopen(store);
    collection = store.collection(pets);
    expect(store.loaded).toBe(true);
    expect(await collection.list()).toEqual([
      { id: 2, name: 'Tom', age: 4 },
      { id: 3, name: 'Kit' },
    ]);
    expect(await store.count()).toBe(2);
    // 4 was deleted before the restart: still never handed out again.
    expect((await collection.create({ name: 'Ace' })).id).toBe(5);
  });

  it('keeps uuid ids and nested values as they were', async () => {
    let store = await openStore();
    const created = await store
      .collection(orders)
      .create({ quantity: 2, lines: [{ sku: 'a', price: 1.5 }], note: 'ünïcödé ✓' });
    store = await reopen(store);
    expect(await store.collection(orders).get(created.orderId as string)).toEqual(created);
    expect(Object.isFrozen((await store.collection(orders).list())[0]?.lines)).toBe(true);
  });

  it('keeps records keyed within an object of theirs across a restart, read by that key', async () => {
    const pods: CollectionDescriptor = {
      name: 'pods',
      idProperty: 'name',
      idWithin: ['metadata'],
      idKind: 'string',
    };
    let store = await openStore();
    await store.collection(pods).create({ kind: 'Pod', metadata: { labels: {} } }, 'web');
    store = await reopen(store);
    expect(await store.collection(pods).get('web')).toEqual({
      kind: 'Pod',
      metadata: { name: 'web', labels: {} },
    });
    await expect(store.collection(pods).create({}, 'web')).rejects.toThrow(/web/);
  });

  it('counts a file as holding data once it holds a collection, even an emptied one', async () => {
    let store = await openStore();
    await store.collection(pets).create({ name: 'Rex' });
    await store.collection(pets).remove(1);
    store = await reopen(store);
    expect(store.loaded).toBe(true);
    await store.compact();
    store = await reopen(store);
    expect(store.loaded).toBe(true);
    expect((await store.collection(pets).create({ name: 'Tom' })).id).toBe(2);
  });

  it('shows a write to reads only once it is durable', async () => {
    const store = await openStore();
    const collection = store.collection(pets);
    const creating = collection.create({ name: 'Rex' });
    expect(await collection.get(1)).toBeUndefined();
    expect(await collection.list()).toEqual([]);
    await creating;
    expect(await collection.get(1)).toEqual({ id: 1, name: 'Rex' });
  });

  it('finishes pending writes before closing', async () => {
    const store = await openFileStore(file);
    const collection = store.collection(pets);
    const writes = Array.from({ length: 100 }, (_, i) => collection.create({ name: `Pet ${i}` }));
    await store.close();
    await Promise.all(writes);
    await expect(collection.create({ name: 'Late' })).rejects.toThrow(/closed/);
    expect(await (await openStore()).count()).toBe(100);
  });

  it('makes a reset durable: a restart shows the marked records and counters', async () => {
    let store = await openStore();
    let collection = store.collection(pets);
    await collection.create({ name: 'Rex' });
    await store.markInitial();
    await collection.create({ name: 'Tom' });
    await collection.update(1, () => ({ name: 'Max' }));
    await store.reset();
    store = await reopen(store);
    collection = store.collection(pets);
    expect(await collection.list()).toEqual([{ id: 1, name: 'Rex' }]);
    expect((await collection.create({ name: 'Kit' })).id).toBe(2);
  });
});

describe('compaction', () => {
  it('rewrites the file as a snapshot that keeps the state, order and counters', async () => {
    let store = await openStore();
    const collection = store.collection(pets);
    for (let i = 0; i < 20; i++) await collection.create({ name: `Pet ${i}`, visits: 0 });
    for (let round = 1; round <= 10; round++) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          collection.update(i + 1, (r) => ({ ...r, visits: round })),
        ),
      );
    }
    await collection.remove(20);
    const before = await collection.list();
    const grown = (await stat(file)).size;

    await store.compact();
    expect((await stat(file)).size).toBeLessThan(grown / 5);
    store = await reopen(store);
    expect(await store.collection(pets).list()).toEqual(before);
    expect((await store.collection(pets).create({ name: 'New' })).id).toBe(21);
  });

  it('compacts on its own once the file outgrows the policy, with writes going on', async () => {
    let store = await openStore({ compaction: { minBytes: 4096, ratio: 2 } });
    const collection = store.collection(pets);
    await collection.create({ name: 'Rex', visits: 0 });
    for (let i = 1; i <= 150; i++) {
      // Two at a time, so that some writes queue behind a compaction.
      await Promise.all([
        collection.update(1, (r) => ({ ...r, visits: i })),
        collection.create({ name: `Pet ${i}` }).then((r) => collection.remove(r.id as number)),
      ]);
    }
    await store.markInitial(); // waits for the writes and any compaction queued behind them
    expect((await stat(file)).size).toBeLessThan(8192);
    store = await reopen(store);
    expect(await store.collection(pets).list()).toEqual([{ id: 1, name: 'Rex', visits: 150 }]);
    expect((await store.collection(pets).create({ name: 'New' })).id).toBe(152);
  });

  it('keeps the log when a compaction fails, warns in one line, and goes on', async () => {
    const warnings: string[] = [];
    const store = await openStore({
      compaction: { minBytes: 0, ratio: 1.5 },
      onWarning: (line) => warnings.push(line),
    });
    const collection = store.collection(pets);
    vi.spyOn(await fileHandlePrototype(), 'sync').mockRejectedValueOnce(eio());
    await collection.create({ name: 'Rex' });
    await store.markInitial(); // waits for the compaction the create set off
    expect(warnings).toEqual([expect.stringMatching(/^Could not compact the data file .*EIO/)]);
    await expect(stat(`${file}.tmp`)).rejects.toMatchObject({ code: 'ENOENT' });
    await collection.create({ name: 'Tom' });
    await expect((await reopen(store)).collection(pets).list()).resolves.toHaveLength(2);
  });

  it('refuses a policy that would compact on every write', async () => {
    await expect(openFileStore(file, { compaction: { ratio: 1 } })).rejects.toThrow(RangeError);
  });

  it('compacts a file reached through a symbolic link in place, keeping the link', async () => {
    const real = join(folder, 'real.jsonl');
    await writeFile(real, HEADER);
    await symlink(real, file);
    let store = await openStore();
    await store.collection(pets).create({ name: 'Rex' });
    await store.compact();
    expect((await lstat(file)).isSymbolicLink()).toBe(true);
    expect(await readFile(real, 'utf8')).toContain('"Rex"');
    store = await reopen(store);
    expect(await store.collection(pets).list()).toEqual([{ id: 1, name: 'Rex' }]);
  });

  it('removes the copy a crash during a compaction left', async () => {
    await writeFile(`${file}.tmp`, '{"format":"petstore-kit-data"');
    await openStore();
    await expect(stat(`${file}.tmp`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('recovery', () => {
  async function fileWithTwoPets(): Promise<string> {
    const store = await openFileStore(file);
    await store.collection(pets).create({ name: 'Rex' });
    await store.collection(pets).create({ name: 'Tom' });
    await store.close();
    return readFile(file, 'utf8');
  }

  it.each([
    ['a last line with no newline', '{"op":"put","collection":"pets","id":3,"rec'],
    ['a complete record with no newline', '{"op":"delete","collection":"pets","id":1}'],
    ['zeros where the last write should be', '\0'.repeat(4096)],
  ])('cuts %s off, warns in one line, and goes on', async (_, tail) => {
    const intact = await fileWithTwoPets();
    await appendFile(file, tail);
    const warnings: string[] = [];
    let store = await openStore({ onWarning: (line) => warnings.push(line) });

    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(file);
    expect(warnings[0]).toContain(`line 4, ${Buffer.byteLength(tail)} bytes`);
    expect(warnings[0]).not.toContain('\n');
    expect(await readFile(file, 'utf8')).toBe(intact);
    expect(await store.collection(pets).list()).toHaveLength(2);

    await store.collection(pets).create({ name: 'Kit' });
    store = await reopen(store, { onWarning: (line) => warnings.push(line) });
    expect(warnings).toHaveLength(1);
    expect((await store.collection(pets).list()).map((r) => r.name)).toEqual(['Rex', 'Tom', 'Kit']);
  });

  it.each([
    [
      'an unparsable line before the last',
      (lines: string[]) => [...lines.slice(0, 2), '{"op":"put",', ...lines.slice(2)],
      /, line 3: not valid JSON/,
    ],
    [
      'an unparsable last line that ends in a newline',
      (lines: string[]) => [...lines, '{"op":"put","collection":"pets","id":3,"record":{"na'],
      /, line 4: not valid JSON .* ends in a newline, so it is not a write cut short/,
    ],
    [
      'zeros, then a newline, where the last write should be',
      (lines: string[]) => [...lines, '\0'.repeat(100)],
      /, line 4: not valid JSON/,
    ],
    [
      'a line of an unknown type',
      (lines: string[]) => [...lines, '{"op":"rename","collection":"pets"}'],
      /, line 4: unknown record type "rename"/,
    ],
    [
      'a put without a record',
      (lines: string[]) => [...lines, '{"op":"put","collection":"pets","id":9}'],
      /, line 4: a "put" without a "record" object/,
    ],
    [
      'another first line',
      (lines: string[]) => ['{"name":"Rex"}', ...lines.slice(1)],
      /, line 1: not a petstore-kit data file/,
    ],
    [
      'a newer format version',
      (lines: string[]) => ['{"format":"petstore-kit-data","version":2}', ...lines.slice(1)],
      /, line 1: data format version 2, but this petstore-kit reads version 1/,
    ],
  ])(
    'refuses %s in one line naming the file and line, and leaves it alone',
    async (_, damage, problem) => {
      const lines = (await fileWithTwoPets()).trimEnd().split('\n');
      const damaged = `${damage(lines).join('\n')}\n`;
      await writeFile(file, damaged);
      const error = await refusal(openFileStore(file));
      expect(error.message).toMatch(problem);
      expect(error.message.startsWith(`Data file ${file}, line`)).toBe(true);
      expect(await readFile(file, 'utf8')).toBe(damaged);
      // The failed open released the lock: a repaired file opens.
      await writeFile(file, `${lines.join('\n')}\n`);
      expect(await (await openStore()).count()).toBe(2);
    },
  );

  it('refuses a file with no complete line that is not empty', async () => {
    await writeFile(file, '{"format":"petstore-');
    expect((await refusal(openFileStore(file))).message).toMatch(
      /line 1: not a petstore-kit data file/,
    );
  });

  it('treats an empty file as a new data file', async () => {
    await writeFile(file, '');
    const store = await openStore();
    expect(store.loaded).toBe(false);
    await store.collection(pets).create({ name: 'Rex' });
    expect(await (await reopen(store)).collection(pets).list()).toEqual([{ id: 1, name: 'Rex' }]);
  });
});

describe('refusals at opening', () => {
  it('refuses a missing folder, rather than guessing a typo was meant', async () => {
    const error = await refusal(openFileStore(join(folder, 'nowhere', 'data.jsonl')));
    expect(error.message).toMatch(/its folder .*nowhere does not exist/);
  });

  it('refuses a folder given as the file', async () => {
    await mkdir(file);
    expect((await refusal(openFileStore(file))).message).toMatch(/not a regular file/);
  });

  it.skipIf(process.getuid?.() === 0)('refuses a file it may not write', async () => {
    await writeFile(file, HEADER);
    await chmod(file, 0o444);
    expect((await refusal(openFileStore(file))).message).toMatch(/cannot be opened.*EACCES/);
  });

  it('refuses a file that holds more than the limits allow', async () => {
    const store = await openFileStore(file);
    for (const name of ['Rex', 'Tom', 'Kit']) await store.collection(pets).create({ name });
    await store.close();
    const error = await refusal(openFileStore(file, { limits: { maxRecords: 2 } }));
    expect(error.message).toMatch(/holds 3 records .* more than the store's limits/);
  });

  it('refuses a collection whose stored ids no longer fit its spec', async () => {
    let store = await openStore();
    await store.collection(pets).create({ name: 'Rex' });
    store = await reopen(store);
    expect(() => store.collection({ ...pets, idKind: 'uuid' })).toThrow(
      /collection "pets" holds a record with id 1, but the spec now gives that collection uuid ids/,
    );
    expect(() => store.collection({ ...pets, idProperty: 'petId' })).toThrow(DataFileError);
  });
});

describe('the lock', () => {
  it('refuses a second opener in one line while the first has the file', async () => {
    const first = await openStore();
    const error = await refusal(openFileStore(file));
    expect(error.message).toContain(`in use by another petstore-kit mock (process ${process.pid})`);
    await first.close();
    await openStore();
  });

  it('refuses a second opener that reaches the file through a hard link', async () => {
    await openStore();
    const other = join(folder, 'other.jsonl');
    await link(file, other);
    const error = await refusal(openFileStore(other));
    expect(error.message).toContain('through this path or another link to the same file');
  });

  it('keeps the file locked through a compaction and a reset, which replace it', async () => {
    const store = await openStore();
    await store.collection(pets).create({ name: 'Rex' });
    await store.compact();
    await refusal(openFileStore(file));
    await store.markInitial();
    await store.reset();
    await refusal(openFileStore(file));
  });

  it('ignores a lock file an earlier petstore-kit left, whose pid a live process now has', async () => {
    // Earlier versions locked with `<file>.lock` naming a pid, which another process may get.
    await writeFile(`${file}.lock`, JSON.stringify({ pid: process.ppid, host: hostname() }));
    await openStore();
  });

  it('is released by close, and leaves nothing beside the data file', async () => {
    await (await openFileStore(file)).close();
    expect(await readdir(folder)).toEqual(['data.jsonl']);
    await openStore();
  });
});

// Faults are injected at the FileHandle boundary (its prototype's methods) here: this kernel
// has no device-mapper or fault injection to make EIO for real, and a loop device over a full
// tmpfs fails with ENOSPC, not EIO. Real full and read-only disks are in test/cli.test.ts.
describe('failed writes', () => {
  it('fail every write of the group, and leave memory and file agreeing', async () => {
    let store = await openStore();
    const collection = store.collection(pets);
    await collection.create({ name: 'Rex' });
    vi.spyOn(await fileHandlePrototype(), 'datasync').mockRejectedValueOnce(eio());

    const outcomes = await Promise.allSettled([
      collection.create({ name: 'Tom' }),
      collection.update(1, () => ({ name: 'Max' })),
      collection.remove(1),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(outcomes[0]).toMatchObject({ reason: { cause: { code: 'EIO' } } });
    expect(await collection.list()).toEqual([{ id: 1, name: 'Rex' }]);

    // The store goes on, from what is durable.
    expect(await collection.create({ name: 'Kit' })).toEqual({ id: 2, name: 'Kit' });
    store = await reopen(store);
    expect(await store.collection(pets).list()).toEqual([
      { id: 1, name: 'Rex' },
      { id: 2, name: 'Kit' },
    ]);
  });

  it.each([
    ['ENOSPC', StoreDiskFullError, /on a full disk \(ENOSPC: no space left on device\): nothing/],
    ['EDQUOT', StoreDiskFullError, /on a full disk \(EDQUOT: /],
    ['EIO', StoreUnavailableError, /cannot be written \(EIO: .*\); nothing .* try again in 1 s/],
    ['EROFS', StoreUnavailableError, /cannot be written \(EROFS: /],
    ['EMFILE', StoreUnavailableError, /cannot be written \(EMFILE: /],
  ])(
    'say what happened on %s, with an error the HTTP layer tells apart',
    async (code, type, message) => {
      const store = await openStore();
      const collection = store.collection(pets);
      const reason = { ENOSPC: 'no space left on device', EMFILE: 'too many open files' }[code];
      vi.spyOn(await fileHandlePrototype(), 'write').mockRejectedValueOnce(
        fault(code, reason ?? 'failed'),
      );
      const error = await collection.create({ name: 'Rex' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(type);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain(file);
      expect(await collection.create({ name: 'Tom' })).toEqual({ id: 1, name: 'Tom' });
    },
  );

  it('never store a write they failed, even when the cut-back fails too, and recover by themselves', async () => {
    const warnings: string[] = [];
    let store = await openStore({ onWarning: (line) => warnings.push(line) });
    const collection = store.collection(pets);
    await collection.create({ name: 'Rex' });
    const handles = await fileHandlePrototype();
    vi.spyOn(handles, 'datasync').mockRejectedValueOnce(eio());
    // The cut back fails until the test has seen the state between: its first retry comes
    // 100 ms after the failure, which a busy machine can spend before the checks below.
    let cutFails = true;
    const realTruncate = handles.truncate;
    vi.spyOn(handles, 'truncate').mockImplementation(function (this: FileHandle, length) {
      return cutFails ? Promise.reject(eio()) : realTruncate.call(this, length);
    });

    let settled = false;
    const failing = collection.create({ name: 'Tom' }).catch((caught: unknown) => caught);
    void failing.then(() => (settled = true));
    await vi.waitFor(() => expect(warnings).toHaveLength(1), { timeout: 10_000 });
    expect(warnings[0]).toMatch(/could not be cut back after a failed write \(EIO/);
    // The file may hold Tom now: his writer waits, and later writes are refused untouched.
    expect(await readFile(file, 'utf8')).toContain('Tom');
    expect(settled).toBe(false);
    const refused = await collection.create({ name: 'Kit' }).catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(StoreUnavailableError);
    expect((refused as Error).message).toMatch(/being repaired after a failed write \(EIO/);

    // The cut is tried again, succeeds, and only then is Tom's writer told of the failure.
    expect(settled).toBe(false);
    cutFails = false;
    expect(await failing).toBeInstanceOf(StoreUnavailableError);
    expect(await readFile(file, 'utf8')).not.toContain('Tom');
    expect(await collection.create({ name: 'Max' })).toEqual({ id: 2, name: 'Max' });
    store = await reopen(store);
    expect(await store.collection(pets).list()).toEqual([
      { id: 1, name: 'Rex' },
      { id: 2, name: 'Max' },
    ]);
  });

  it('warn at close of a failed write that could still not be cut back', async () => {
    const warnings: string[] = [];
    const store = await openFileStore(file, { onWarning: (line) => warnings.push(line) });
    const collection = store.collection(pets);
    const handles = await fileHandlePrototype();
    vi.spyOn(handles, 'datasync').mockRejectedValueOnce(eio());
    vi.spyOn(handles, 'truncate').mockRejectedValue(eio());
    const failing = collection.create({ name: 'Tom' }).catch((caught: unknown) => caught);
    await vi.waitFor(() => expect(warnings).toHaveLength(1), { timeout: 10_000 });
    await store.close();
    expect(warnings[1]).toMatch(
      /stopped before its data file .* could be cut back .* the next start may find this write in it/,
    );
    expect(((await failing) as Error).message).toBe(warnings[1]);
  });
});

describe('kill -9', () => {
  let built: string;
  let writer: string;

  /**
   * The writer and the modules it imports, compiled to JavaScript once: plain `node` starts
   * it several times faster than `node --import tsx`, which was most of each round.
   */
  beforeAll(async () => {
    // Required, not imported: Node's import of this large CommonJS module takes a second more.
    const ts = createRequire(import.meta.url)('typescript') as typeof Typescript;
    built = await tempFolder('kill-writer');
    await writeFile(join(built, 'package.json'), '{"type":"module"}');
    const root = fileURLToPath(new URL('..', import.meta.url));
    const queue = ['test/fixtures/kill-writer.ts'];
    const done = new Set<string>();
    for (let source = queue.pop(); source !== undefined; source = queue.pop()) {
      if (done.has(source)) continue;
      done.add(source);
      const text = await readFile(join(root, source), 'utf8');
      const { outputText } = ts.transpileModule(text, {
        compilerOptions: {
          module: ts.ModuleKind.ESNext,
          target: ts.ScriptTarget.ES2023,
          verbatimModuleSyntax: true,
        },
      });
      const target = join(built, source.replace(/\.ts$/, '.js'));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, outputText);
      for (const [, imported] of text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g))
        queue.push(join(dirname(source), `${imported}.ts`));
    }
    // The writer's imports of packages resolve from here.
    await symlink(join(root, 'node_modules'), join(built, 'node_modules'));
    writer = join(built, 'test/fixtures/kill-writer.js');
  });

  interface Run {
    acks: number[];
    /** The last write the child had sent when it was killed (as far as it told). */
    issued: number;
  }

  /**
   * Runs the writer until it has acknowledged `killAfter` writes, then SIGKILLs it. What it
   * did is read from its report file once it is dead, never from its stdout: lines a parent
   * had not read yet when the socket's buffer filled were still in the child's memory and
   * died with it (see kill-writer.ts).
   */
  async function runAndKill(seed: number, model: Model, killAfter: number): Promise<Run> {
    const lastIds = Object.fromEntries([...model].map(([name, state]) => [name, state.lastId]));
    const report = join(folder, 'writer-report.txt');
    const child = spawn(
      process.execPath,
      [writer, file, report, String(seed), JSON.stringify(lastIds)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    let told = 0;
    let partial = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Only when to kill: the count may lag behind the child, never run ahead of it.
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      told += lines.filter((line) => line.startsWith('ack ')).length;
      if (told >= killAfter) child.kill('SIGKILL');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const [code, signal] = (await once(child, 'close')) as [number | null, string | null];
    clearTimeout(timer);
    expect({ code, signal, stderr }).toEqual({ code: null, signal: 'SIGKILL', stderr: '' });
    const run: Run = { acks: [], issued: -1 };
    // A last line without its newline was cut by the kill: that write counts as in flight.
    for (const line of (await readFile(report, 'utf8')).split('\n').slice(0, -1)) {
      const [word, n] = line.split(' ');
      if (word === 'ack') run.acks.push(Number(n));
      if (word === 'issue') run.issued = Number(n);
    }
    expect(run.acks.length).toBeGreaterThanOrEqual(killAfter);
    return run;
  }

  async function storedState(): Promise<string> {
    const warnings: string[] = [];
    const store = await openFileStore(file, { onWarning: (line) => warnings.push(line) });
    const lists = [];
    for (const spec of KILL_COLLECTIONS)
      lists.push([spec.name, await store.collection(spec).list()]);
    await store.close();
    // kill -9 cannot cut a write in two: a torn line would mean a bug, not a crash.
    expect(warnings).toEqual([]);
    return JSON.stringify(lists);
  }

  /**
   * The writes of a run, replayed on `model` one at a time: the index of the first state
   * after which the file holds exactly the model (every acknowledged write, then some of the
   * writes in flight, in order), or undefined. Leaves `model` in that state.
   */
  function matchPrefix(
    seed: number,
    model: Model,
    lastAcked: number,
    stored: string,
  ): number | undefined {
    const writes = new Workload(seed, copyModel(model));
    // Bursts are awaited whole: the writes in flight are those of the burst after the
    // last acknowledged write.
    for (let index = 0; ;) {
      const burst = writes.next();
      if (index > lastAcked + 1) return undefined;
      for (const { write } of burst) {
        apply(model, write);
        if (index >= lastAcked && describeModel(model) === stored) return index;
        index += 1;
      }
    }
  }

  it('holds every acknowledged write after a kill at random moments, and in-flight ones only in order', async () => {
    let model = emptyModel();
    let killedInFlight = 0;
    for (let round = 0; round < 8; round++) {
      const seed = 7919 * (round + 1);
      // Kill after a random number of acknowledgements, so at a random point of a burst.
      const killAfter = 1 + Math.floor(Math.random() * 300);
      const { acks, issued } = await runAndKill(seed, model, killAfter);
      expect(acks).toEqual(acks.map((_, i) => i)); // acknowledged in order, none missing
      const lastAcked = acks.length - 1;
      if (issued > lastAcked) killedInFlight += 1;

      const stored = await storedState();
      const next = copyModel(model);
      const held = matchPrefix(seed, next, lastAcked, stored);
      expect(
        held,
        `round ${round}: the file is not the acknowledged writes plus a prefix of those in flight`,
      ).toBeDefined();
      model = next;
    }
    expect(killedInFlight).toBeGreaterThan(0);

    // The id counters survived too: the next creates continue from the model's.
    const store = await openStore();
    for (const spec of KILL_COLLECTIONS) {
      const created = await store.collection(spec).create({ name: 'after' });
      expect(created[spec.idProperty]).toBe(model.get(spec.name)!.lastId + 1);
    }
  });
});
