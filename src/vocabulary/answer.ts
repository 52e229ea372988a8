import type { StoredRecord } from '../store/store.js';

/**
 * JSON already checked against the spec's response schema and serialized to UTF-8: sent as
 * it is.
 * @example new CheckedJson(Buffer.from('{"id":1,"name":"Dog"}'))
 */
export class CheckedJson {
  constructor(readonly bytes: Buffer) {}
}

/**
 * A JSON array of records, each checked and serialized by `serialize` (which caches), sent
 * in slices so that a list of any size never holds the process for long, and never has to
 * be built as one string.
 */
export class RecordList {
  constructor(
    readonly records: readonly StoredRecord[],
    /** The record's JSON as UTF-8; `index` places it in a message about a broken record. */
    readonly serialize: (record: StoredRecord, index: number) => Buffer,
  ) {}
}

/** What a handler answers: the status, extra headers, and a body (none when undefined). */
export interface Answer {
  status: number;
  headers?: Readonly<Record<string, string>>;
  /** Any JSON value (checked against the spec before it is sent), or a pre-checked form. */
  body?: unknown;
}
