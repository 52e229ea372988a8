import { writeSync } from 'node:fs';
import { pino, type DestinationStream, type Logger } from 'pino';
import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';
import type { FaultKind } from '../vocabulary/answer.js';
import { StartupError } from '../vocabulary/errors.js';
import type { LogLevel } from './log-levels.js';
import { writeUtf8 } from '../vocabulary/utf8.js';

export type { Logger };

export interface LoggerOptions {
  /**
   * Lines for people (pino-pretty: colours, one readable line per request) instead of JSON.
   * pino-pretty is an optional peer dependency: see `prettyInstalled`.
   * @default false
   */
  pretty?: boolean;
  /**
   * The least level written: `debug` adds the admin API's own reads (the inspector's polling).
   * @default 'info'
   */
  level?: LogLevel;
  /**
   * The file descriptor `destination` writes to (the process's stdout, 1): JSON lines are then
   * written to it buffered and asynchronously (see bufferedDestination), not one write each.
   */
  bufferedFd?: number;
}

/**
 * Whether pino-pretty, an optional peer dependency (`npm i -D pino-pretty`), can be loaded.
 * @example const pretty = process.stdout.isTTY && prettyInstalled();
 */
export function prettyInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/**
 * The mock's logger: JSON lines on stdout (or `destination`), or lines for people.
 * @throws {StartupError} for lines for people when pino-pretty is not installed.
 * @example createLogger(process.stdout, { pretty: process.stdout.isTTY }).info('started');
 */
export function createLogger(
  destination?: DestinationStream | NodeJS.WritableStream,
  options: LoggerOptions = {},
): Logger {
  const time = isoTimeByMillisecond();
  const settings = { base: undefined, timestamp: time, level: options.level ?? 'info' };
  if (!options.pretty) {
    const logger = pino(
      settings,
      options.bufferedFd === undefined
        ? (destination as DestinationStream | undefined)
        : bufferedDestination(options.bufferedFd),
    );
    const stream = (logger as unknown as Record<symbol, DestinationStream>)[
      pino.symbols.streamSym
    ] as DestinationStream;
    return Object.defineProperty(logger, JSON_LINES, { value: { time, stream } });
  }
  // Required only for people at a terminal: a tenth of a second of modules otherwise saved.
  if (!prettyInstalled())
    throw new StartupError(
      'log lines for people need pino-pretty, an optional peer dependency: npm i -D pino-pretty (or --log-format json)',
    );
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  const stream = pretty({
    ...(destination ? { destination: destination as never } : {}),
    colorize: (destination as { isTTY?: boolean } | undefined)?.isTTY ?? false,
    translateTime: 'HH:MM:ss.l',
    // The message already says it all: method, path, status and time.
    ignore: 'pid,hostname,method,path,status,ms,url,records,keys,reason,fault',
    sync: true,
  });
  return pino(settings, stream);
}

/**
 * What a JSON logger made by createLogger writes request lines with: straight to its stream, as
 * pino writes them, without pino's walk over an object of any shape (a third of a line's cost).
 */
const JSON_LINES = Symbol('json lines');

interface JsonLines {
  time: () => string;
  stream: DestinationStream;
}

/**
 * pino's `isoTime`, its text made once a second and its milliseconds added: a Date and its ISO
 * text cost a request line more than the rest of its JSON.
 */
function isoTimeByMillisecond(): () => string {
  let second = -1;
  let head = '';
  return () => {
    const now = Date.now();
    const ms = now % 1000;
    if (now - ms !== second) {
      second = now - ms;
      // `…T23:33:12.000Z` without its `000Z`
      head = `,"time":"${new Date(second).toISOString().slice(0, -4)}`;
    }
    return `${head}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
  };
}

/** A logger that writes nothing, for tests and embedding. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** One answered request, as the request log line tells it. */
export interface RequestLine {
  method: string;
  path: string;
  /** The status sent; none for a fault that sends no answer (a reset, a timeout). */
  status?: number;
  /** The fault played instead of an answer. */
  fault?: FaultKind;
  /** The answer was not sent whole: the client left, or was dropped (the send timeout). */
  cut?: boolean;
  /** Why the answer is an error: the first problem, "no credential", "origin not allowed". */
  reason?: string;
  ms: number;
}

/**
 * A writer of one log line per request, at the level its outcome deserves: 2xx and 3xx are
 * info, 4xx warn (with the reason), and so is a refusal answered without an error status (a
 * preflight from an origin not allowed, which the browser then blocks), and so is an answer
 * cut before it was sent whole; 5xx and faults error,
 * so that they stand out on a terminal.
 * @example logRequests(logger)({ method: 'GET', path: '/v1/x', status: 404, reason: 'No operation at GET /v1/x', ms: 1.2 })
 * // WARN: GET /v1/x 404 1.2ms: No operation at GET /v1/x
 */
export function requestLines(
  logger: Logger,
  options: {
    /**
     * The admin API's base path (`/__mock`): its reads that succeed (the inspector polls them
     * every second) are logged at debug, shown by `--log-level debug`, not at info.
     */
    adminBasePath?: string | undefined;
  } = {},
): (line: RequestLine) => void {
  const { adminBasePath } = options;
  const below = `${adminBasePath}/`;
  const isAdminRead = (line: RequestLine) =>
    adminBasePath !== undefined &&
    (line.method === 'GET' || line.method === 'HEAD') &&
    line.status !== undefined &&
    line.status < 400 &&
    (line.path === adminBasePath || line.path.startsWith(below));
  // A child logger has bindings of its own: only the logger createLogger made is written to directly.
  const lines = Object.hasOwn(logger, JSON_LINES)
    ? (logger as unknown as Record<symbol, JsonLines>)[JSON_LINES]
    : undefined;
  /** The parts of plain lines (no fault, reason or cut) by path: the same few paths, again and again. */
  const plain = new Map<string, LineParts>();
  return (line) => {
    const status = line.status ?? 500;
    const level =
      line.fault || status >= 500
        ? 'error'
        : status >= 400 || line.reason || line.cut
          ? 'warn'
          : isAdminRead(line)
            ? 'debug'
            : 'info';
    if (!lines) {
      const { head, tail } = messageOf(line);
      logger[level](line, `${head}${line.ms}ms${tail}`);
      return;
    }
    if (!logger.isLevelEnabled(level)) return;
    const isPlain = line.fault === undefined && line.reason === undefined && line.cut === undefined;
    let parts = isPlain ? plain.get(line.path) : undefined;
    if (!parts || parts.method !== line.method || parts.status !== line.status) {
      parts = partsOf(line);
      if (isPlain) {
        if (plain.size >= KEPT_PATHS) plain.clear();
        plain.set(line.path, parts);
      }
    }
    const { ms } = line;
    lines.stream.write(
      `{"level":${logger.levels.values[level] ?? 30}${lines.time()}${parts.fields}${ms},"msg":${parts.msgOpen}${ms}ms${parts.msgClose}}\n`,
    );
  };
}

/** The paths whose plain lines' parts are kept: a mock's routes, not every id a client sent. */
const KEPT_PATHS = 256;

/**
 * A request line in JSON, but for its level, time and milliseconds, which it is put together
 * with: `{"level":30,"time":…` `fields` ms `,"msg":` `msgOpen` ms `ms` `msgClose` `}`.
 */
interface LineParts {
  method: string;
  status: number | undefined;
  /** `,"method":"GET","path":"/v1/x","status":200,"ms":`, in the order pino writes them. */
  fields: string;
  /** The message's JSON up to its milliseconds: `"GET /v1/x 200 `. */
  msgOpen: string;
  /** The message's JSON after them: `"`, or the reason and `"`. */
  msgClose: string;
}

/** The message of a line, around its milliseconds: `GET /v1/x 404 ` and `: No operation…`. */
function messageOf(line: RequestLine): { head: string; tail: string } {
  const outcome = line.fault
    ? `fault=${line.fault}`
    : line.cut
      ? `cut (${line.status ?? 'no'} begun, not sent whole)`
      : String(line.status);
  return {
    head: `${line.method} ${line.path} ${outcome}${line.fault && line.status ? ` ${line.status}` : ''} `,
    tail: line.reason ? `: ${firstProblem(line.reason)}` : '',
  };
}

/** Whether JSON writes a text as it is between its quotes: no quote, backslash, control character or surrogate. */
function writtenAsIs(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff))
      return false;
  }
  return true;
}

/** A text in JSON: between quotes, escaped where it must be. */
function jsonText(text: string): string {
  return writtenAsIs(text) ? `"${text}"` : JSON.stringify(text);
}

/** The parts of a request line as pino writes `logger[level](line, msg)`: its fields in their order, then the message. */
function partsOf(line: RequestLine): LineParts {
  let fields = `,"method":${jsonText(line.method)},"path":${jsonText(line.path)}`;
  if (line.status !== undefined) fields += `,"status":${line.status}`;
  if (line.fault !== undefined) fields += `,"fault":${JSON.stringify(line.fault)}`;
  if (line.reason !== undefined) fields += `,"reason":${JSON.stringify(line.reason)}`;
  if (line.cut !== undefined) fields += `,"cut":${line.cut}`;
  const { head, tail } = messageOf(line);
  // Milliseconds and `ms` need no escaping: the message's JSON splits around them.
  return {
    method: line.method,
    status: line.status,
    fields: `${fields},"ms":`,
    msgOpen: jsonText(head).slice(0, -1),
    msgClose: jsonText(tail).slice(1),
  };
}

/** The first of the problems an error lists (validation lists them all, joined by `; `). */
function firstProblem(reason: string): string {
  const [first, ...rest] = reason.split('; ');
  return rest.length > 0 ? `${first} (and ${rest.length} more)` : (first ?? reason);
}

/**
 * Lines are written once this many bytes wait, in one write: half a pipe's 64 KiB, so a write
 * a reader keeps up with never fills it, and a system call (and a wake of the reader) per about
 * 200 request lines, not 50.
 */
const MIN_LENGTH = 32 * 1024;
/** The bytes a batch is encoded into: a line that could not fit in what is left starts a batch. */
const BATCH_BYTES = 64 * 1024;
/** A line waits at most this long for others: a person at a terminal sees it at once. */
const MAX_WAIT_MS = 100;
/** On exit, how long a full pipe (a reader that stopped reading) is waited for. */
const EXIT_PATIENCE_MS = 5_000;

/**
 * A buffered writer of log lines on a file descriptor (the process's stdout): each line is
 * encoded at once into a batch of bytes, which goes out in one synchronous write once it holds
 * several kilobytes, or after a tenth of a second, and when the process exits (`process.exit`,
 * a signal the CLI handles, an uncaught error). Encoded at once: a string of waiting lines is
 * flattened at the write, a piece at a time (decision 067).
 * Not SonicBoom's asynchronous mode: it measures the whole waiting buffer on every line and
 * writes from a worker thread, which together cost more than the line itself (decision 029).
 * @example createLogger(bufferedDestination(1)).info('listening');
 */
function bufferedDestination(fd: number): DestinationStream {
  /** The batch lines are encoded into, reused once written whole. */
  let batch = Buffer.allocUnsafeSlow(BATCH_BYTES);
  let used = 0;
  /** Bytes not written yet, oldest first, written before the batch: a full pipe's backlog. */
  const unwritten: Buffer[] = [];
  let timer: NodeJS.Timeout | undefined;
  let broken = false;
  /** The last write found the pipe full: the timer tries again, not every line. */
  let full = false;

  /** Puts the batch behind the backlog, and starts a new one. */
  function seal(): void {
    if (used === 0) return;
    unwritten.push(batch.subarray(0, used));
    batch = Buffer.allocUnsafeSlow(BATCH_BYTES);
    used = 0;
  }

  /** Writes what it can now; true when nothing is left. */
  function writeOut(): boolean {
    if (broken) return true;
    try {
      while (unwritten.length > 0) {
        const first = unwritten[0] as Buffer;
        const written = writeSync(fd, first);
        if (written < first.length) unwritten[0] = first.subarray(written);
        else unwritten.shift();
      }
      if (used > 0) {
        // The usual case: the batch written whole, and filled again.
        const written = writeSync(fd, batch, 0, used);
        if (written < used) {
          unwritten.push(Buffer.from(batch.subarray(written, used)));
          used = 0;
          return writeOut();
        }
        used = 0;
      }
      full = false;
      return true;
    } catch (error) {
      full = (error as NodeJS.ErrnoException).code === 'EAGAIN';
      if (full) return false;
      // The reader is gone (EPIPE, a closed descriptor): no one is left to read the lines.
      broken = true;
      unwritten.length = 0;
      used = 0;
      return true;
    }
  }

  function flushLater(): void {
    timer = undefined;
    // A pipe still full: tried again later, the lines kept meanwhile.
    if (!writeOut()) timer = setTimeout(flushLater, MAX_WAIT_MS).unref();
  }

  const destination = {
    write(line: string): void {
      if (broken) return;
      // UTF-8 takes at most three bytes for each of a string's UTF-16 units.
      const most = line.length * 3;
      if (used + most > BATCH_BYTES) seal();
      if (most > BATCH_BYTES) unwritten.push(Buffer.from(line));
      else used += writeUtf8(batch, line, used, BATCH_BYTES - used);
      // Not cleared when a batch goes out: one timer a tenth of a second, not one a batch.
      timer ??= setTimeout(flushLater, MAX_WAIT_MS).unref();
      if ((used >= MIN_LENGTH || unwritten.length > 0) && !full) writeOut();
    },
    flushOnExit(): void {
      const until = Date.now() + EXIT_PATIENCE_MS;
      const pause = new Int32Array(new SharedArrayBuffer(4));
      while (!writeOut() && Date.now() < until) Atomics.wait(pause, 0, 0, 10);
    },
  };
  flushedOnExit(destination);
  return destination;
}

/**
 * Writes what waits when the process exits. Held weakly: a destination nobody uses any more
 * is collected, and its listener removed.
 */
function flushedOnExit(destination: { flushOnExit(): void }): void {
  const held = new WeakRef(destination);
  const onExit = () => held.deref()?.flushOnExit();
  process.on('exit', onExit);
  exitListeners.register(destination, onExit);
}

/** Removes a collected destination's exit listener. */
const exitListeners = new FinalizationRegistry<() => void>((onExit) =>
  process.removeListener('exit', onExit),
);
