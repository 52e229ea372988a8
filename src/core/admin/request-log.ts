import {
  CheckedJson,
  CheckedList,
  type CheckedAnswer,
  type FaultKind,
} from '../../vocabulary/answer.js';
import type { ReadBody } from '../request-body.js';

/** The largest body, sent or answered, the log keeps: the log stays small however long the mock runs. */
export const LOGGED_BODY_LIMIT = 16 * 1024;

/** A request as the log of recent requests is given it. */
export interface AnsweredRequest {
  method: string;
  /** The request target, query included, its credentials redacted (see showRequest). */
  path: string;
  /** The request's headers by lower-case name, its credentials redacted. */
  headers?: Readonly<Record<string, string>>;
  /** The status answered; none for a fault that sends no answer (a reset, a timeout). */
  status?: number;
  durationMs: number;
  /** When it was answered, in milliseconds since the epoch. */
  at: number;
  /** The body the client sent, as read (see keptBody). */
  body?: unknown;
  /** Why the body the client sent is not kept, when it is not. */
  bodyNote?: string;
  /** The answer sent, when one was (not for a fault): its headers and body are kept. */
  answer?: CheckedAnswer;
  /** The fault played instead of an answer, if one was. */
  fault?: FaultKind;
  /** The session the request belonged to, if it named one. */
  session?: string;
}

/** Which logged requests to show, every given field to match. */
export interface RequestFilter {
  /** The method, in any case. */
  method?: string;
  /** The path without its query, exactly; ending in `*`, a prefix of it. */
  path?: string;
  /** A status (`201`) or a class of them (`4xx`). */
  status?: string;
  session?: string;
  /** Answered at or after this time, in milliseconds since the epoch. */
  since?: number;
  /** At most this many, the newest. */
  limit?: number;
  /**
   * `summary`: only what a row of a list shows (no headers, no bodies), for a page that asks
   * every second; `full`: everything kept.
   * @default 'full'
   */
  view?: 'full' | 'summary';
}

/** The most recent requests, bounded: what an end-to-end test reads to see what its app sent. */
export interface RequestLog {
  /** How many requests it keeps: the newest. */
  readonly capacity: number;
  add(request: AnsweredRequest): void;
  /**
   * The logged requests a filter matches, newest first, as the admin API sends them (spec/admin.yaml's
   * RequestList: `{count, requests}`, `count` being every match, `requests` at most `limit`):
   * made of each entry's JSON, serialized once when it was logged, so that reading the log
   * never walks or copies what it holds.
   */
  list(filter?: RequestFilter): CheckedList;
  /** One logged request, whole (spec/admin.yaml's RecordedRequest), or undefined when the log no longer holds it. */
  get(id: number): CheckedJson | undefined;
  clear(): void;
}

/** What a filter is matched against: an entry keeps no body or answer beyond its JSON. */
interface Matched {
  readonly id: number;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly session: string | undefined;
  readonly at: number;
}

interface Entry {
  readonly request: Matched;
  /** The JSON the admin API shows of it, as UTF-8: whole, and as a row of a list. */
  readonly full: Buffer;
  readonly summary: Buffer;
}

/**
 * A ring buffer of the last `capacity` requests: memory stays bounded however long the
 * mock runs (each entry keeps at most 16 KiB of each body), and adding costs the same at the
 * first request and the millionth. Each entry is serialized when it is added (a body the
 * client sent that cannot be, such as one nested too deep, is shown as a note instead), so
 * reading the log is cheap and never fails. Entries are numbered from 1, and a `clear` does
 * not restart the numbers: an id names one request for as long as the mock runs.
 * @example const log = createRequestLog(1000); log.add(request); log.list({ method: 'POST' });
 */
export function createRequestLog(capacity = 1000): RequestLog {
  const entries: (Entry | undefined)[] = new Array<Entry | undefined>(capacity);
  let next = 0;
  let size = 0;
  let lastId = 0;

  function* newestFirst(filter: RequestFilter): Generator<Entry> {
    const matches = matcher(filter);
    for (let i = 1; i <= size; i++) {
      const entry = entries[(next - i + capacity) % capacity];
      if (entry && matches(entry.request)) yield entry;
    }
  }

  return {
    capacity,
    add(request) {
      const id = ++lastId;
      entries[next] = {
        request: {
          id,
          method: request.method,
          path: request.path,
          status: request.status,
          session: request.session,
          at: request.at,
        },
        ...serialize(id, request),
      };
      next = (next + 1) % capacity;
      size = Math.min(size + 1, capacity);
    },
    list(filter = {}) {
      const parts: Buffer[] = [];
      const summary = filter.view === 'summary';
      let count = 0;
      for (const entry of newestFirst(filter)) {
        if (count++ < (filter.limit ?? capacity)) parts.push(summary ? entry.summary : entry.full);
      }
      const open = Buffer.from(`{"count":${count},"requests":[`);
      const close = Buffer.from(']}');
      return new CheckedList(parts, { open, close });
    },
    get(id) {
      // Ids are consecutive in the ring, the newest at `next - 1`.
      const back = lastId - id;
      if (!Number.isInteger(back) || back < 0 || back >= size) return undefined;
      const entry = entries[(next - 1 - back + capacity) % capacity];
      return entry && new CheckedJson(entry.full);
    },
    clear() {
      entries.fill(undefined);
      next = 0;
      size = 0;
    },
  };
}

/**
 * What the log keeps of a body the client sent: its value as read (JSON, a form as an
 * object, text), or a note saying why not (bytes of another media type, more than 16 KiB).
 * @example keptBody(await readBody(request, operation.requestBody)) // { body: { name: 'Rex' } }
 */
export function keptBody(body: ReadBody | undefined): Pick<AnsweredRequest, 'body' | 'bodyNote'> {
  if (!body) return {};
  if (body.bytes > LOGGED_BODY_LIMIT)
    return { bodyNote: `The body was ${body.bytes} bytes: more than the 16 KiB kept` };
  if (Buffer.isBuffer(body.value))
    return { bodyNote: `A body of ${body.bytes} bytes of ${body.mediaType}, not kept` };
  return { body: body.value };
}

/**
 * The entry as the admin API shows it (spec/admin.yaml's RecordedRequest), as UTF-8 JSON, whole
 * and as a row. The answer's body is JSON already (a `CheckedJson` or `CheckedList`): its bytes
 * go in as they are, never parsed again.
 */
function serialize(id: number, request: AnsweredRequest): { full: Buffer; summary: Buffer } {
  const { at, body, bodyNote, headers, answer, ...rest } = request;
  const row = { id, ...rest, time: new Date(at).toISOString() };
  const summary = Buffer.from(JSON.stringify(row));
  const kept = { ...row, ...(headers ? { headers } : {}) };
  let sent: string;
  try {
    sent = JSON.stringify(
      body !== undefined ? { ...kept, body } : bodyNote ? { ...kept, bodyNote } : kept,
    );
  } catch {
    sent = JSON.stringify({ ...kept, bodyNote: 'The body could not be kept (nested too deep)' });
  }
  if (!answer) return { summary, full: Buffer.from(sent) };
  // `sent` ends with its closing brace: the response goes in before it.
  const parts = [
    Buffer.from(`${sent.slice(0, -1)},"response":`),
    ...responseParts(request),
    Buffer.from('}'),
  ];
  return { summary, full: Buffer.concat(parts) };
}

/** spec/admin.yaml's RecordedResponse: the answer's headers, and its body or the start of it. */
function responseParts({ answer, method }: AnsweredRequest): Buffer[] {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer?.headers ?? {}))
    headers[name.toLowerCase()] = value;
  const open = `{"headers":${JSON.stringify(headers)}`;
  const body = answer?.body;
  // HEAD gets the headers of GET and no body.
  if (body === undefined || method === 'HEAD') return [Buffer.from(`${open}}`)];
  if (body instanceof CheckedJson) {
    if (body.bytes.length <= LOGGED_BODY_LIMIT)
      return [Buffer.from(`${open},"body":`), body.bytes, Buffer.from('}')];
    return [
      Buffer.from(cutBody(open, body.bytes.subarray(0, LOGGED_BODY_LIMIT), body.bytes.length)),
    ];
  }
  if (body.length <= LOGGED_BODY_LIMIT)
    return [Buffer.from(`${open},"body":`), ...listBytes(body, body.length), Buffer.from('}')];
  return [
    Buffer.from(cutBody(open, Buffer.concat(listBytes(body, LOGGED_BODY_LIMIT)), body.length)),
  ];
}

/** A body too large to keep: its size, and its first 16 KiB as text (a cut character shows as �). */
function cutBody(open: string, start: Buffer, bytes: number): string {
  return `${open},"bodyBytes":${bytes},"bodyStart":${JSON.stringify(start.toString('utf8'))}}`;
}

/** The first `limit` bytes of a list's JSON, in pieces: `[`, the parts with commas, `]`. */
function listBytes({ parts, open, close }: CheckedList, limit: number): Buffer[] {
  const pieces: Buffer[] = [open];
  let length = open.length;
  const comma = Buffer.from(',');
  for (let i = 0; i < parts.length && length < limit; i++) {
    if (i > 0) pieces.push(comma);
    const part = parts[i] as Buffer;
    pieces.push(part);
    length += part.length + (i > 0 ? 1 : 0);
  }
  if (length < limit) pieces.push(close);
  const whole = Buffer.concat(pieces);
  return [whole.length > limit ? whole.subarray(0, limit) : whole];
}

function matcher(filter: RequestFilter): (request: Matched) => boolean {
  const method = filter.method?.toUpperCase();
  const path = filter.path;
  const prefix = path?.endsWith('*') ? path.slice(0, -1) : undefined;
  const status = filter.status?.toLowerCase();
  return (request) => {
    if (method !== undefined && request.method !== method) return false;
    if (path !== undefined) {
      const q = request.path.indexOf('?');
      const bare = q === -1 ? request.path : request.path.slice(0, q);
      if (prefix !== undefined ? !bare.startsWith(prefix) : bare !== path) return false;
    }
    if (status !== undefined) {
      const answered = request.status === undefined ? '' : String(request.status);
      const matches = status.endsWith('xx') ? answered[0] === status[0] : answered === status;
      if (!matches) return false;
    }
    if (filter.session !== undefined && request.session !== filter.session) return false;
    if (filter.since !== undefined && request.at < filter.since) return false;
    return true;
  };
}
