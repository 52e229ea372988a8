import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultKind } from '../core/scenarios/prefer.js';

export interface FaultOptions {
  /** How long a `timeout` fault holds the connection before closing it unanswered. */
  timeoutMs: number;
  /** What a `malformed` answer is cut from: the JSON the request would have had. */
  body?: unknown;
  /** The success status a `malformed` answer claims. */
  status: number;
}

/**
 * Plays a network fault instead of an answer:
 * - `reset`: the connection is reset (TCP RST), as a crashed server or a proxy does;
 * - `timeout`: no answer at all; the connection closes after `timeoutMs` (or when the
 *   client gives up first);
 * - `malformed`: the success status and a JSON content type, with a body cut in half.
 * @example playFault('reset', req, res, { timeoutMs: 30_000, status: 200 });
 */
export function playFault(
  kind: FaultKind,
  req: IncomingMessage,
  res: ServerResponse,
  options: FaultOptions,
): void {
  switch (kind) {
    case 'reset':
      req.socket.resetAndDestroy();
      return;
    case 'timeout': {
      const timer = setTimeout(() => req.socket.destroy(), options.timeoutMs);
      req.socket.once('close', () => clearTimeout(timer));
      return;
    }
    case 'malformed': {
      const whole = JSON.stringify(options.body ?? { malformed: true }) ?? '{}';
      const cut = whole.slice(0, Math.max(1, Math.floor(whole.length / 2)));
      res.statusCode = options.status;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(cut));
      res.end(cut);
    }
  }
}
