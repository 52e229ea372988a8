import { writeSync } from 'node:fs';
import type { DestinationStream } from 'pino';

/** Lines are written once this many characters wait, in one write. */
const MIN_LENGTH = 8 * 1024;
/** A line waits at most this long for others: a person at a terminal sees it at once. */
const MAX_WAIT_MS = 100;
/** On exit, how long a full pipe (a reader that stopped reading) is waited for. */
const EXIT_PATIENCE_MS = 5_000;

/**
 * A buffered writer of log lines on a file descriptor (the process's stdout): lines wait in a
 * string and go out in one synchronous write of several kilobytes, or after a tenth of a second,
 * and when the process exits (`process.exit`, a signal the CLI handles, an uncaught error).
 * Not SonicBoom's asynchronous mode: it measures the whole waiting buffer on every line and
 * writes from a worker thread, which together cost more than the line itself (decision 029).
 * @example createLogger(bufferedDestination(1)).info('listening');
 */
export function bufferedDestination(fd: number): DestinationStream {
  let waiting = '';
  /** Bytes a write left over (a full pipe), written before what waits. */
  let unwritten: Buffer | undefined;
  let timer: NodeJS.Timeout | undefined;
  let broken = false;
  /** The last write found the pipe full: the timer tries again, not every line. */
  let full = false;

  /** Writes what it can now; true when nothing is left. */
  function writeOut(): boolean {
    if (broken) return true;
    try {
      if (!unwritten && waiting) {
        // The usual case, written whole from the string: no buffer made for it.
        const written = writeSync(fd, waiting);
        if (written < Buffer.byteLength(waiting))
          unwritten = Buffer.from(waiting).subarray(written);
        waiting = '';
      }
      if (waiting) {
        unwritten = Buffer.concat([unwritten ?? Buffer.alloc(0), Buffer.from(waiting)]);
        waiting = '';
      }
      while (unwritten) {
        unwritten = unwritten.subarray(writeSync(fd, unwritten));
        if (unwritten.length === 0) unwritten = undefined;
      }
      full = false;
      return true;
    } catch (error) {
      full = (error as NodeJS.ErrnoException).code === 'EAGAIN';
      if (full) return false;
      // The reader is gone (EPIPE, a closed descriptor): no one is left to read the lines.
      broken = true;
      unwritten = undefined;
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
      waiting += line;
      // Not cleared when a batch goes out: one timer a tenth of a second, not one a batch.
      timer ??= setTimeout(flushLater, MAX_WAIT_MS).unref();
      if (waiting.length >= MIN_LENGTH && !full) writeOut();
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
