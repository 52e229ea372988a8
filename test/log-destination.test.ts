// Request lines are buffered and written in batches (issue 45, decision 029): what a user reads
// in them must not change for it.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/http/logger.js';
import { tempFolderSync } from './temp-folders.js';

afterEach(() => vi.useRealTimers());

function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger(stream), lines };
}

describe('log lines', () => {
  it('carry the ISO time of the moment each was logged', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { logger, lines } = memoryLogger();
    const times = [
      '2026-12-06T20:00:00.000Z',
      '2026-12-06T20:00:00.000Z',
      '2026-12-06T20:00:00.001Z',
      '2027-01-01T00:00:00.000Z',
    ];
    for (const time of times) {
      vi.setSystemTime(new Date(time));
      logger.info('line');
    }
    expect(lines.map((line) => line.time)).toEqual(times);
  });

  it('that fill a batch are written at once, in order, without waiting for the timer', async () => {
    const file = join(tempFolderSync('log-destination'), 'log');
    const fd = openSync(file, 'w');
    const logger = createLogger(undefined, { bufferedFd: fd });
    const count = 800; // about 64 KB of lines: more than one batch (32 K characters)
    for (let i = 0; i < count; i++)
      logger.info({ i, path: '/v1/categories' }, 'GET /v1/categories 200');
    const written = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    expect(written.length).toBeGreaterThan(0);
    expect(written.map((line) => (JSON.parse(line) as { i: number }).i)).toEqual(
      Array.from({ length: written.length }, (_, i) => i),
    );
    // The rest follows within the tenth of a second a line may wait.
    await expect
      .poll(() => readFileSync(file, 'utf8').split('\n').length - 1, { timeout: 5000 })
      .toBe(count);
    closeSync(fd);
  });

  it('keep every character, lines larger than a batch among them, in order', async () => {
    const file = join(tempFolderSync('log-destination'), 'log');
    const fd = openSync(file, 'w');
    const logger = createLogger(undefined, { bufferedFd: fd });
    // Characters of one to four bytes in UTF-8, in lines of a few bytes to 120 KB, so that
    // lines meet batches filled to every extent.
    const sent = Array.from({ length: 150 }, (_, i) =>
      i % 3 === 0
        ? '/v1/caf\u00e9'
        : i % 3 === 1
          ? `/v1/${'\u{1f436}'.repeat(i)}`
          : `/v1/${'\u00e9'.repeat((i * 2654) % 30_000)}`,
    );
    for (const [i, path] of sent.entries()) logger.warn({ i, path }, `GET ${path} 404`);
    await expect
      .poll(() => readFileSync(file, 'utf8').split('\n').length - 1, { timeout: 5000 })
      .toBe(sent.length);
    const read = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { i: number; path: string });
    expect(read.map(({ i, path }) => [i, path])).toEqual(sent.map((path, i) => [i, path]));
    closeSync(fd);
  });
});

describe('a reader that stops reading for a while', () => {
  it('gets every line, in order, once it reads again', async () => {
    // `cat` stopped: the pipe to it fills, and the mock must neither block nor drop lines.
    const cat = spawn('cat', [], { stdio: ['pipe', 'pipe', 'ignore'] });
    let echoed = '';
    cat.stdout.on('data', (chunk: Buffer) => (echoed += chunk.toString()));
    const fd = (cat.stdin as unknown as { _handle: { fd: number } })._handle.fd;
    cat.kill('SIGSTOP');
    try {
      const logger = createLogger(undefined, { bufferedFd: fd });
      const count = 5_000; // about 400 KB: several times what a pipe holds
      for (let i = 0; i < count; i++) logger.info({ i }, 'GET /v1/categories 200');
      cat.kill('SIGCONT');
      await expect
        .poll(() => echoed.split('\n').length - 1, { timeout: 10_000, interval: 50 })
        .toBe(count);
      expect(
        echoed
          .split('\n')
          .filter(Boolean)
          .map((line) => (JSON.parse(line) as { i: number }).i),
      ).toEqual(Array.from({ length: count }, (_, i) => i));
    } finally {
      cat.kill('SIGCONT');
      cat.kill();
    }
  }, 30_000);
});
