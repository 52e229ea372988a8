import type { RedisStore, RedisStoreOptions } from './redis-store.js';
import { RedisError, safeUrl } from './redis-defaults.js';

/**
 * Connects to the Redis at `url` and opens the state kept under the prefix (see the store's
 * own `openRedisStore` in redis-store.ts for what it does and throws). The store and its
 * client are loaded on this first call, not when the library is imported: a mock that never
 * uses Redis never loads ioredis, an optional peer dependency installed only for Redis.
 * @throws {RedisError} one clear line when Redis cannot be used, or ioredis is not installed.
 * @example const store = await openRedisStore('redis://127.0.0.1:6379', { prefix: 'team-a' });
 */
export async function openRedisStore(
  url: string,
  options?: RedisStoreOptions,
): Promise<RedisStore> {
  const store = await import('./redis-store.js').catch((error: unknown) => {
    throw withoutIoredis(error, url) ?? error;
  });
  return store.openRedisStore(url, options);
}

/**
 * The error to show when loading the store failed because ioredis is not installed, naming
 * the command that installs it; undefined for any other failure.
 * @example withoutIoredis(new Error("Cannot find package 'ioredis' imported from ..."), url)
 * @internal for its tests: no part of the package's surface
 */
export function withoutIoredis(error: unknown, url: string): RedisError | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : '';
  if (code !== 'ERR_MODULE_NOT_FOUND' || !/['"]ioredis['"]/.test(message)) return undefined;
  return new RedisError(
    safeUrl(url) ?? '(unreadable URL)',
    'the Redis store needs the ioredis package, an optional peer dependency: npm i ioredis',
    { cause: error },
  );
}
