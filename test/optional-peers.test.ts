// ioredis and pino-pretty are optional peer dependencies: without them, the one error that
// says what to install (the packed-tarball smoke test runs the CLI without both).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RedisError } from '../src/store/redis-defaults.js';
import { withoutIoredis } from '../src/store/open-redis.js';
import { createLogger, prettyInstalled } from '../src/http/logger.js';
import { tempFolderSync } from './temp-folders.js';

/** A folder with no node_modules above it: its modules find no package. */
const lonely = tempFolderSync('no-packages');

/**
 * The error Node gives a module importing `name` where it is not installed (in a Node of its
 * own: Vitest's module runner would give its own error, where the built package gets Node's).
 */
function importFailure(name: string): Error {
  const file = join(lonely, `imports-${name}.mjs`);
  writeFileSync(file, `import '${name}';\n`);
  const script = `import(${JSON.stringify(pathToFileURL(file).href)}).then(
    () => console.log('{}'),
    (e) => console.log(JSON.stringify({ code: e.code, message: e.message })),
  );`;
  const seen = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
    code?: string;
    message?: string;
  };
  return Object.assign(new Error(seen.message ?? `${name} was found`), { code: seen.code });
}

describe('the Redis store without ioredis installed', () => {
  it('says to npm i ioredis, naming the server without its password', async () => {
    const error = withoutIoredis(importFailure('ioredis'), 'redis://:secret@cache:6379/0');
    expect(error).toBeInstanceOf(RedisError);
    expect(error?.message).toBe(
      'Redis at redis://cache:6379/0: the Redis store needs the ioredis package, an optional peer dependency: npm i ioredis',
    );
  });

  it('leaves any other failure as it is', async () => {
    expect(withoutIoredis(importFailure('not-ioredis'), 'redis://cache:6379')).toBe(undefined);
    expect(withoutIoredis(new Error("'ioredis' broke"), 'redis://cache:6379')).toBe(undefined);
  });
});

describe('pino-pretty, installed here as a devDependency', () => {
  it('is found, and gives lines for people', () => {
    expect(prettyInstalled()).toBe(true);
    let text = '';
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    createLogger(destination, { pretty: true }).info('started');
    expect(text).toMatch(/INFO.*started/);
  });
});
