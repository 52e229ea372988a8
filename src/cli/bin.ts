#!/usr/bin/env node
// The one place that touches the process: argv, env (through commander), signals, exit codes.
import { StartupError } from '../vocabulary/errors.js';
import { createCli } from './cli.js';

/** What is serving: a mock or a proxy, each stopped cleanly on the first signal. */
const running: { close(): Promise<void> }[] = [];
let stopping = false;

/** The first signal stops gracefully; a second one, while that runs, stops at once. */
function onSignal(): void {
  if (stopping) process.exit(1);
  stopping = true;
  // A store that cannot be closed cleanly (a read-only or failing disk) is told of, not thrown.
  const closing = running.map((mock) =>
    mock.close().catch((err: unknown) => {
      process.stderr.write(
        `petstore-kit: warning: stopped without a clean close: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}\n`,
      );
    }),
  );
  // The exit code a stop may have set (a proxy's --fail-on-violation), else 0.
  void Promise.all(closing).then(() => process.exit());
}

/** Only what serves turns a signal into a clean stop; anything else dies of it as usual. */
function serving(server: { close(): Promise<void> }): void {
  if (running.push(server) === 1) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
}

createCli({
  stdout: process.stdout,
  stderr: process.stderr,
  stdoutFd: 1,
  onListening: serving,
  onProxy: serving,
  onExitCode: (code) => {
    process.exitCode = code;
    // Let output drain, but do not wait on a handle a test runner may have left open.
    setTimeout(() => process.exit(code), 2000).unref();
  },
})
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    process.stderr.write(`petstore-kit: ${failureLine(err)}\n`);
    process.exit(1);
  });

/** One line for a failure, ending in its code when the catalogue gives it one: what a script can match. */
function failureLine(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const { code } = err as { code?: unknown };
  return err instanceof StartupError && typeof code === 'string'
    ? `${err.message} [${code}]`
    : err.message;
}
