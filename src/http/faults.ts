import type { IncomingMessage, ServerResponse } from 'node:http';
import { malformedText, type Fault } from '../vocabulary/answer.js';

/**
 * Plays a network fault instead of an answer:
 * - `reset`: the connection is reset (TCP RST), as a crashed server or a proxy does;
 * - `timeout`: no answer at all; the connection closes after `holdMs` (or when the
 *   client gives up first);
 * - `malformed`: the success status and a JSON content type, with a body cut in half.
 * @example playFault({ kind: 'reset', holdMs: 30_000, status: 200, body: undefined }, req, res);
 */
export function playFault(fault: Fault, req: IncomingMessage, res: ServerResponse): void {
  switch (fault.kind) {
    case 'reset':
      req.socket.resetAndDestroy();
      return;
    case 'timeout': {
      const timer = setTimeout(() => req.socket.destroy(), fault.holdMs);
      req.socket.once('close', () => clearTimeout(timer));
      return;
    }
    case 'malformed': {
      const cut = malformedText(fault);
      res.statusCode = fault.status;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(cut));
      res.end(cut);
    }
  }
}
