// V8 sizes its heap for the machine, not for a mock: precompiling a document of megabytes keeps
// most of what it makes, and the peak rises with what V8 lets grow (decisions/057, 060, 062).
// Two bounds for a large document. The young generation: Node 24's two semi-spaces of up to 64 MB
// on a machine of 24 GB (Node 20's stopped at 16 MB), which V8 reads only when it makes its heap,
// so the CLI starts itself again with it, in the same process (execve: same pid, same stdio).
// The old generation's growth after a full collection, which V8 reads at each collection.
import { statSync } from 'node:fs';
import { EAGER_CHECK_BYTES } from '../core/document-size.js';

/** V8's flag, and the bound in MB: peaks at or under Node 20's, CPU no higher (decisions/060). */
export const SEMI_SPACE_FLAG = '--max-semi-space-size';
const SEMI_SPACE_MB = 8;

/**
 * V8's growth of the old generation after a full collection, in percent of what was live: V8's
 * own reaches 300 when the heap may grow to gigabytes, as Node lets it on most machines, and most
 * of a large document's precompiling is kept: the heap could reach four times what it holds
 * before the next collection (decisions/062).
 */
export const GROWING_FLAG = '--heap-growing-percent';
const GROWING_PERCENT = 70;

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

/** Whether a flag of node's (`--name=value` or `--name value`) is among these. */
function hasFlag(flags: readonly string[], name: string): boolean {
  return flags.some((flag) => flag === name || flag.startsWith(`${name}=`));
}

/**
 * Whether an argument (`--spec big.json`, `--spec=big.json`, `diff old.yaml new.yaml`) names a
 * file past EAGER_CHECK_BYTES: read once at start, for both bounds.
 * @example namesLargeDocument(process) // true for `petstore-kit mock --spec stripe.json`
 */
export function namesLargeDocument(launch: Launch, bytesOf = fileBytes): boolean {
  return launch.argv
    .slice(2)
    .map((arg) =>
      arg.startsWith('--') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg,
    )
    .some((path) => path !== '' && (bytesOf(path) ?? 0) > EAGER_CHECK_BYTES);
}

/**
 * The arguments to start again with (for execve), or undefined to go on as started: when a
 * large document is named (`large`, from namesLargeDocument), the young generation is not
 * bounded already (by the user, or by this), no debugger is asked for and no parent holds an IPC
 * channel to this process.
 */
export function relaunchArgs(launch: Launch, large: boolean): string[] | undefined {
  const options = (launch.env.NODE_OPTIONS ?? '').split(/\s+/);
  if (hasFlag(launch.execArgv, SEMI_SPACE_FLAG) || hasFlag(options, SEMI_SPACE_FLAG))
    return undefined;
  if (launch.channel !== undefined) return undefined;
  // A debugger attached to this process would lose it.
  if ([...launch.execArgv, ...options].some((flag) => flag.startsWith('--inspect')))
    return undefined;
  if (!large) return undefined;
  return [
    launch.execPath,
    ...launch.execArgv,
    `${SEMI_SPACE_FLAG}=${SEMI_SPACE_MB}`,
    ...launch.argv.slice(1),
  ];
}

/**
 * The environment to start again with: glibc's malloc keeps an arena for each thread that
 * allocates (V8's compiling and collecting threads), and two arenas hold a large document's peak
 * about 10 MB lower at no CPU measured (decisions/062). A value of the user's stays; musl ignores it.
 */
export function relaunchEnv(env: Launch['env']): Record<string, string | undefined> {
  return { ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '2' };
}

/**
 * The V8 flag that bounds the old generation's growth, for v8.setFlagsFromString at start (before
 * the document is read): when a large document is named (`large`) and the user set no growth of
 * their own. Set in the running process, not by a new start: a V8 without the flag warns instead of refusing
 * to start.
 */
export function growingFlag(launch: Launch, large: boolean): string | undefined {
  if (!large || hasFlag(launch.execArgv, GROWING_FLAG)) return undefined;
  return `${GROWING_FLAG}=${GROWING_PERCENT}`;
}
