import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CheckedStream } from '../vocabulary/answer.js';

/**
 * Writes a streamed answer's events as they are made, the interval between them, each one
 * only once the client has taken the last (back-pressure: a client that reads nothing holds
 * one event, and the send timeout drops it). A cut plays its fault after its events: `reset`
 * resets the connection, `timeout` holds it silent and closes it, `malformed` sends half an
 * event and ends. The head goes out at once (no Content-Length: chunked), so that a client
 * sees the stream open before its first event.
 * @example await sendStream(req, res, answer.stream);
 */
export async function sendStream(
  req: IncomingMessage,
  res: ServerResponse,
  stream: CheckedStream,
): Promise<void> {
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  res.flushHeaders();
  const gone = new Promise<void>((resolve) => res.once('close', resolve));
  const stop = new AbortController();
  res.once('close', () => stop.abort());
  for (let index = 0; index < stream.sent; index++) {
    if (index > 0 && stream.intervalMs > 0) {
      try {
        await sleep(stream.intervalMs, undefined, { signal: stop.signal });
      } catch {
        return; // the client left
      }
    }
    if (res.destroyed) return;
    if (!res.write(stream.event(index))) await Promise.race([drained(res), gone]);
    if (res.destroyed) return;
  }
  const { cut } = stream;
  if (!cut) {
    res.end();
    return;
  }
  if (cut.kind === 'reset') {
    // When the next event would have come, so that the events sent are the client's to read: a
    // reset throws away what the client's socket holds unread.
    await sleep(stream.intervalMs);
    if (!res.destroyed) req.socket.resetAndDestroy();
    return;
  }
  if (cut.kind === 'malformed') {
    const next = stream.sent < stream.count ? stream.event(stream.sent) : Buffer.from('data: {"');
    res.end(next.subarray(0, Math.max(1, Math.floor(next.length / 2))));
    return;
  }
  const timer = setTimeout(() => req.socket.destroy(), cut.holdMs);
  req.socket.once('close', () => clearTimeout(timer));
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => res.once('drain', resolve));
}
