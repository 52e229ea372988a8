// The inspector polls the admin API every second: its reads would drown the request lines a
// person reads (issue 32). They are logged at debug, which `--log-level debug` shows.
import { afterEach, describe, expect, it } from 'vitest';
import type { LogLevel } from '../src/http/log-levels.js';
import { AUTH, capturedLogger, KEY, QUICK_SHUTDOWN } from './helpers.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';

const started: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

/** The JSON lines a mock logs at `level`, after an admin read, an API read and an admin write. */
async function linesAt(level: LogLevel): Promise<{ msg: string; level: number }[]> {
  const { logger, text } = capturedLogger({ level });
  const mock = await startMock({ ...QUICK_SHUTDOWN, apiKeys: [KEY], logger, logRequests: true });
  started.push(mock);
  const admin = mock.url.replace(/\/v1$/, '/__mock');
  expect((await fetch(`${admin}/requests`, { headers: AUTH })).status).toBe(200);
  expect((await fetch(`${mock.url}/categories`, { headers: AUTH })).status).toBe(200);
  expect((await fetch(`${admin}/reset`, { method: 'POST', headers: AUTH })).status).toBe(204);
  // The line is written after the answer: on a busy machine that can take past the poll's
  // default second.
  await expect
    .poll(
      () =>
        text()
          .split('\n')
          .filter((line) => line.includes('/categories')).length,
      { timeout: 10_000 },
    )
    .toBe(1);
  return text()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string; level: number });
}

describe('the request lines of the admin API', () => {
  it('leave its successful reads out at the default level, and keep the API and admin writes', async () => {
    const messages = (await linesAt('info')).map((line) => line.msg);
    expect(messages.some((msg) => msg.startsWith('GET /__mock/requests'))).toBe(false);
    expect(messages.some((msg) => msg.startsWith('GET /v1/categories 200'))).toBe(true);
    expect(messages.some((msg) => msg.startsWith('POST /__mock/reset 204'))).toBe(true);
  });

  it('show them at debug', async () => {
    const read = (await linesAt('debug')).find((line) =>
      line.msg.startsWith('GET /__mock/requests 200'),
    );
    expect(read?.level).toBe(20);
  });
});
