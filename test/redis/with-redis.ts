// For the Redis tests: where redis-server is missing, they are skipped with a note that the
// skip reporter shows after the summary; in CI they fail instead.
import { beforeEach, it } from 'vitest';
import { isCi } from '../browser/chromium.js';
import { findRedisServer, REDIS_INSTALL_HINT, REDIS_SKIP_NOTE_PREFIX } from './find-redis.js';

export const redisLookup = findRedisServer(process.env);

/**
 * For a describe block (or a file) of Redis tests: where redis-server is missing, each test
 * is skipped with a note that the skip reporter shows, and in CI one failing test says why.
 * @returns whether redis-server was found, so that hooks can do nothing without it.
 * @example describe('on Redis', () => { if (!withRedis()) return; ... });
 */
export function withRedis(): boolean {
  if (redisLookup.found) return true;
  const missing = `redis-server not found (${redisLookup.why}). ${REDIS_INSTALL_HINT}`;
  if (isCi(process.env)) {
    // CI installs redis-server (.ci/run): there, a missing one is a broken CI, not a skip.
    it('redis-server is installed', () => {
      throw new Error(`The Redis tests cannot run in CI: ${missing}`);
    });
  } else {
    beforeEach((ctx) => ctx.skip(`${REDIS_SKIP_NOTE_PREFIX}: ${missing}`));
  }
  return false;
}
