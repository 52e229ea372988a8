// Where redis-server is, for the Redis tests and for the skip reporter (which must not load
// vitest's test API, so this file does not).
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** How to get redis-server where it is missing. */
export const REDIS_INSTALL_HINT =
  'Install it: apt-get install redis-server (or set REDIS_SERVER_PATH)';

/** Every skip note of a Redis test starts so; the skip reporter looks for it. */
export const REDIS_SKIP_NOTE_PREFIX = 'REDIS TESTS SKIPPED';

export type RedisLookup = { found: true; path: string } | { found: false; why: string };

/**
 * Where redis-server is: `REDIS_SERVER_PATH` when set, else /usr/bin/redis-server (Debian's
 * package), else `redis-server` on the PATH.
 * @example findRedisServer(process.env) // { found: true, path: '/usr/bin/redis-server' }
 */
export function findRedisServer(env: NodeJS.ProcessEnv): RedisLookup {
  if (env.REDIS_SERVER_PATH) {
    return isExecutable(env.REDIS_SERVER_PATH)
      ? { found: true, path: env.REDIS_SERVER_PATH }
      : {
          found: false,
          why: `REDIS_SERVER_PATH=${env.REDIS_SERVER_PATH} is not an executable file`,
        };
  }
  const onPath = (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, 'redis-server'));
  const path = ['/usr/bin/redis-server', ...onPath].find(isExecutable);
  return path
    ? { found: true, path }
    : { found: false, why: 'no /usr/bin/redis-server, and no redis-server on PATH' };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
