import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * The mock's logger: JSON lines on stdout (or `destination`).
 * @example createLogger().info('started');
 */
export function createLogger(destination?: DestinationStream): Logger {
  return pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
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
