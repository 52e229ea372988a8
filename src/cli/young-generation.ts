// Node 24's V8 sizes the young generation by the machine's memory: two semi-spaces of up to 64 MB
// on one of 24 GB, where Node 20's stopped at 16 MB; precompiling a document of megabytes then
// peaks about 100 MB higher (decisions/057, 060). V8 reads the bound only when it makes its heap,
// so the CLI starts itself again with it, in the same process (execve: same pid, same stdio),
// when given a large document.
import { statSync } from 'node:fs';
import { EAGER_CHECK_BYTES } from '../core/document-size.js';

/** V8's flag, and the bound in MB: peaks at or under Node 20's, CPU no higher (decisions/060). */
export const SEMI_SPACE_FLAG = '--max-semi-space-size';
const SEMI_SPACE_MB = 8;

/** What the decision reads of the process. */
export interface Launch {
  execPath: string;
  /** process.argv: node's path, the script, then the command's arguments. */
  argv: readonly string[];
  execArgv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  /** The IPC channel of a parent that forked this process (PM2, fork()): a new start loses it. */
  channel?: unknown;
}

/** The size of a regular file, or undefined for anything else (a URL, a flag, a missing path). */
function fileBytes(path: string): number | undefined {
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    return stats?.isFile() ? stats.size : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The arguments to start again with (for execve), or undefined to go on as started: when an
 * argument (`--spec big.json`, `--spec=big.json`, `diff old.yaml new.yaml`) names a file past
 * EAGER_CHECK_BYTES, the young generation is not bounded already (by the user, or by this),
 * no debugger is asked for and no parent holds an IPC channel to this process.
 */
export function relaunchArgs(launch: Launch, bytesOf = fileBytes): string[] | undefined {
  const bounded = (flags: readonly string[]) =>
    flags.some((flag) => flag === SEMI_SPACE_FLAG || flag.startsWith(`${SEMI_SPACE_FLAG}=`));
  const options = (launch.env.NODE_OPTIONS ?? '').split(/\s+/);
  if (bounded(launch.execArgv) || bounded(options)) return undefined;
  if (launch.channel !== undefined) return undefined;
  // A debugger attached to this process would lose it.
  if ([...launch.execArgv, ...options].some((flag) => flag.startsWith('--inspect')))
    return undefined;
  const args = launch.argv.slice(2);
  const named = args.map((arg) =>
    arg.startsWith('--') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg,
  );
  if (!named.some((path) => path !== '' && (bytesOf(path) ?? 0) > EAGER_CHECK_BYTES))
    return undefined;
  return [
    launch.execPath,
    ...launch.execArgv,
    `${SEMI_SPACE_FLAG}=${SEMI_SPACE_MB}`,
    ...launch.argv.slice(1),
  ];
}
