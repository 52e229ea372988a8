// What a caller of the Redis store may name before any Redis module is loaded: its defaults
// and its error. The store itself (and ioredis, a fifth of a second of modules) is loaded
// only when Redis is asked for (see open-redis.ts).
import { StartupError } from '../vocabulary/errors.js';
import { DEFAULT_REDIS_PREFIX } from './redis-prefix.js';

/** The defaults of RedisStoreOptions. */
export const REDIS_STORE_DEFAULTS = {
  prefix: DEFAULT_REDIS_PREFIX,
  timeoutMs: 2000,
  seedWaitMs: 60_000,
  claimLeaseMs: 15_000,
} as const;

/**
 * Redis that the store cannot start with: a bad URL, no server at it (or one that refuses
 * the connection or the password), or a server too old for the store. Its message is one
 * line that names the server (never its password), fit for the CLI to print as it is.
 * @example
 * try { await openRedisStore('redis://127.0.0.1:6379'); }
 * catch (error) { if (error instanceof RedisError) console.error(error.message); }
 */
export class RedisError extends StartupError {
  override name = 'RedisError';

  constructor(
    /** The server's URL, without its password. */
    readonly url: string,
    problem: string,
    options?: ErrorOptions,
  ) {
    super(`Redis at ${url}: ${problem.replace(/\s*\n\s*/g, ' ')}`, options);
  }
}

/**
 * The URL without its user name and password, for messages; undefined when it is no URL.
 * @example safeUrl('redis://:secret@cache:6379/0') // 'redis://cache:6379/0'
 */
export function safeUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return undefined;
  }
}
