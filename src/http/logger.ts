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
  const settings = {
    base: undefined,
    timestamp: isoTimeByMillisecond(),
    level: options.level ?? 'info',
  };
  if (!options.pretty)
    return pino(
      settings,
      options.bufferedFd === undefined
        ? (destination as DestinationStream | undefined)
        : bufferedDestination(options.bufferedFd),
    );
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
 * pino's `isoTime`, its text made once per millisecond: a Date and its ISO text cost a request
 * line more than the rest of its JSON.
 */
function isoTimeByMillisecond(): () => string {
  let last = -1;
  let text = '';
  return () => {
    const now = Date.now();
    if (now !== last) {
      last = now;
      text = `,"time":"${new Date(now).toISOString()}"`;
    }
    return text;
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
    logger[level](line, text);
  };
}

/** The first of the problems an error lists (validation lists them all, joined by `; `). */
function firstProblem(reason: string): string {
  const [first, ...rest] = reason.split('; ');
  return rest.length > 0 ? `${first} (and ${rest.length} more)` : (first ?? reason);
}
