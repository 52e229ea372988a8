import { pino, type DestinationStream } from 'pino';

/** Lines are written once this many bytes wait, in one write. */
const MIN_BYTES = 8 * 1024;
/** A line waits at most this long for others: a person at a terminal sees it at once. */
const MAX_WAIT_MS = 100;

/**
 * A buffered, asynchronous writer of log lines on a file descriptor (the process's stdout):
 * lines go out in writes of several kilobytes, or after a tenth of a second, rather than one
 * synchronous write each (a third of a GET's CPU, issue 45). pino flushes what waits
 * synchronously when the process exits, whether by `process.exit`, a signal the CLI handles, or
 * an uncaught error.
 * @example createLogger(bufferedDestination(1)).info('listening');
 */
export function bufferedDestination(fd: number): DestinationStream {
  const stream = pino.destination({ dest: fd, sync: false, minLength: MIN_BYTES });
  let waiting: NodeJS.Timeout | undefined;
  let closed = false;
  // Ended by pino when the loop runs dry (its lines flushed): nothing more to write.
  stream.once('close', () => (closed = true));
  const flush = (): void => {
    waiting = undefined;
    if (!closed) stream.flush();
  };
  return {
    write(line: string): void {
      stream.write(line);
      // Unreferenced: a waiting line keeps no process alive; exit flushes it.
      waiting ??= setTimeout(flush, MAX_WAIT_MS).unref();
    },
  };
}
