// `import 'petstore-kit'` loads no optional dependency: ioredis only when Redis is used.
// Checked in a fresh process, on the built entry (what a user imports), through the module
// cache: ioredis is CommonJS, and CommonJS modules an ES module imports land in require.cache.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

/** The paths of the CommonJS modules loaded once `entry` (under dist/) is imported, and `then` run. */
async function loadedAfter(entry: string, then = ''): Promise<string[]> {
  const script = `
    import { createRequire } from 'node:module';
    const library = await import(${JSON.stringify(new URL(entry, `file://${DIST}`).href)});
    ${then}
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    process.stdout.write(JSON.stringify(loaded));
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', script],
    { cwd: DIST, timeout: 60_000 },
  );
  return JSON.parse(stdout) as string[];
}

const ioredis = (paths: readonly string[]) =>
  paths.filter((path) => /[/\\]ioredis[/\\]/.test(path));

beforeAll(() => {
  if (!existsSync(`${DIST}index.js`))
    throw new Error('dist/index.js is missing: run `npm run build` (npm test does)');
});

/**
 * The entry imported, then its Redis error and defaults used, in one process: the module cache
 * only grows, so what it holds at the end was not loaded by the import either.
 */
let entryLoaded: Promise<string[]> | undefined;
const entryThenRedisNames = () =>
  (entryLoaded ??= loadedAfter(
    'index.js',
    `if (!(new library.RedisError('redis://x', 'down') instanceof library.StartupError)) process.exit(3);
     if (library.REDIS_STORE_DEFAULTS.timeoutMs !== 2000) process.exit(4);`,
  ));

describe('the library entry', () => {
  it('loads no ioredis module when imported', async () => {
    const loaded = await entryThenRedisNames();
    // The check sees CommonJS modules at all (raw-body is loaded by the entry's graph).
    expect(loaded.length).toBeGreaterThan(0);
    expect(ioredis(loaded)).toEqual([]);
  });

  it('still names the Redis error and defaults without loading Redis', async () => {
    expect(ioredis(await entryThenRedisNames())).toEqual([]);
  });

  it('would see ioredis were it loaded: the Redis store module loads it', async () => {
    expect(ioredis(await loadedAfter('store/redis-store.js')).length).toBeGreaterThan(0);
  });
});
