// Request lines are buffered and written in batches (issue 45, decision 027): what a user reads
// in them must not change for it.
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/http/logger.js';

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

  it('that fill a batch are written at once, in order, without waiting for the timer', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'log-destination-')), 'log');
    const fd = openSync(file, 'w');
    const logger = createLogger(undefined, { bufferedFd: fd });
    const count = 200; // about 16 KB of lines: more than one batch
    for (let i = 0; i < count; i++)
      logger.info({ i, path: '/v1/categories' }, 'GET /v1/categories 200');
    const written = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    expect(written.length).toBeGreaterThan(0);
    expect(written.map((line) => (JSON.parse(line) as { i: number }).i)).toEqual(
      Array.from({ length: written.length }, (_, i) => i),
    );
    closeSync(fd);
  });
});
