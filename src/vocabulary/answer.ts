// The answers the layers pass upward as plain data: what a handler returns, and what the
// core hands the HTTP adapter to send, checked against the spec.
import { setField, type JsonRecord } from './record.js';
import type { Texts } from './texts.js';

/** What a handler answers: the status, extra headers, and a body (none when undefined). */
export interface Answer {
  status: number;
  headers?: Readonly<Record<string, string>>;
  /**
   * Any JSON value, checked against the spec before it is sent, or a form already checked
   * (`CheckedJson`) or checked as it is sent (`RecordList`, `RecordTexts`).
   */
  body?: unknown;
}

/**
 * JSON already checked against the spec's response schema and serialized to UTF-8: sent as
 * it is.
 * @example new CheckedJson(Buffer.from('{"id":1,"name":"Dog"}'))
 */
export class CheckedJson {
  constructor(readonly bytes: Buffer) {}
}

/**
 * A JSON array of stored records, each checked and serialized by `serialize` (which caches),
 * in slices: a list of any size never holds the process for long, and is never built as one
 * string.
 */
export class RecordList {
  constructor(
    readonly records: readonly JsonRecord[],
    /** The record's JSON as UTF-8; `index` places it in a message about a broken record. */
    readonly serialize: (record: JsonRecord, index: number) => Buffer,
  ) {}
}

/**
 * A JSON array of stored records given as their JSON texts (a store that keeps records as
 * text or as its bytes), each checked by `serialize` (which remembers), in slices, nothing
 * parsed: the list sent is the store's own texts.
 */
export class RecordTexts {
  constructor(
    readonly texts: Texts,
    /**
     * Checks the record at `index` (which places it in a message about a broken record), and
     * answers the JSON the answer shows in place of its stored text, or undefined when it shows
     * the stored text.
     */
    readonly serialize: (index: number) => string | undefined,
    /**
     * The same for every list its texts are shown by (the record serializer): the checked list
     * of an unchanged array is remembered under it, as `serialize` is made for each list.
     */
    readonly shownBy: object,
  ) {}
}

const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');

/**
 * A JSON array whose items are checked and serialized: the parts, sent between `[`, `,` and
 * `]` (or another opening and closing, for an array inside an object).
 * @example new CheckedList([Buffer.from('1'), Buffer.from('2')]).length // 5, the bytes of [1,2]
 */
export class CheckedList {
  /** The bytes of the whole answer, brackets and commas included. */
  readonly length: number;
  readonly open: Buffer;
  readonly close: Buffer;

  constructor(
    /** Each item's UTF-8 JSON, as bytes or as text, or a store's texts. */
    readonly parts: readonly (Buffer | string)[] | Texts,
    around: { open: Buffer; close: Buffer } = { open: OPEN, close: CLOSE },
    /** The UTF-8 bytes of the parts together, when the caller has counted them already. */
    partBytes?: number,
  ) {
    this.open = around.open;
    this.close = around.close;
    let length = this.open.length + this.close.length + Math.max(0, parts.length - 1);
    if (partBytes !== undefined) length += partBytes;
    else if (!Array.isArray(parts)) length += (parts as Texts).byteLength;
    else for (const part of parts as readonly (Buffer | string)[]) length += byteLengthOf(part);
    this.length = length;
  }

  /** The whole answer's bytes, once joined: a list is never changed, and may be sent again. */
  #whole: Buffer | undefined;

  /**
   * The answer's bytes in one buffer (joined once), or its first `limit` bytes.
   * @example new CheckedList([Buffer.from('1'), Buffer.from('2')]).joined().toString() // '[1,2]'
   */
  joined(limit = this.length): Buffer {
    if (limit >= this.length) return (this.#whole ??= this.#join(this.length));
    return this.#join(limit);
  }

  #join(size: number): Buffer {
    // Every byte is written below: copies stop at the end of the buffer (a text cut short may
    // leave the last bytes of a character unwritten: a cut buffer starts zeroed).
    const bytes = size < this.length ? Buffer.alloc(size) : Buffer.allocUnsafe(size);
    let at = this.open.copy(bytes);
    const { parts } = this;
    const texts = Array.isArray(parts) ? undefined : (parts as Texts);
    let i = 0;
    if (texts) {
      // Whole texts in runs (Texts.copyInto); a text cut short is written below.
      const cursor = { index: 0, offset: at };
      texts.copyInto(cursor, bytes, Math.min(size, this.length - this.close.length));
      i = cursor.index;
      at = cursor.offset;
    }
    for (; i < parts.length && at < size; i++) {
      if (i > 0) at += COMMA.copy(bytes, at);
      if (texts) {
        // A store's bytes: copied whole when they fit, else through a string, cut as one is.
        if (at + texts.byteLengthAt(i) <= size) at += texts.copyTo(i, bytes, at);
        else at += bytes.write(texts.at(i), at);
        continue;
      }
      const part = (parts as readonly (Buffer | string)[])[i] as Buffer | string;
      at += typeof part === 'string' ? bytes.write(part, at) : part.copy(bytes, at);
    }
    if (at < size) this.close.copy(bytes, at);
    return bytes;
  }
}

const COMMA = Buffer.from(',');

/** @example byteLengthOf('é') // 2 */
function byteLengthOf(part: Buffer | string): number {
  return typeof part === 'string' ? Buffer.byteLength(part) : part.length;
}

/** An answer ready to send: checked against the spec, every header set. */
export interface CheckedAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: CheckedJson | CheckedList | undefined;
  /** Why it is an error, for the log: the error's message. */
  reason?: string;
  /** A streamed answer's events, sent in place of a body (which is then undefined). */
  stream?: CheckedStream;
}

/** Where a streamed answer breaks off, as `Prefer: fault=reset; after=2` asks. */
export interface StreamCut {
  kind: FaultKind;
  /** How many whole events go out before it. */
  after: number;
  /** How long a `timeout` holds the connection before closing it. */
  holdMs: number;
}

/**
 * The events of a streamed answer (Server-Sent Events, JSON Lines, JSON text sequences), each
 * made, checked against the item schema and framed when it is about to go out: a stream of
 * any length holds one event at a time. Every adapter sends it alike: an event, the
 * interval, the next, and the cut where one is asked for.
 * @example new CheckedStream(3, 50, (i) => Buffer.from(`data: ${i}\n\n`))
 */
export class CheckedStream {
  constructor(
    /** How many events it sends. */
    readonly count: number,
    /** The pause before each event but the first. */
    readonly intervalMs: number,
    /**
     * The framed bytes of event `index` (from 0, each asked once, in order).
     * @throws {ApiError} 500 `invalid_response` for an event that breaks its schema.
     */
    readonly event: (index: number) => Buffer,
    readonly cut?: StreamCut,
  ) {}

  /** How many events go out before the end or the cut. */
  get sent(): number {
    return this.cut ? Math.min(this.cut.after, this.count) : this.count;
  }
}

/** The network faults the mock can play instead of an answer. */
export const FAULT_KINDS = ['reset', 'timeout', 'malformed'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** A fault to play instead of an answer: only the HTTP adapter can (it holds the socket). */
export interface Fault {
  kind: FaultKind;
  /** How long a `timeout` fault holds the connection before closing it unanswered. */
  holdMs: number;
  /** The success status a `malformed` answer claims. */
  status: number;
  /** What a `malformed` answer is cut from: the JSON the request would have had. */
  body: unknown;
}

/**
 * What a `malformed` fault sends: the JSON the request would have had, cut in half, so that
 * every adapter (a socket, MSW) breaks it alike.
 * @example malformedText({ kind: 'malformed', holdMs: 0, status: 200, body: { id: 1 } }) // '{"id'
 */
export function malformedText(fault: Fault): string {
  const whole = JSON.stringify(fault.body ?? { malformed: true }) ?? '{}';
  return whole.slice(0, Math.max(1, Math.floor(whole.length / 2)));
}

/** What the core makes of a request: an answer to send, or a fault to play. */
export type Reply =
  { answer: CheckedAnswer; fault?: undefined } | { fault: Fault; answer?: undefined };

/**
 * The answer with its body as plain JSON, whatever form it was in: what code of a user's gets
 * to read and change.
 * @example plainAnswer({ status: 200, body: new CheckedJson(Buffer.from('[1]')) }).body // [1]
 */
export function plainAnswer(answer: Answer): Answer {
  const { body } = answer;
  if (body instanceof CheckedJson)
    return { ...answer, body: JSON.parse(body.bytes.toString('utf8')) as unknown };
  if (body instanceof RecordList) return { ...answer, body: [...body.records] };
  if (body instanceof RecordTexts)
    return {
      ...answer,
      body: Array.from({ length: body.texts.length }, (_, i) => JSON.parse(body.texts.at(i))),
    };
  return answer;
}

/**
 * The headers of `base` with those of `over` in place of any of the same name. Set one by one
 * rather than spread: a spread of objects of many shapes (every operation's headers) is V8's
 * slow path, on every answer that has headers of its own.
 * @example mergedHeaders({ Deprecation: 'true' }, { Location: '/v1/pets/1' }) // both
 */
export function mergedHeaders(
  base: Readonly<Record<string, string>>,
  over: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const name of Object.keys(base)) setField(merged, name, base[name]);
  for (const name of Object.keys(over)) setField(merged, name, over[name]);
  return merged;
}
