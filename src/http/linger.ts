import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a lingering close reads and discards, at most: nginx's lingering_time, in time. */
export interface LingerBounds {
  ms: number;
  bytes: number;
}

const DEFAULT_LINGER: LingerBounds = { ms: 5_000, bytes: 64 * 1024 * 1024 };

/** How often the bytes read while lingering are counted. */
const COUNT_EVERY_MS = 100;

/**
 * Closes the connection of an answer sent before its request's body was read (a 413, a 401)
 * gracefully, as RFC 9112 §9.6 asks and nginx's lingering close does: once the answer is out,
 * its side is closed, and what the client is still sending is read and discarded, never kept,
 * until the client closes its side, or `bounds` are spent. Closed at once, the connection is
 * reset by the bytes still coming, and a client that reads only once it has sent its body
 * never reads the answer.
 * @example res.setHeader('Connection', 'close'); lingerAfter(req, res); res.end(bytes);
 */
export function lingerAfter(
  req: IncomingMessage,
  res: ServerResponse,
  bounds: LingerBounds = DEFAULT_LINGER,
): void {
  const { socket } = req;
  res.once('finish', () => {
    if (socket.destroyed) return;
    // Node ends a closing connection's side once its answer is out, then destroys it when
    // that end is done: kept open instead, to read what still comes.
    socket.removeListener('finish', socket.destroy);
    // Discarded as it comes: Node's parser reads the rest of the body into nothing.
    req.resume();
    const from = socket.bytesRead;
    const stop = (): void => {
      clearTimeout(deadline);
      clearInterval(counting);
      socket.destroy();
    };
    const deadline = setTimeout(stop, bounds.ms).unref();
    const counting = setInterval(() => {
      if (socket.bytesRead - from > bounds.bytes) stop();
    }, COUNT_EVERY_MS).unref();
    // The client closed its side: all it sent is read, the close is clean.
    socket.once('end', stop);
    socket.once('close', stop);
  });
}
