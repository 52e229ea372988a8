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
  add(request: AnsweredRequest): void;
  /**
   * The logged requests a filter matches, newest first, as the admin API sends them (spec/admin.yaml's
   * RequestList: `{count, requests}`, `count` being every match, `requests` at most `limit`):
   * made of each entry's JSON, serialized once when it was logged, so that reading the log
   * never walks or copies what it holds.
   */
  list(filter?: RequestFilter): CheckedList;
  clear(): void;
}

interface Entry {
  readonly request: AnsweredRequest;
  /** The JSON the admin API shows of it, as UTF-8. */
  readonly json: Buffer;
}

/**
 * A ring buffer of the last `capacity` requests: memory stays bounded however long the
 * mock runs, and adding costs the same at the first request and the millionth. Each entry is
 * serialized when it is added (a body the client sent that cannot be, such as one nested too
 * deep, is shown as a note instead), so reading the log is cheap and never fails.
 * @example const log = createRequestLog(1000); log.add(request); log.list({ method: 'POST' });
 */
export function createRequestLog(capacity = 1000): RequestLog {
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
      entries[next] = { request, json: serialize(request) };
      next = (next + 1) % capacity;
      size = Math.min(size + 1, capacity);
    },
    list(filter = {}) {
      const parts: Buffer[] = [];
      let count = 0;
      for (const entry of newestFirst(filter)) {
        if (count++ < (filter.limit ?? capacity)) parts.push(entry.json);
      }
      const open = Buffer.from(`{"count":${count},"requests":[`);
      const close = Buffer.from(']}');
      return new CheckedList(parts, { open, close });
    },
    clear() {
      entries.fill(undefined);
      next = 0;
      size = 0;
    },
  };
}

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
