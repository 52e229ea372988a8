import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import net, { type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorAnswer as catalogueAnswer } from '../core/stages/error-answer.js';
import { CheckedJson, type CheckedAnswer } from '../vocabulary/answer.js';
import { errors } from '../vocabulary/error-catalogue.js';
import type { ApiError } from '../vocabulary/errors.js';
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from './server-limits.js';

export { DEFAULT_SERVER_LIMITS, type ServerLimits };

/** On shutdown, a keep-alive connection idle this long is closed: its client sends nothing more. */
const SHUTDOWN_IDLE_MS = 200;
/** How often shutdown looks for such connections. */
const SHUTDOWN_SWEEP_MS = 50;

/** When a server's connections were last seen active (see connectionActivity). */
interface Activity {
  markActive(socket: Socket, now?: number): void;
  /** How long a connection has read nothing and finished nothing, as far as has been seen. */
  idleFor(socket: Socket, now: number): number;
}

/**
 * What each connection of one server had read when it was last seen active (it finished an
 * answer, or had read more than before), and when. Judged from `bytesRead` rather than a
 * `data` listener: a listener on the socket would take it off Node's native parsing path, for
 * every request.
 */
function connectionActivity(): Activity {
  const lastSeen = new WeakMap<Socket, { bytesRead: number; at: number }>();
  const markActive = (socket: Socket, now = performance.now()): void => {
    lastSeen.set(socket, { bytesRead: socket.bytesRead, at: now });
  };
  return {
    markActive,
    idleFor(socket, now) {
      const seen = lastSeen.get(socket);
      if (seen?.bytesRead === socket.bytesRead) return now - seen.at;
      markActive(socket, now);
      return 0;
    },
  };
}

/** An HTTP server for the mock, and its graceful stop. */
export interface MockServer {
  server: Server;
  /**
   * Stops accepting connections, answers what is in flight with `Connection: close`, and
   * resolves once those answers are sent, or after `shutdownTimeout` at the latest.
   */
  close(): Promise<void>;
}

/** What shapes the errors Node's HTTP layer refuses requests with: the mock's error answer. */
interface ErrorShape {
  /** The spec's error answer for an error no request reached the app with. */
  errorAnswer(error: ApiError): CheckedAnswer;
}

/** A request listener, and the mock it answers with, whose error shape Node's refusals take. */
export type ListenerApp =
  | {
      (req: IncomingMessage, res: ServerResponse): void;
      readonly mock?: ErrorShape;
    }
  | {
      listener(req: IncomingMessage, res: ServerResponse): void;
      readonly mock?: ErrorShape;
    };

/**
 * An HTTP server whose every answer is the spec's error shape, those of Node's own HTTP
 * layer included (a malformed request, a head too large, a timeout), with bounded
 * resources, and whose `Expect: 100-continue` is left to the app, which answers a bad
 * credential before asking for the body.
 * @example const { server, close } = createMockServer(createApp(options)); server.listen(4010);
 */
export function createMockServer(app: ListenerApp, limits: Partial<ServerLimits> = {}): MockServer {
  const bounds = { ...DEFAULT_SERVER_LIMITS, ...limits };
  const listener = typeof app === 'function' ? app : app.listener;
  const errorAnswer = (error: ApiError): CheckedAnswer =>
    app.mock?.errorAnswer(error) ?? catalogueAnswer(error);
  let closing = false;
  const activity = connectionActivity();

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (closing) lastAnswer(res, req.socket, activity);
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400; Node's own answer to it has
    // no body, so the check is made here, where the answer can be the spec's error.
    if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && req.headers.host === undefined)
      return sendAnswer(res, errorAnswer(errors.missingHost()));
    listener(req, res);
  };

  const server = createServer(
    {
      maxHeaderSize: bounds.maxHeaderSize,
      requestTimeout: bounds.requestTimeout,
      headersTimeout: Math.min(bounds.headersTimeout, bounds.requestTimeout),
      keepAliveTimeout: bounds.keepAliveTimeout,
      // How often Node looks for requests past their timeouts: the default, 30 s, would let a
      // stalled request live up to twice its timeout.
      connectionsCheckingInterval: Math.min(1000, bounds.headersTimeout),
      requireHostHeader: false,
    },
    handle,
  );
  server.on('checkContinue', handle);
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) =>
    sendAnswer(res, errorAnswer(errors.expectationFailed())),
  );
  server.on('timeout', (socket: Socket) => dropTimedOut(socket, activity));
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    activity.markActive(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A proxy's method: the mock is an origin server, and answers it rather than dropping it.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) =>
    writeRaw(socket, errorAnswer(errors.notAProxy())),
  );
  server.on(
    'clientError',
    (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
      answerClientError(err, socket, bounds.maxHeaderSize, errorAnswer);
    },
  );

  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        // The answers being written: Node keeps each connection's on it (no listener per request).
        for (const socket of sockets) {
          const answering = (socket as { _httpMessage?: ServerResponse })._httpMessage;
          if (answering) lastAnswer(answering, socket, activity);
        }
        // Stop accepting, but not through http.Server#close, which also drops every idle
        // keep-alive connection at once: a client whose next request is already on its way
        // then meets a reset. Busy clients get a grace period instead, in which each next
        // request is answered with Connection: close; what is still idle after it is closed.
        net.Server.prototype.close.call(server, () => {
          clearTimeout(hardStop);
          resolve();
        });
        // Then, until every connection is gone, those idle long enough that no request of
        // their client can be on its way are closed.
        const sweep = (): void => closeIdle(sockets, activity, SHUTDOWN_IDLE_MS);
        const sweeping = setInterval(sweep, SHUTDOWN_SWEEP_MS);
        const hardStop = setTimeout(() => server.closeAllConnections(), bounds.shutdownTimeout);
        server.once('close', () => clearInterval(sweeping));
        for (const timer of [sweeping, hardStop]) timer.unref();
      }),
  };
}

/**
 * What Node's HTTP parser refuses before the app sees a request, as an Error body with
 * `Connection: close` (the parser cannot go on with that connection).
 */
function answerClientError(
  err: NodeJS.ErrnoException & { rawPacket?: Buffer },
  socket: Duplex,
  maxHeaderSize: number,
  errorAnswer: (error: ApiError) => CheckedAnswer,
): void {
  const attached = (socket as { _httpMessage?: ServerResponse })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const answer = errorAnswer(describeClientError(err, maxHeaderSize));
  // A request the parser took whole before the bad bytes is still being answered (pipelining):
  // its answer goes first, then this one, so that its client learns what became of it.
  if (attached && !attached.writableFinished && attached.req.complete) {
    attached.once('finish', () => writeRaw(socket, answer));
    attached.once('close', () => socket.destroy());
    return;
  }
  // Too late for an answer of its own (the one being sent is cut short by the error).
  if (attached?.headersSent) {
    socket.destroy();
    return;
  }
  writeRaw(socket, answer);
}

/**
 * A socket's timeout ran out: the send timeout of an answer nobody reads, or the keep-alive
 * timeout of an idle connection. Node would destroy the socket at once, in the timers phase of
 * the event loop, before the I/O that arrived meanwhile is read: after the loop stalls longer
 * than the keep-alive timeout, a request sent during the stall met a reset. An idle connection
 * is closed only after this turn's I/O, and only if nothing arrived on it.
 */
function dropTimedOut(socket: Socket, activity: Activity): void {
  if (isIdle(socket)) closeIdle(new Set([socket]), activity);
  // A reset, not a close: a closed socket keeps its unsent bytes in the kernel (FIN-WAIT-1, up
  // to its send buffer, about 4 MB on Linux) for as long as its client does not read, and that
  // client still sees the connection open.
  else socket.resetAndDestroy();
}

/**
 * On shutdown, an answer is its connection's last (`Connection: close`, unless its head is
 * out already), and the connection counts as active once it is sent: its client's next request
 * may be on its way, and is answered rather than reset.
 */
function lastAnswer(res: ServerResponse, socket: Socket, activity: Activity): void {
  if (!res.headersSent) res.shouldKeepAlive = false;
  res.once('close', () => activity.markActive(socket));
}

/** Whether a connection has no request in progress. */
function isIdle(socket: Socket): boolean {
  return !(socket as { _httpMessage?: unknown })._httpMessage;
}

/**
 * Closes the connections that are idle, as Node's `closeIdleConnections` does, but after this
 * turn's I/O is read, only where nothing arrived, and only those idle for `minIdleMs`: a request
 * already on its way (a loaded machine delays reading it, a client sends its next request as
 * soon as it has the last answer) is answered, with `Connection: close`, rather than reset.
 */
function closeIdle(sockets: ReadonlySet<Socket>, activity: Activity, minIdleMs = 0): void {
  const now = performance.now();
  const idle = [...sockets]
    .filter((socket) => isIdle(socket) && activity.idleFor(socket, now) >= minIdleMs)
    .map((socket) => [socket, socket.bytesRead] as const);
  if (idle.length === 0) return;
  // Two turns: what a client in this process wrote during this turn's I/O is read in the next.
  setImmediate(() =>
    setImmediate(() => {
      for (const [socket, read] of idle)
        if (socket.bytesRead === read && isIdle(socket)) socket.destroy();
    }),
  );
}

/** Writes an answer straight to a socket that has no response object, and closes it. */
function writeRaw(socket: Duplex, { status, headers, body }: CheckedAnswer): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const bytes = body instanceof CheckedJson ? body.bytes : Buffer.alloc(0);
  const head = Object.entries({ ...headers, 'Content-Length': String(bytes.length) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    Buffer.concat([
      Buffer.from(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${head}Connection: close\r\n\r\n`,
      ),
      bytes,
    ]),
  );
}

/** Sends an error answer on a response, closing the connection after it. */
function sendAnswer(res: ServerResponse, { status, headers, body }: CheckedAnswer): void {
  const bytes = body instanceof CheckedJson ? body.bytes : Buffer.alloc(0);
  res.writeHead(status, { ...headers, 'Content-Length': bytes.length, Connection: 'close' });
  res.end(bytes);
}

function describeClientError(
  err: NodeJS.ErrnoException & { rawPacket?: Buffer; reason?: string },
  maxHeaderSize: number,
): ApiError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW': {
      const firstLineEnd = err.rawPacket?.indexOf('\r\n') ?? -1;
      return firstLineEnd === -1 || firstLineEnd > maxHeaderSize / 2
        ? errors.requestLineTooLong(maxHeaderSize)
        : errors.headTooLarge(maxHeaderSize);
    }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return errors.requestTimeout();
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return errors.chunkExtensionsTooLarge();
    case 'HPE_INVALID_METHOD':
      return errors.unknownMethod();
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      // llhttp says which in its reason: both framings at once (RFC 9112 §6.1: 400, and close),
      // two lengths, or a transfer coding other than chunked (501: the mock cannot decode it).
      if (/Content-Length/i.test(err.reason ?? '') && /Transfer-Encoding/i.test(err.reason ?? ''))
        return errors.lengthAndChunked();
      if (/Duplicate Content-Length/i.test(err.reason ?? '')) return errors.repeatedLength();
      return err.code === 'HPE_INVALID_TRANSFER_ENCODING'
        ? errors.notChunked()
        : errors.lengthAndChunked();
    default:
      return errors.notHttp(err.code ?? 'unreadable');
  }
}
