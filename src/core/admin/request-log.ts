import type { FaultKind } from '../../vocabulary/answer.js';

/** A request as the log of recent requests keeps it. */
export interface AnsweredRequest {
  method: string;
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
}

/** A logged request as the admin API shows it (spec/admin.yaml's RecordedRequest). */
export type RecordedRequest = Omit<AnsweredRequest, 'at'> & { time: string };

/** The most recent requests, bounded: what an end-to-end test reads to see what its app sent. */
export interface RequestLog {
  add(request: AnsweredRequest): void;
  /** Newest first, at most `limit`. */
  list(limit?: number): RecordedRequest[];
  clear(): void;
}

/**
 * A ring buffer of the last `capacity` requests: memory stays bounded however long the
 * mock runs, and adding costs the same at the first request and the millionth.
 * @example const log = createRequestLog(1000); log.add(request); log.list(10);
 */
export function createRequestLog(capacity = 1000): RequestLog {
  const entries: (AnsweredRequest | undefined)[] = new Array<AnsweredRequest | undefined>(capacity);
  let next = 0;
  let size = 0;
  return {
    add(request) {
      entries[next] = request;
      next = (next + 1) % capacity;
      size = Math.min(size + 1, capacity);
    },
    list(limit = capacity) {
      const out: RecordedRequest[] = [];
      for (let i = 1; i <= Math.min(size, limit); i++) {
        const entry = entries[(next - i + capacity) % capacity];
        if (!entry) continue;
        const { at, ...rest } = entry;
        out.push({ ...rest, time: new Date(at).toISOString() });
      }
      return out;
    },
    clear() {
      entries.fill(undefined);
      next = 0;
      size = 0;
    },
  };
}
