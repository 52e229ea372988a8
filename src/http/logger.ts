import { pino, type DestinationStream, type Logger } from 'pino';
import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';
import type { FaultKind } from '../vocabulary/answer.js';
import { StartupError } from '../vocabulary/errors.js';
import { bufferedDestination } from './log-destination.js';
import type { LogLevel } from './log-levels.js';

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

export { type LogLevel } from './log-levels.js';

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
  const isAdminRead = (line: RequestLine) =>
    adminBasePath !== undefined &&
    (line.method === 'GET' || line.method === 'HEAD') &&
    line.status !== undefined &&
    line.status < 400 &&
    (line.path === adminBasePath || line.path.startsWith(`${adminBasePath}/`));
  // A child logger has bindings of its own: only the logger createLogger made is written to directly.
  const lines = Object.hasOwn(logger, JSON_LINES)
    ? (logger as unknown as Record<symbol, JsonLines>)[JSON_LINES]
    : undefined;
  return (line) => {
    const outcome = line.fault
      ? `fault=${line.fault}`
      : line.cut
        ? `cut (${line.status ?? 'no'} begun, not sent whole)`
        : String(line.status);
    const text =
      `${line.method} ${line.path} ${outcome}${line.fault && line.status ? ` ${line.status}` : ''} ${line.ms}ms` +
      (line.reason ? `: ${firstProblem(line.reason)}` : '');
    const status = line.status ?? 500;
    const level =
      line.fault || status >= 500
        ? 'error'
        : status >= 400 || line.reason || line.cut
          ? 'warn'
          : isAdminRead(line)
            ? 'debug'
            : 'info';
    if (!lines) logger[level](line, text);
    else if (logger.isLevelEnabled(level))
      lines.stream.write(jsonLine(logger.levels.values[level] ?? 30, lines.time(), line, text));
  };
}

/** A request line as pino writes `logger[level](line, msg)`: its fields in their order, then the message. */
function jsonLine(level: number, time: string, line: RequestLine, msg: string): string {
  let json = `{"level":${level}${time},"method":${JSON.stringify(line.method)},"path":${JSON.stringify(line.path)}`;
  if (line.status !== undefined) json += `,"status":${line.status}`;
  if (line.fault !== undefined) json += `,"fault":${JSON.stringify(line.fault)}`;
  if (line.reason !== undefined) json += `,"reason":${JSON.stringify(line.reason)}`;
  if (line.cut !== undefined) json += `,"cut":${line.cut}`;
  return `${json},"ms":${line.ms},"msg":${JSON.stringify(msg)}}\n`;
}

/** The first of the problems an error lists (validation lists them all, joined by `; `). */
function firstProblem(reason: string): string {
  const [first, ...rest] = reason.split('; ');
  return rest.length > 0 ? `${first} (and ${rest.length} more)` : (first ?? reason);
}
