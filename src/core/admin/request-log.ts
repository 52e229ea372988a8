import type { SideData } from '../../store/store.js';
import { CheckedList, type FaultKind } from '../../vocabulary/answer.js';

/** A request as the log of recent requests keeps it. */
export interface AnsweredRequest {
  method: string;
  /** The request target, query included. */
  path: string;
  /** The status answered; none for a fault that sends no answer (a reset, a timeout). */
  status?: number;
  durationMs: number;
  /** When it was answered, in milliseconds since the epoch. */
  at: number;
  /** The JSON body the client sent, when there was one. */
  body?: unknown;
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
}

/** The most recent requests, bounded: what an end-to-end test reads to see what its app sent. */
export interface RequestLog {
  add(request: AnsweredRequest): void | Promise<void>;
  /**
   * The logged requests a filter matches, newest first, as the admin API sends them (spec/admin.yaml's
   * RequestList: `{count, requests}`, `count` being every match, `requests` at most `limit`):
   * made of each entry's JSON, serialized once when it was logged, so that reading the log
   * never walks or copies what it holds.
   */
  list(filter?: RequestFilter): CheckedList | Promise<CheckedList>;
  clear(): void | Promise<void>;
}

/** How many requests a log keeps. */
export const LOG_CAPACITY = 1000;

interface Entry {
  readonly request: AnsweredRequest;
  /** The JSON the admin API shows of it, as UTF-8, once it was first listed. */
  json?: Buffer;
}

/** The CPU a listing may take in one turn of the event loop before it lets others run. */
const LIST_SLICE_MS = 4;

/**
 * A ring buffer of the last `capacity` requests: memory stays bounded however long the mock
 * runs, and adding costs the same at the first request and the millionth, and next to nothing:
 * an entry is serialized when it is first listed, never on the path of the request it logs,
 * and kept so. A listing serializes in slices that let other requests run, and a body the
 * client sent that cannot be serialized (one nested too deep) is shown as a note instead, so
 * reading the log never blocks the mock and never fails.
 * @example const log = createRequestLog(1000); log.add(request); await log.list({ method: 'POST' });
 */
export function createRequestLog(capacity = LOG_CAPACITY): RequestLog {
  const entries: (Entry | undefined)[] = new Array<Entry | undefined>(capacity);
  let next = 0;
  let size = 0;

  function* newestFirst(filter: RequestFilter): Generator<Entry> {
    const matches = matcher(filter);
    for (let i = 1; i <= size; i++) {
      const entry = entries[(next - i + capacity) % capacity];
      if (entry && matches(entry.request)) yield entry;
    }
  }

  return {
    add(request) {
      entries[next] = { request };
      next = (next + 1) % capacity;
      size = Math.min(size + 1, capacity);
    },
    async list(filter = {}) {
      const chosen: Entry[] = [];
      let count = 0;
      for (const entry of newestFirst(filter))
        if (count++ < (filter.limit ?? capacity)) chosen.push(entry);
      const parts: Buffer[] = [];
      let slice = performance.now();
      for (const entry of chosen) {
        entry.json ??= serialize(entry.request);
        parts.push(entry.json);
        if (performance.now() - slice > LIST_SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          slice = performance.now();
        }
      }
      return listOf(parts, count);
    },
    clear() {
      entries.fill(undefined);
      next = 0;
      size = 0;
    },
  };
}

/**
 * A log kept in a store several replicas share: every replica appends to it and reads it, so a
 * test sees what its app sent whichever replica answered.
 */
export function createSharedRequestLog(side: SideData, capacity = LOG_CAPACITY): RequestLog {
  return {
    add: (request) => side.pushEntry('requests', serialize(request).toString('utf8'), capacity),
    async list(filter = {}) {
      const matches = matcher(filter);
      const parts: Buffer[] = [];
      let count = 0;
      for (const json of await side.readEntries('requests')) {
        const shown = JSON.parse(json) as Omit<AnsweredRequest, 'at'> & { time: string };
        if (!matches({ ...shown, at: Date.parse(shown.time) })) continue;
        if (count++ < (filter.limit ?? capacity)) parts.push(Buffer.from(json));
      }
      return listOf(parts, count);
    },
    clear: () => side.clearEntries('requests'),
  };
}

/** The admin API's RequestList of these entries' JSON. */
function listOf(parts: Buffer[], count: number): CheckedList {
  const open = Buffer.from(`{"count":${count},"requests":[`);
  return new CheckedList(parts, { open, close: CLOSE });
}

const CLOSE = Buffer.from(']}');

/** The entry as the admin API shows it (spec/admin.yaml's RecordedRequest), as UTF-8 JSON. */
function serialize(request: AnsweredRequest): Buffer {
  const { at, body, ...rest } = request;
  const shown = { ...rest, time: new Date(at).toISOString() };
  if (body === undefined) return Buffer.from(JSON.stringify(shown));
  try {
    return Buffer.from(JSON.stringify({ ...shown, body }));
  } catch {
    return Buffer.from(
      JSON.stringify({ ...shown, bodyNote: 'the body could not be kept (nested too deep)' }),
    );
  }
}

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
