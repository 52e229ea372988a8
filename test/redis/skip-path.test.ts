// Where redis-server is missing the Redis tests must never vanish quietly: a local run skips
// them and says so after its summary; a CI run fails.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runVitest } from '../vitest-run.js';
import { findRedisServer } from './find-redis.js';

/** A Redis test file in a vitest of its own, as `npm test` runs it, without redis-server. */
function runRedisTests(env: Record<string, string>) {
  return runVitest(['test/redis-failure.test.ts'], {
    REDIS_SERVER_PATH: '/nonexistent/redis-server',
    ...env,
  });
}

// Concurrent: each is a vitest run of its own, a few seconds of start-up. Three minutes each,
// not Vitest's one: the two start at once, and on two busy cores a run can take more.
describe.concurrent('without redis-server', { timeout: 180_000 }, () => {
  it('a local run passes, and its summary ends with a banner saying how to install it', async () => {
    const { code, output } = await runRedisTests({});
    expect(code, output).toBe(0);
    const skipped = /Tests\s+(\d+) skipped \(\1\)/.exec(output)?.[1];
    expect(Number(skipped), output).toBeGreaterThan(0);
    const afterSummary = output.slice(output.indexOf('Duration'));
    expect(afterSummary).toContain(
      'REDIS TESTS SKIPPED: redis-server not found (REDIS_SERVER_PATH=/nonexistent/redis-server is not an executable file). ' +
        'Install it: apt-get install redis-server (or set REDIS_SERVER_PATH)',
    );
    expect(afterSummary).toContain(`(${skipped} Redis tests did not run)`);
  });

  it('a CI run fails instead of skipping', async () => {
    const { code, output } = await runRedisTests({ CI: 'true' });
    expect(code, output).toBe(1);
    expect(output).toContain('The Redis tests cannot run in CI: redis-server not found');
  });
});

describe('findRedisServer', () => {
  it('takes REDIS_SERVER_PATH first, else looks for redis-server on PATH', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-kit-redis-'));
    try {
      const fake = join(dir, 'redis-server');
      await writeFile(fake, '#!/bin/sh\n');
      await chmod(fake, 0o755);
      expect(findRedisServer({ REDIS_SERVER_PATH: fake })).toEqual({ found: true, path: fake });
      expect(findRedisServer({ REDIS_SERVER_PATH: join(dir, 'nothing') })).toMatchObject({
        found: false,
      });
      // Debian's /usr/bin/redis-server wins where it is installed.
      expect(findRedisServer({ PATH: dir })).toEqual({
        found: true,
        path: expect.stringMatching(/redis-server$/),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
