import type { RedisStore, RedisStoreOptions } from './redis-store.js';

/**
 * Connects to the Redis at `url` and opens the state kept under the prefix (see the store's
 * own `openRedisStore` in redis-store.ts for what it does and throws). The store and its
 * client are loaded on this first call, not when the library is imported: a mock that never
 * uses Redis never loads ioredis.
 * @throws {RedisError} one clear line when Redis cannot be used.
 * @example const store = await openRedisStore('redis://127.0.0.1:6379', { prefix: 'team-a' });
 */
export async function openRedisStore(
  url: string,
  options?: RedisStoreOptions,
): Promise<RedisStore> {
  const store = await import('./redis-store.js');
  return store.openRedisStore(url, options);
}
