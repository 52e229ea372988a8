import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How often a watched answer's progress is looked at, at most. */
const LOOK_EVERY_MS = 250;

/**
 * The send timeout, as nginx's send_timeout: a client that takes nothing of the answer for
 * `ms` is dropped, its connection reset (a closed socket would keep the unsent bytes in the
 * kernel for as long as the client does not read), within a quarter of a second of
 * it. Judged from the bytes the socket has handed on, not from Node's socket timeout, which
 * lets a write pending when it runs out put it off once more (a stalled client would hold
 * twice the timeout). Watching ends with the answer: once it is sent, the keep-alive
 * timeout takes over.
 * @example watchSend(req.socket, res, 30_000);
 */
export function watchSend(socket: Socket, res: ServerResponse, ms: number): void {
  const handedOn = (): number => socket.bytesWritten - socket.writableLength;
  let last = handedOn();
  let since = performance.now();
  const looking = setInterval(
    () => {
      const now = performance.now();
      const moved = handedOn();
      // Nothing waiting to be taken (a stream between its events) is no stalled client.
      if (moved !== last || socket.writableLength === 0) {
        last = moved;
        since = now;
      } else if (now - since >= ms) {
        clearInterval(looking);
        socket.resetAndDestroy();
      }
    },
    Math.min(LOOK_EVERY_MS, ms / 4),
  ).unref();
  res.once('finish', () => clearInterval(looking));
  res.once('close', () => clearInterval(looking));
}
