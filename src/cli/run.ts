import { CommanderError } from 'commander';
import { StartupError } from '../vocabulary/errors.js';
import { createCli, type CliIo } from './cli.js';

/** What a run of the CLI is given: where it writes, its variables, and what stops what it serves. */
export interface RunIo extends Pick<CliIo, 'stdout' | 'stderr' | 'stdoutFd'> {
  /** The variables the options fall back to: bin.ts gives the process's. */
  env: Readonly<Record<string, string | undefined>>;
  /** Stops the mock or proxy the run serves (bin.ts: the first SIGINT or SIGTERM). */
  signal?: AbortSignal;
  /** Called once, when the run starts serving: until then, nothing waits on `signal`. */
  onServing?: () => void;
}

/** What serves until the run is stopped: a mock or a proxy. */
interface Serving {
  close(): Promise<void>;
}

/**
 * Runs `petstore-kit <argv>` to its end: a command to its result, a mock or a proxy until
 * `signal` stops it. It never exits the process nor reads its argv or variables (bin.ts does).
 * @returns the exit code: 0 done; 1 a failure or refused option; 2 what a check cannot tell
 * @example const code = await run(['mock', '--port', '0'], { stdout, stderr, env: {}, signal });
 */
export async function run(argv: readonly string[], io: RunIo): Promise<number> {
  const serving: Serving[] = [];
  const serve = (server: Serving) => {
    if (serving.push(server) === 1) io.onServing?.();
  };
  let code: number | undefined;
  const cli = createCli({
    stdout: io.stdout,
    stderr: io.stderr,
    env: io.env,
    ...(io.stdoutFd === undefined ? {} : { stdoutFd: io.stdoutFd }),
    onListening: serve,
    onProxy: serve,
    onExitCode: (exit) => (code = exit),
  });
  try {
    await cli.parseAsync(argv, { from: 'user' });
  } catch (err) {
    // Commander has written its own line (or the help) already.
    if (err instanceof CommanderError) return err.exitCode;
    io.stderr.write(`petstore-kit: ${failureLine(err)}\n`);
    await stop(serving, io.stderr);
    return 1;
  }
  if (serving.length === 0) return code ?? 0;
  await new Promise<void>((resolve) => {
    if (io.signal?.aborted) resolve();
    else io.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await stop(serving, io.stderr);
  // The exit code a stop may have set (a proxy's --fail-on-violation), else 0.
  return code ?? 0;
}

/** Closes what serves; one that cannot close cleanly (a read-only or failing disk) is reported. */
async function stop(serving: readonly Serving[], stderr: NodeJS.WritableStream): Promise<void> {
  await Promise.all(
    serving.map((server) =>
      server.close().catch((err: unknown) => {
        stderr.write(
          `petstore-kit: warning: stopped without a clean close: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}\n`,
        );
      }),
    ),
  );
}

/** One line for a failure, ending in its code when the catalogue gives it one: what a script can match. */
function failureLine(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const { code } = err as { code?: unknown };
  return err instanceof StartupError && typeof code === 'string'
    ? `${err.message} [${code}]`
    : err.message;
}
