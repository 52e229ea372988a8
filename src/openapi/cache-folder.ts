import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The variable that names another folder for what the mock remembers (a CI cache, a test's).
 * @internal for its tests: no part of the package's surface
 */
export const CACHE_DIR_VARIABLE = 'PETSTORE_KIT_CACHE_DIR';

/**
 * Where the mock remembers what it read of documents: the user's cache folder, as each system
 * has it (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on macOS,
 * `%LOCALAPPDATA%` on Windows), so that it survives `npm ci` (which deletes node_modules, and
 * `node_modules/.cache` with it) and is found where a user looks to clear caches.
 * `PETSTORE_KIT_CACHE_DIR` names another folder.
 * @example readingCacheFolder({ XDG_CACHE_HOME: '/var/cache/me' }, 'linux', '/home/me') // '/var/cache/me/petstore-kit/readings'
 */
export function readingCacheFolder(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const named = env[CACHE_DIR_VARIABLE];
  if (named) return named;
  const base =
    platform === 'darwin'
      ? join(home, 'Library', 'Caches')
      : platform === 'win32'
        ? (env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'))
        : (env.XDG_CACHE_HOME ?? join(home, '.cache'));
  return join(base, 'petstore-kit', 'readings');
}
