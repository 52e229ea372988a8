// The data file behind `--data`: JSON Lines, one header line, then one line per write.
// A line is a complete write when its newline is on disk; see decisions/003-data-file.md.
import type { FileHandle } from 'node:fs/promises';
import { StartupError } from '../vocabulary/errors.js';
import { StoreStates } from './records.js';
import type { RecordId } from './store.js';
import { isJsonObject } from '../vocabulary/record.js';

const DATA_FORMAT = 'petstore-kit-data';
const DATA_FORMAT_VERSION = 1;

export const HEADER_LINE = `${JSON.stringify({ format: DATA_FORMAT, version: DATA_FORMAT_VERSION })}\n`;

/**
 * The section of recorded answers (`petstore-kit proxy --record`): the target's last answer to
 * each operation without a collection, kept as records of this collection (the same crash-safe
 * lines as any record's), which the mock answers those operations with. No spec collection can
 * have the name: collection names are paths or `x-mock` names, never starting with `#`. Each
 * record carries the section's own `version`, so the file's header stays at version 1 and files
 * without the section load as before.
 * @example '{"op":"put","collection":"#answers","id":"getInventory","record":{"key":"getInventory","version":1,...}}'
 */
export const ANSWERS_SECTION = '#answers';
export const ANSWERS_SECTION_VERSION = 1;

/**
 * A data file that cannot be used as it is, or a folder, lock or permission that keeps the
 * store from using it. Its message is one line that names the file (and the line, when one
 * is at fault), fit for the CLI to print as it is.
 * @example
 * try { await openFileStore('data.jsonl'); }
 * catch (error) { if (error instanceof DataFileError) console.error(error.message); }
 */
export class DataFileError extends StartupError {
  override name = 'DataFileError';

  constructor(
    readonly path: string,
    problem: string,
    /** The 1-based line of the file at fault, when one is. */
    readonly line?: number,
    options?: ErrorOptions,
  ) {
    super(
      `Data file ${path}${line === undefined ? '' : `, line ${line}`}: ${oneLine(problem)}`,
      options,
    );
  }
}

/**
 * The line that stores a record (created or replaced). Its parts come as JSON already, so a
 * record is serialized once per write.
 * @example putLine('"categories"', '1', '{"id":1,"name":"Dog"}')
 * // '{"op":"put","collection":"categories","id":1,"record":{"id":1,"name":"Dog"}}\n'
 */
export function putLine(collectionJson: string, idJson: string, recordJson: string): string {
  return `{"op":"put","collection":${collectionJson},"id":${idJson},"record":${recordJson}}\n`;
}

/** @example deleteLine('"categories"', '1') // '{"op":"delete","collection":"categories","id":1}\n' */
export function deleteLine(collectionJson: string, idJson: string): string {
  return `{"op":"delete","collection":${collectionJson},"id":${idJson}}\n`;
}

/**
 * The line that sets a collection's last integer id, so that a snapshot keeps the ids of
 * deleted records from being handed out again. It also keeps an empty collection known.
 * @example counterLine('"categories"', 7) // '{"op":"counter","collection":"categories","lastId":7}\n'
 */
function counterLine(collectionJson: string, lastId: number): string {
  return `{"op":"counter","collection":${collectionJson},"lastId":${lastId}}\n`;
}

/**
 * The lines of a file that holds exactly these states: the header, then each collection's
 * counter and records, oldest first. Lazy, so that a large store is written in chunks.
 * @example [...snapshotLines(new StoreStates())] // [HEADER_LINE]
 */
export function* snapshotLines(states: StoreStates): Generator<string> {
  yield HEADER_LINE;
  for (const [name, state] of states.byName) {
    const collectionJson = JSON.stringify(name);
    yield counterLine(collectionJson, state.lastId);
    for (const [id, json] of state.records) yield putLine(collectionJson, JSON.stringify(id), json);
  }
}

export interface DataFileContents {
  states: StoreStates;
  /**
   * Whether the file held any collection (so the mock knows not to seed it): the recorded
   * answers' section alone does not count, a recording of such answers only is seeded as new.
   */
  loaded: boolean;
  /** Where the last complete write ends: the file is cut there when it is longer. */
  end: number;
  /** A half-written last line that was left out, if there was one. */
  torn?: { line: number; bytes: number };
}

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

/**
 * Reads a data file from its start, replaying its writes. Only a last line with no newline
 * (a write cut short by a crash) is left out, and reported in `torn`: a write is complete
 * once its newline is written, so a complete line that cannot be read is damage, which is
 * not for the store to cut.
 * @throws {DataFileError} for any damage to a complete line, naming the line.
 * @example const { states, torn } = await readDataFile(handle, 'data.jsonl');
 */
export async function readDataFile(handle: FileHandle, path: string): Promise<DataFileContents> {
  const replay = new Replay(path);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let carried: Buffer = Buffer.alloc(0);
  let carriedAt = 0;
  let position = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data =
      carried.length > 0
        ? Buffer.concat([carried, buffer.subarray(0, bytesRead)])
        : buffer.subarray(0, bytesRead);
    let start = 0;
    for (let end = data.indexOf(NEWLINE); end !== -1; end = data.indexOf(NEWLINE, start)) {
      replay.line(data.toString('utf8', start, end));
      start = end + 1;
    }
    carriedAt += start;
    // A copy: `buffer` is read into again.
    carried = Buffer.from(data.subarray(start));
  }
  return replay.finish(carriedAt, carried.length);
}

class Replay {
  readonly states = new StoreStates();
  #lines = 0;
  /** Whether a line wrote to a collection other than the recorded answers' section. */
  #data = false;

  constructor(readonly path: string) {}

  line(text: string): void {
    this.#lines += 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (this.#lines === 1) this.#notOurs();
      this.#fail(
        `not valid JSON (${(error as Error).message}); the line ends in a newline, so it is not a write cut short, the one damage repaired at start-up: repair or remove that line (the file was left as it is)`,
        this.#lines,
      );
    }
    if (this.#lines === 1) this.#header(value);
    else this.#apply(value);
  }

  finish(restAt: number, restBytes: number): DataFileContents {
    if (this.#lines === 0) {
      if (restBytes === 0) return { states: this.states, loaded: false, end: 0 };
      this.#notOurs();
    }
    const loaded = this.#data;
    if (restBytes > 0)
      return {
        states: this.states,
        loaded,
        end: restAt,
        torn: { line: this.#lines + 1, bytes: restBytes },
      };
    return { states: this.states, loaded, end: restAt };
  }

  #header(value: unknown): void {
    if (!isJsonObject(value) || value.format !== DATA_FORMAT) this.#notOurs();
    if (value.version !== DATA_FORMAT_VERSION)
      this.#fail(
        `data format version ${JSON.stringify(value.version)}, but this petstore-kit reads version ${DATA_FORMAT_VERSION} (was it written by a newer one?)`,
        1,
      );
  }

  #apply(value: unknown): void {
    if (!isJsonObject(value) || typeof value.collection !== 'string')
      this.#fail('not a data file record (it needs an "op" and a "collection")', this.#lines);
    const name = value.collection;
    if (name !== ANSWERS_SECTION) this.#data = true;
    switch (value.op) {
      case 'put': {
        const id = this.#id(value.id);
        const record = value.record;
        if (!isJsonObject(record)) this.#fail('a "put" without a "record" object', this.#lines);
        this.states.put(name, id, JSON.stringify(record));
        const state = this.states.of(name);
        if (typeof id === 'number') state.lastId = Math.max(state.lastId, id);
        return;
      }
      case 'delete':
        this.states.delete(name, this.#id(value.id));
        return;
      case 'counter': {
        const lastId = value.lastId;
        if (typeof lastId !== 'number' || !Number.isSafeInteger(lastId) || lastId < 0)
          this.#fail('a "counter" without a whole "lastId" of 0 or more', this.#lines);
        this.states.of(name).lastId = lastId;
        return;
      }
      default:
        this.#fail(`unknown record type ${JSON.stringify(value.op)}`, this.#lines);
    }
  }

  #id(id: unknown): RecordId {
    if (typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))) return id;
    return this.#fail('a record id must be a string or a whole number', this.#lines);
  }

  #notOurs(): never {
    return this.#fail(
      `not a petstore-kit data file (its first line is not {"format":"${DATA_FORMAT}",...})`,
      1,
    );
  }

  #fail(problem: string, line: number): never {
    throw new DataFileError(this.path, problem, line);
  }
}

/** An error's first line (Node's messages start with the code), for one-line messages. */
export function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
