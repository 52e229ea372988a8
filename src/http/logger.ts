import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';

export type { Logger };

export interface LoggerOptions {
  /**
   * Lines for people (pino-pretty: colours, one readable line per request) instead of JSON.
   * @default false
   */
  pretty?: boolean;
}

/**
 * The mock's logger: JSON lines on stdout (or `destination`), or lines for people.
 * @example createLogger(process.stdout, { pretty: process.stdout.isTTY }).info('started');
 */
export function createLogger(
  destination?: DestinationStream | NodeJS.WritableStream,
  options: LoggerOptions = {},
): Logger {
  const settings = { base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  if (!options.pretty) return pino(settings, destination as DestinationStream | undefined);
  // Required only for people at a terminal: a tenth of a second of modules otherwise saved.
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  const stream = pretty({
    ...(destination ? { destination: destination as never } : {}),
    colorize: (destination as { isTTY?: boolean } | undefined)?.isTTY ?? false,
    translateTime: 'HH:MM:ss.l',
    // The message already says it all: method, path, status and time.
    ignore: 'pid,hostname,method,path,status,ms,url,records,keys',
    sync: true,
  });
  return pino(settings, stream);
}

/** A logger that writes nothing, for tests and embedding. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Wraps a request listener to log one line per request once it is answered: method, path,
 * status, duration.
 * @example createServer(requestLogger(logger, app)); // {"msg":"GET /v1/categories 200 1.3ms", ...}
 */
export function requestLogger(logger: Logger, listener: Listener): Listener {
  return function logRequest(req, res) {
    const started = performance.now();
    res.once('close', () => {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      const { method, url: path } = req;
      const status = res.statusCode;
      logger.info({ method, path, status, ms }, `${method} ${path} ${status} ${ms}ms`);
    });
    listener(req, res);
  };
}
