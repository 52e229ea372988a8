// Where redis-server is found. What a run without it says and does: test/skip-paths.test.ts.
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRedisServer } from './find-redis.js';
import { tempFolder } from '../temp-folders.js';

describe('findRedisServer', () => {
  it('takes REDIS_SERVER_PATH first, else looks for redis-server on PATH', async () => {
    const dir = await tempFolder('redis');
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
  });
});
