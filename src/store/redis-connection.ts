// What the Redis store needs of its connection: scripts run by their digest, and failures of
// the connection told apart from errors of the store's own making.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { SCRIPTS, type Script } from './redis-scripts.js';

export { safeUrl } from './redis-defaults.js';

/** Each script's SHA-1 digest, by name: what EVALSHA takes. */
export type LoadedScripts = ReadonlyMap<string, string>;

/**
 * Loads every script into Redis's script cache (which compiles them) and returns their digests.
 * @example const scripts = await loadScripts(client);
 */
export async function loadScripts(client: Redis, known?: LoadedScripts): Promise<LoadedScripts> {
  const digests = new Map<string, string>();
  for (const script of SCRIPTS) {
    const digest = known?.get(script.name) ?? sha1(script.lua);
    const loaded = await client.script('LOAD', script.lua);
    if (loaded !== digest)
      throw new Error(`Redis gave the script ${script.name} the digest ${String(loaded)}`);
    digests.set(script.name, digest);
  }
  return digests;
}

/**
 * Runs a script by its digest, and by its text when Redis has forgotten it (a restart).
 * Called synchronously up to the command being queued on the connection, so that scripts
 * run in the order they were called.
 * @example await runScript(client, scripts, COUNT, keys, ['']);
 */
export async function runScript(
  client: Redis,
  scripts: LoadedScripts,
  script: Script,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  const digest = scripts.get(script.name) ?? sha1(script.lua);
  try {
    return await client.evalsha(digest, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return await client.eval(script.lua, keys.length, ...keys, ...args);
  }
}

/** Why Redis could not do an operation, and whether the command may have reached it. */
export interface Failure {
  /** Completes "its Redis at <url> …", e.g. `did not answer within 2000 ms`. */
  problem: string;
  /** Whether the command was sent: then a write's outcome is unknown. */
  sent: boolean;
}

/** Refusals of a server that is there but cannot take the command now. */
const TRANSIENT_REPLIES = /^(OOM|LOADING|READONLY|MASTERDOWN|BUSY|TRYAGAIN|NOREPLICAS|MISCONF)\b/;

/**
 * What made an operation fail, when it is Redis or the connection to it; undefined for any
 * other error (a bug in a script, an error thrown by a caller's `change`), which is passed on.
 * @example failureOf(new Error('Command timed out'), 2000) // { problem: 'did not answer within 2000 ms', sent: true }
 */
export function failureOf(error: unknown, timeoutMs: number): Failure | undefined {
  if (!(error instanceof Error)) return undefined;
  const message = error.message;
  if (error.name === 'ReplyError') {
    if (!TRANSIENT_REPLIES.test(message)) return undefined;
    // Redis refused it before running it.
    return { problem: `refused it (${firstLine(message)})`, sent: false };
  }
  if (message.startsWith("Stream isn't writeable"))
    return { problem: 'is not connected (it is down or unreachable)', sent: false };
  if (message === 'Command timed out')
    return { problem: `did not answer within ${timeoutMs} ms`, sent: true };
  if (message === 'Connection is closed.' || error.name === 'MaxRetriesPerRequestError')
    return { problem: 'was lost before it answered', sent: true };
  return undefined;
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
