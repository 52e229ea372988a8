import type { EntryBounds, EntryCodec, ListBounds, SideData } from '../../store/store.js';
import {
  CheckedJson,
  CheckedList,
  type CheckedAnswer,
  type FaultKind,
} from '../../vocabulary/answer.js';
import type { MockRequest } from '../../vocabulary/request.js';
import type { ReadBody } from '../request-body.js';
import { redactHeaders, redactTarget, type CredentialPlaces } from './redact.js';
import { RequestRing } from './request-ring.js';

/** The largest body, sent or answered, the log keeps: the log stays small however long the mock runs. */
export const LOGGED_BODY_LIMIT = 16 * 1024;

/** A request as the log of recent requests keeps it. */
export interface AnsweredRequest {
  method: string;
  /** The request target, query included, as sent: its credentials are redacted when shown. */
  path: string;
  /** The request's headers as received: their credentials are redacted when shown. */
  headers?: MockRequest['headers'];
  /** Where the API's credentials travel besides `Authorization` (see redact.ts). */
  credentials?: CredentialPlaces;
  /** The status answered; none for a fault that sends no answer (a reset, a timeout). */
  status?: number;
  durationMs: number;
  /** When it was answered, in milliseconds since the epoch. */
  at: number;
  /** The body the client sent, as read (see loggedBody). */
  body?: unknown;
  /** Why the body the client sent is not kept, when it is not. */
  bodyNote?: string;
  /** The size in bytes of the body the client sent, kept or not: what the log's bounds count. */
  bodyBytes?: number;
  /** What is kept of the answer sent (see loggedAnswer); none for a fault. */
  response?: LoggedAnswer;
  /** The fault played instead of an answer, if one was. */
  fault?: FaultKind;
  /** The session the request belonged to, if it named one. */
  session?: string;
  /** Set for a request the mock sent (a callback, a webhook): `path` is then its URL. */
  outgoing?: OutgoingNote;
}

/** What the request log says of a request the mock sent (its `outgoing` member). */
export interface OutgoingNote {
  kind: 'callback' | 'webhook';
  /** The callback's or the webhook's name. */
  name: string;
  /** The operation whose answer set off a callback, or the change a webhook followed. */
  cause?: string;
  /** Attempts made; 0 when it was refused before any. */
  attempts: number;
  /** Why nothing was sent, or why the last attempt failed (a timeout, a refused connection). */
  error?: string;
  /** What broke the description: the body sent, or the receiver's answer. */
  problems: string[];
}

/** What the log keeps of an answer: its headers, and its body or the start of it. */
export interface LoggedAnswer {
  headers: Readonly<Record<string, string>>;
  /** The whole JSON body, when it is at most 16 KiB: a checked answer's, which never changes. */
  body?: CheckedJson | CheckedList;
  /** The first 16 KiB of a bigger one (a cut character shows as U+FFFD), and its size. */
  start?: Buffer;
  bytes?: number;
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
  /** `incoming`: the requests the mock answered; `outgoing`: the callbacks and webhooks it sent. */
  direction?: 'incoming' | 'outgoing';
  /**
   * `summary`: only what a row of a list shows (no headers, no bodies), for a page that asks
   * every second; `full`: everything kept.
   * @default 'full'
   */
  view?: 'full' | 'summary';
}

/** The most recent requests, bounded: what an end-to-end test reads to see what its app sent. */
export interface RequestLog {
  /** A promise only when the log is a shared store's (see SideData.pushEntry). */
  add(request: AnsweredRequest): void | Promise<void>;
  /**
   * The logged requests a filter matches, newest first, as the admin API sends them (spec/admin.yaml's
   * RequestList: `{count, requests}`, `count` being every match, `requests` at most `limit`),
   * each with its number in the log (`id`).
   */
  list(filter?: RequestFilter): Promise<CheckedList>;
  /** One logged request, whole (spec/admin.yaml's RecordedRequest); undefined once the log no longer holds it. */
  get(id: number): Promise<CheckedJson | undefined>;
  clear(): Promise<void>;
}

/** How many requests a log keeps (each state's; all of them together are bounded by LogBounds). */
export const LOG_CAPACITY = 1000;

/** The most the request logs of one mock hold, all states together. */
export interface LogBounds extends ListBounds {
  /**
   * Entries, all logs together.
   * @default DEFAULT_LOG_BOUNDS.entries
   */
  entries: number;
  /**
   * Bytes, all logs together, counted as what each entry keeps: its path, its headers, the
   * body sent and the answer's body (each at most 16 KiB) and about 200 bytes besides.
   * @default DEFAULT_LOG_BOUNDS.bytes
   */
  bytes: number;
}

/**
 * Five thousand requests or 32 MiB: five full logs of a thousand, or a hundred sessions' last
 * fifty each; a laptop bears it however many sessions fill up.
 */
export const DEFAULT_LOG_BOUNDS: LogBounds = { entries: 5000, bytes: 32 * 1024 * 1024 };

/** What an entry costs besides its path, headers and bodies: its numbers, times and slots. */
const ENTRY_OVERHEAD = 200;

/** The CPU a listing may take in one turn of the event loop before it lets others run. */
const LIST_SLICE_MS = 4;

/** The list of a state's side data that holds its log. */
const LOG_LIST = 'requests';

/** A logged request, and, read back from a shared store, the JSON it was stored as. */
type LoggedRequest = AnsweredRequest & { readonly stored?: string };

/**
 * How a log's entries are kept. A store of this process holds each request field by field in
 * a RequestRing, and serializes nothing on the path of the request; a shared store holds it
 * as its JSON, credentials redacted, made when it is added.
 */
const REQUEST_CODEC: EntryCodec<LoggedRequest> = {
  encode: (request) => request.stored ?? wholeOf(request, undefined).toString('utf8'),
  decode(json) {
    const shown = JSON.parse(json) as Omit<AnsweredRequest, 'at'> & { time: string };
    const { method, path, status, durationMs, session, fault, outgoing } = shown;
    return {
      method,
      path,
      status,
      durationMs,
      session,
      fault,
      outgoing,
      at: Date.parse(shown.time),
      stored: json,
    };
  },
  bytes: costOf,
  slots: (capacity) => new RequestRing(capacity),
};

/**
 * The log of one state, kept in its side data: a bounded list of the store's (see
 * SideData.pushEntry), the last `capacity` requests, all the logs of the mock bounded together
 * by `bounds`. Memory stays bounded however long the mock runs (each entry keeps at most 16 KiB
 * of each body), and adding costs the same at the first request and the millionth. A store of
 * this process serializes nothing when a request is added: an entry is serialized (its
 * credentials redacted) when it is first listed, and kept so; a shared store keeps entries as
 * JSON, so that every replica reads what every other added. A listing serializes in slices
 * that let other requests run, and a body the client sent that cannot be serialized (one
 * nested too deep) is shown as a note instead, so reading the log never blocks the mock and
 * never fails. Entries are numbered from 1, and a `clear` does not restart the numbers: a
 * number names one request for as long as the mock runs.
 * @example const log = createRequestLog(store.sideData()); await log.add(request); await log.list({ method: 'POST' });
 */
export function createRequestLog(
  side: SideData,
  options: {
    /** @default LOG_CAPACITY */
    capacity?: number;
    /** @default DEFAULT_LOG_BOUNDS */
    bounds?: LogBounds;
  } = {},
): RequestLog {
  const capacity = options.capacity ?? LOG_CAPACITY;
  const bounds: EntryBounds = { capacity, whole: options.bounds ?? DEFAULT_LOG_BOUNDS };
  // The JSON each entry held in this process is shown as, by its number, made when first listed
  // and kept while the log holds the entry: a page that lists the log every second serializes
  // each entry once.
  const rows = new Map<number, Buffer>();
  const wholes = new Map<number, Buffer>();

  /**
   * An entry's JSON; an entry pushed out while a listing ran is shown all the same. One held in
   * this process is serialized once and kept; one read back from a shared store is shown from
   * the JSON it was stored as, never kept: another replica may drop the state, and its numbers
   * start again.
   */
  function shown(request: LoggedRequest, id: number, view: RequestFilter['view']): Buffer {
    if (request.stored !== undefined)
      return view === 'summary'
        ? Buffer.from(JSON.stringify(rowOf(request, id)))
        : Buffer.from(`{"id":${id},${request.stored.slice(1)}`);
    const cache = view === 'summary' ? rows : wholes;
    let json = cache.get(id);
    if (!json) {
      json =
        view === 'summary' ? Buffer.from(JSON.stringify(rowOf(request, id))) : wholeOf(request, id);
      cache.set(id, json);
    }
    return json;
  }

  /** Forgets the JSON of entries the log no longer holds (older than `oldest`). */
  function forgetBefore(oldest: number): void {
    for (const cache of [rows, wholes])
      for (const id of cache.keys()) if (id < oldest) cache.delete(id);
  }

  return {
    add: (request) => side.pushEntry(LOG_LIST, request, REQUEST_CODEC, bounds),
    async list(filter = {}) {
      const { entries, pushed } = await side.readEntries(LOG_LIST, REQUEST_CODEC);
      forgetBefore(pushed - entries.length + 1);
      const matches = matcher(filter);
      const limit = filter.limit ?? capacity;
      const chosen: number[] = [];
      let count = 0;
      entries.forEach((request, index) => {
        if (matches(request) && count++ < limit) chosen.push(index);
      });
      const parts: Buffer[] = [];
      let slice = performance.now();
      for (const index of chosen) {
        parts.push(shown(entries[index] as LoggedRequest, pushed - index, filter.view));
        if (performance.now() - slice > LIST_SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          slice = performance.now();
        }
      }
      return listOf(parts, count);
    },
    async get(id) {
      const { entries, pushed } = await side.readEntries(LOG_LIST, REQUEST_CODEC);
      const request = Number.isInteger(id) ? entries[pushed - id] : undefined;
      return request && new CheckedJson(shown(request, id, 'full'));
    },
    async clear() {
      rows.clear();
      wholes.clear();
      await side.clearEntries(LOG_LIST);
    },
  };
}

/**
 * What an entry counts for in the log's bounds: what it keeps alive (its path, headers, the
 * body sent and the answer's body, each body at most 16 KiB) and a little besides. Made on the
 * path of every request: sizes only, nothing serialized.
 */
function costOf(request: AnsweredRequest): number {
  let cost = ENTRY_OVERHEAD + request.path.length;
  const { headers, response } = request;
  if (headers)
    for (const name in headers) {
      const value = headers[name];
      cost += name.length + (typeof value === 'string' ? value.length : headerLength(value));
    }
  if (request.body !== undefined) cost += Math.min(request.bodyBytes ?? 0, LOGGED_BODY_LIMIT);
  if (response) {
    const { body, start } = response;
    if (body) cost += body instanceof CheckedJson ? body.bytes.length : body.length;
    else if (start) cost += start.length;
  }
  return cost;
}

function headerLength(value: readonly string[] | undefined): number {
  let length = 0;
  for (const part of value ?? []) length += part.length;
  return length;
}

/**
 * What the log keeps of a body the client sent: its value as read (JSON, a form as an
 * object, text), or a note saying why not (bytes of another media type, more than 16 KiB).
 * @example loggedBody(await readBody(request, operation.requestBody)) // { body: { name: 'Rex' } }
 */
export function loggedBody(
  body: ReadBody | undefined,
): Pick<AnsweredRequest, 'body' | 'bodyNote' | 'bodyBytes'> {
  if (!body) return {};
  const bodyBytes = body.bytes;
  if (body.bytes > LOGGED_BODY_LIMIT)
    return { bodyNote: `The body was ${body.bytes} bytes: more than the 16 KiB kept`, bodyBytes };
  if (Buffer.isBuffer(body.value))
    return { bodyNote: `A body of ${body.bytes} bytes of ${body.mediaType}, not kept`, bodyBytes };
  return { body: body.value, bodyBytes };
}

/**
 * What the log keeps of an answer: the checked answer itself when its body is at most 16 KiB
 * (it never changes: records are frozen, their JSON cached), else its headers and a copy of
 * the first 16 KiB of its body (a reference would keep all of it alive).
 * @example loggedAnswer(reply.answer, 'GET') // reply.answer, for a list of ten categories
 */
export function loggedAnswer(answer: CheckedAnswer, method: string): LoggedAnswer {
  const { headers, body } = answer;
  // HEAD gets the headers of GET and no body.
  if (body === undefined || method === 'HEAD') return { headers };
  const bytes = body instanceof CheckedJson ? body.bytes.length : body.length;
  // The answer itself: nothing made on the path of every request.
  if (bytes <= LOGGED_BODY_LIMIT) return answer;
  const start =
    body instanceof CheckedJson
      ? Buffer.from(body.bytes.subarray(0, LOGGED_BODY_LIMIT))
      : body.joined(LOGGED_BODY_LIMIT);
  return { headers, start, bytes };
}

/** spec/admin.yaml's RecordedRequest as a row of a list (`view=summary`): no headers, no bodies. */
function rowOf(request: AnsweredRequest, id: number | undefined) {
  return {
    id,
    method: request.method,
    path: redactTarget(request.path, request.credentials),
    status: request.status,
    durationMs: request.durationMs,
    time: new Date(request.at).toISOString(),
    session: request.session,
    fault: request.fault,
    outgoing: request.outgoing,
  };
}

/**
 * spec/admin.yaml's RecordedRequest, whole, as UTF-8 JSON; `id` left out for a store that
 * numbers its entries itself. The answer's body is JSON already (a checked answer's): its
 * bytes go in as they are, never parsed again.
 */
function wholeOf(request: AnsweredRequest, id: number | undefined): Buffer {
  let head = JSON.stringify(rowOf(request, id)).slice(0, -1);
  if (request.headers)
    head += `,"headers":${JSON.stringify(redactHeaders(request.headers, request.credentials))}`;
  head += bodyMember(request.body, request.bodyNote);
  const { response } = request;
  if (!response) return Buffer.from(`${head}}`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) headers[name.toLowerCase()] = value;
  head += `,"response":{"headers":${JSON.stringify(headers)}`;
  const { body, start } = response;
  if (body)
    return Buffer.concat([
      Buffer.from(`${head},"body":`),
      body instanceof CheckedJson ? body.bytes : body.joined(),
      CLOSE_BOTH,
    ]);
  if (start) {
    const text = JSON.stringify(start.toString('utf8'));
    return Buffer.from(`${head},"bodyBytes":${response.bytes},"bodyStart":${text}}}`);
  }
  return Buffer.from(`${head}}}`);
}

/** The body the client sent as a JSON member, or the note of why it is not kept. */
function bodyMember(body: unknown, note: string | undefined): string {
  if (body !== undefined) {
    try {
      return `,"body":${JSON.stringify(body)}`;
    } catch {
      note = 'The body could not be kept (nested too deep)';
    }
  }
  return note ? `,"bodyNote":${JSON.stringify(note)}` : '';
}

/** The first `limit` bytes of a list's JSON (`[`, the parts with commas, `]`), copied into one buffer. */
const CLOSE_BOTH = Buffer.from('}}');

/** The admin API's RequestList of these entries' JSON. */
function listOf(parts: Buffer[], count: number): CheckedList {
  const open = Buffer.from(`{"count":${count},"requests":[`);
  return new CheckedList(parts, { open, close: CLOSE });
}

const CLOSE = Buffer.from(']}');

function matcher(filter: RequestFilter): (request: AnsweredRequest) => boolean {
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
    if (
      filter.direction !== undefined &&
      (request.outgoing ? 'outgoing' : 'incoming') !== filter.direction
    )
      return false;
    return true;
  };
}
