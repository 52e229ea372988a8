import type { SideData } from '../../store/store.js';
import {
  CheckedJson,
  CheckedList,
  type CheckedAnswer,
  type FaultKind,
} from '../../vocabulary/answer.js';
import type { MockRequest } from '../../vocabulary/request.js';
import type { ReadBody } from '../request-body.js';
import { DEFAULT_LOG_BOUNDS, LogBudget, type BudgetedLog, type LogBounds } from './log-budget.js';
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
  /** The body the client sent, as read (see keptBody). */
  body?: unknown;
  /** Why the body the client sent is not kept, when it is not. */
  bodyNote?: string;
  /** The size in bytes of the body the client sent, kept or not: what the log's bounds count. */
  bodyBytes?: number;
  /** What is kept of the answer sent (see keptAnswer); none for a fault. */
  response?: KeptAnswer;
  /** The fault played instead of an answer, if one was. */
  fault?: FaultKind;
  /** The session the request belonged to, if it named one. */
  session?: string;
}

/** What the log keeps of an answer: its headers, and its body or the start of it. */
export interface KeptAnswer {
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
  /**
   * `summary`: only what a row of a list shows (no headers, no bodies), for a page that asks
   * every second; `full`: everything kept.
   * @default 'full'
   */
  view?: 'full' | 'summary';
}

/** The most recent requests, bounded: what an end-to-end test reads to see what its app sent. */
export interface RequestLog {
  add(request: AnsweredRequest): void | Promise<void>;
  /**
   * The logged requests a filter matches, newest first, as the admin API sends them (spec/admin.yaml's
   * RequestList: `{count, requests}`, `count` being every match, `requests` at most `limit`),
   * each with its number in the log (`id`).
   */
  list(filter?: RequestFilter): CheckedList | Promise<CheckedList>;
  /** One logged request, whole (spec/admin.yaml's RecordedRequest); undefined once the log no longer holds it. */
  get(id: number): CheckedJson | undefined | Promise<CheckedJson | undefined>;
  clear(): void | Promise<void>;
}

/** How many requests a log keeps (each state's; all of them together are bounded by a LogBudget). */
export const LOG_CAPACITY = 1000;

/** What an entry costs besides its path, headers and bodies: its numbers, times and slots. */
const ENTRY_OVERHEAD = 200;

/** The CPU a listing may take in one turn of the event loop before it lets others run. */
const LIST_SLICE_MS = 4;

/**
 * A ring buffer of the last `capacity` requests: memory stays bounded however long the mock
 * runs (each entry keeps at most 16 KiB of each body), and adding costs the same at the first
 * request and the millionth, and next to nothing: an entry is serialized (its credentials
 * redacted) when it is first listed, never on the path of the request it logs, and kept so. A
 * listing serializes in slices that let other requests run, and a body the client sent that
 * cannot be serialized (one nested too deep) is shown as a note instead, so reading the log
 * never blocks the mock and never fails. Entries are numbered from 1, and a `clear` does not
 * restart the numbers: a number names one request for as long as the mock runs. The logs of
 * one mock share a budget: past its bounds, the oldest entry of any of them goes.
 * @param budget the bounds of every log of the mock together; a log of its own by default.
 * @example const log = createRequestLog(1000); log.add(request); await log.list({ method: 'POST' });
 */
export function createRequestLog(
  capacity = LOG_CAPACITY,
  budget: LogBudget = new LogBudget(),
): RequestLog {
  // The requests are kept field by field (see RequestRing), and beside them the JSON each is
  // shown as once listed. Numbers are consecutive, the newest (`lastId`) at `next - 1`.
  const ring = new RequestRing(capacity);
  const rows: (Buffer | undefined)[] = new Array<Buffer | undefined>(capacity);
  const wholes: (Buffer | undefined)[] = new Array<Buffer | undefined>(capacity);
  /** What each entry counts for in the budget. */
  const costs = new Float64Array(capacity);
  let next = 0;
  let size = 0;
  let lastId = 0;
  /** The costs of the entries held, together. */
  let held = 0;

  /** How the budget sees this log: entries `lastId - size + 1` to `lastId`, oldest dropped first. */
  const budgeted: BudgetedLog = {
    holds: (id) => id > lastId - size && id <= lastId,
    dropOldest(id) {
      if (size === 0 || id !== lastId - size + 1) return 0;
      const slot = slotOf(size - 1);
      const cost = costs[slot] ?? 0;
      ring.empty(slot);
      rows[slot] = undefined;
      wholes[slot] = undefined;
      size -= 1;
      held -= cost;
      return cost;
    },
  };

  /** The ring index of the `back`-th newest entry (0: the newest). */
  const slotOf = (back: number) => (next - 1 - back + capacity) % capacity;

  /** An entry to show: where it is in the ring, its number, and the request itself. */
  interface Listed {
    slot: number;
    id: number;
    request: AnsweredRequest;
  }

  function* newestFirst(filter: RequestFilter): Generator<Listed> {
    const matches = matcher(filter);
    for (let back = 0; back < size; back++) {
      const slot = slotOf(back);
      const request = ring.get(slot);
      if (request && matches(request)) yield { slot, id: lastId - back, request };
    }
  }

  /**
   * The JSON an entry is shown as, made once and kept beside it; an entry that requests added
   * since pushed out of the ring (a long listing lets others run) is shown all the same.
   */
  function shown({ slot, id, request }: Listed, view: RequestFilter['view']): Buffer {
    const kept = ring.idAt(slot) === id;
    if (view === 'summary') {
      const row = (kept && rows[slot]) || Buffer.from(JSON.stringify(rowOf(request, id)));
      if (kept) rows[slot] = row;
      return row;
    }
    const whole = (kept && wholes[slot]) || wholeOf(request, id);
    if (kept) wholes[slot] = whole;
    return whole;
  }

  return {
    add(request) {
      if (size === capacity) {
        // The oldest entry's slot is taken over: it leaves the budget.
        const cost = costs[next] ?? 0;
        budget.release(1, cost);
        held -= cost;
      }
      lastId++;
      const cost = costOf(request);
      ring.put(next, lastId, request);
      rows[next] = undefined;
      wholes[next] = undefined;
      costs[next] = cost;
      held += cost;
      next = (next + 1) % capacity;
      size = Math.min(size + 1, capacity);
      budget.admit(budgeted, lastId, cost);
    },
    async list(filter = {}) {
      const chosen: Listed[] = [];
      let count = 0;
      for (const listed of newestFirst(filter))
        if (count++ < (filter.limit ?? capacity)) chosen.push(listed);
      const parts: Buffer[] = [];
      let slice = performance.now();
      for (const listed of chosen) {
        parts.push(shown(listed, filter.view));
        if (performance.now() - slice > LIST_SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          slice = performance.now();
        }
      }
      return listOf(parts, count);
    },
    get(id) {
      const back = lastId - id;
      if (!Number.isInteger(back) || back < 0 || back >= size) return undefined;
      const slot = slotOf(back);
      const request = ring.get(slot);
      return request && new CheckedJson(shown({ slot, id, request }, 'full'));
    },
    clear() {
      budget.release(size, held);
      ring.clear();
      rows.fill(undefined);
      wholes.fill(undefined);
      next = 0;
      size = 0;
      held = 0;
    },
  };
}

/**
 * A log kept in a store several replicas share: every replica appends to it and reads it, so a
 * test sees what its app sent whichever replica answered. Entries are serialized (credentials
 * redacted) when added, and numbered by the store, which bounds every state's log together.
 */
export function createSharedRequestLog(
  side: SideData,
  capacity = LOG_CAPACITY,
  /** The bounds of every state's log together, kept by the store. */
  whole: LogBounds = DEFAULT_LOG_BOUNDS,
): RequestLog {
  /** An entry as stored (without its number) with its number, whole. */
  const numbered = (json: string, id: number) => Buffer.from(`{"id":${id},${json.slice(1)}`);
  return {
    add: (request) =>
      side.pushEntry('requests', wholeOf(request, undefined).toString('utf8'), capacity, whole),
    async list(filter = {}) {
      const matches = matcher(filter);
      const parts: Buffer[] = [];
      let count = 0;
      const { entries, pushed } = await side.readEntries('requests');
      entries.forEach((json, index) => {
        const shown = JSON.parse(json) as Omit<AnsweredRequest, 'at'> & { time: string };
        const request = { ...shown, at: Date.parse(shown.time) };
        if (!matches(request) || count++ >= (filter.limit ?? capacity)) return;
        const id = pushed - index;
        parts.push(
          filter.view === 'summary'
            ? Buffer.from(JSON.stringify(rowOf(request, id)))
            : numbered(json, id),
        );
      });
      return listOf(parts, count);
    },
    async get(id) {
      const { entries, pushed } = await side.readEntries('requests');
      const json = entries[pushed - id];
      return json === undefined || !Number.isInteger(id)
        ? undefined
        : new CheckedJson(numbered(json, id));
    },
    clear: () => side.clearEntries('requests'),
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
 * @example keptBody(await readBody(request, operation.requestBody)) // { body: { name: 'Rex' } }
 */
export function keptBody(
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
 * @example keptAnswer(reply.answer, 'GET') // reply.answer, for a list of ten categories
 */
export function keptAnswer(answer: CheckedAnswer, method: string): KeptAnswer {
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
    return true;
  };
}
