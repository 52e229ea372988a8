#!/usr/bin/env node
// The one place that touches the process: argv, env, signals, exit codes (the rest: run.ts).
import { setFlagsFromString } from 'node:v8';
import { growingFlag, namesLargeDocument, relaunchArgs, relaunchEnv } from './heap-bounds.js';

/** Node 22.15 and later, POSIX only; not in the types of the oldest Node supported. */
const execve = (
  process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }
).execve;
const large = namesLargeDocument(process);
const relaunch = execve && relaunchArgs(process, large);
if (relaunch)
  try {
    execve(process.execPath, relaunch, relaunchEnv(process.env));
  } catch {
    // Not started again (a sandbox that forbids it): the same work, with V8's own bound.
  }
const growing = growingFlag(process, large);
if (growing) setFlagsFromString(growing);

// Imported after the relaunch, which would throw away all it had loaded.
const { run } = await import('./run.js');

const stopping = new AbortController();
let serverStarted = false;

/** The first signal stops what serves gracefully; a second one, while that runs, stops at once. */
function onSignal(): void {
  if (stopping.signal.aborted) process.exit(1);
  stopping.abort();
}

const code = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdoutFd: 1,
  env: process.env,
  signal: stopping.signal,
  // Only what serves turns a signal into a clean stop; anything else dies of it as usual.
  onServing: () => {
    serverStarted = true;
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  },
});
process.exitCode = code;
// What served is closed: nothing of it is left to wait for.
if (serverStarted) process.exit(code);
// Let output drain, but do not wait on a handle a test runner may have left open.
setTimeout(() => process.exit(code), 2000).unref();
