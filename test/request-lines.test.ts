// What the mock tells a person per request: the level its outcome deserves, and why a 4xx
// is a 4xx; faults logged as faults, never as a status they never sent (issues 18 and 19).
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, requestLines, type RequestLine } from '../src/http/logger.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import type { MockOptions } from '../src/wiring/options.js';
import { AUTH, KEY, QUICK_SHUTDOWN } from './helpers.js';

const started: RunningMock[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

/** A mock whose request lines are collected as JSON objects. */
async function logged(options: MockOptions = {}) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    }),
  );
  const mock = await startMock({
    ...QUICK_SHUTDOWN,
    apiKeys: [KEY],
    logger,
    logRequests: true,
    ...options,
  });
  started.push(mock);
  /** The line of the request to this path (and method), once it is written. */
  const lineOf = async (path: string, method = 'GET') => {
    const find = () => lines.find((line) => line.path === path && line.method === method);
    await expect.poll(find, { timeout: 10_000 }).toBeDefined();
    return find() as Record<string, unknown>;
  };
  return { url: mock.url, lineOf };
}

const INFO = 30;
const WARN = 40;
const ERROR = 50;

describe('request lines', () => {
  it('2xx at info, 4xx at warn with the reason, 5xx at error', async () => {
    const { url, lineOf } = await logged();
    await fetch(`${url}/categories`, { headers: AUTH });
    await fetch(`${url}/categories?page=2`, { headers: AUTH });
    await fetch(`${url}/nowhere`, { headers: AUTH });
    await fetch(`${url}/categories?q`);
    await fetch(`${url}/pets/5`, { headers: { ...AUTH, Prefer: 'code=500' } });
    await fetch(`${url}/categories`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 7, description: 8 }),
    });

    expect(await lineOf('/v1/categories')).toMatchObject({ level: INFO, status: 200 });
    expect(await lineOf('/v1/categories?page=2')).toMatchObject({
      level: WARN,
      status: 400,
      reason: expect.stringMatching(/page is not a known property/),
    });
    expect(await lineOf('/v1/nowhere')).toMatchObject({
      level: WARN,
      status: 404,
      reason: 'No operation at GET /v1/nowhere',
    });
    expect(await lineOf('/v1/categories?q')).toMatchObject({
      level: WARN,
      status: 401,
      reason: expect.stringMatching(/Send the API key/),
    });
    expect(await lineOf('/v1/pets/5')).toMatchObject({ level: ERROR, status: 500 });
    // The line says the first problem, and how many more there are.
    const invalid = await lineOf('/v1/categories', 'POST');
    expect(invalid).toMatchObject({ level: WARN, status: 400 });
    expect(invalid.msg).toMatch(/: \/body\/name must be a string \(and 1 more\)$/);
  });

  it('a fault is logged as the fault, at error, with no made-up status', async () => {
    const { url, lineOf } = await logged();
    await fetch(`${url}/categories`, { headers: { ...AUTH, Prefer: 'fault=reset' } }).catch(
      () => undefined,
    );
    const line = await lineOf('/v1/categories');
    expect(line).toMatchObject({ level: ERROR, fault: 'reset' });
    expect(line).not.toHaveProperty('status');
    expect(line.msg).toMatch(/^GET \/v1\/categories fault=reset [\d.]+ms$/);
  });

  it('a preflight refused by --cors-origin says so, at warn: the browser will block the request', async () => {
    const { url, lineOf } = await logged({ cors: { origins: ['http://localhost:5173'] } });
    await fetch(`${url}/categories`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example.com', 'Access-Control-Request-Method': 'GET' },
    });
    expect(await lineOf('/v1/categories', 'OPTIONS')).toMatchObject({
      level: WARN,
      status: 204,
      reason: 'origin not allowed',
    });
  });
});

describe('a request line of the JSON logger', () => {
  /** The text a logger made by createLogger writes, or its child (which pino itself writes). */
  function written(child: boolean, level?: 'info' | 'warn') {
    let text = '';
    const made = createLogger(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          text += chunk.toString();
          done();
        },
      }),
      level ? { level } : {},
    );
    return { lines: requestLines(child ? made.child({}) : made), text: () => text };
  }

  it('is the line pino writes, field by field and escape by escape, and at its level only', async () => {
    const sent: RequestLine[] = [
      { method: 'GET', path: '/v1/categories', status: 200, ms: 0.3 },
      { method: 'GET', path: '/v1/x?q="é\\', status: 404, reason: 'No "x"; and\nmore', ms: 12 },
      { method: 'POST', path: '/v1/pets', fault: 'reset', ms: 1 },
      { method: 'POST', path: '/v1/pets', status: 201, fault: 'malformed', ms: 1 },
      { method: 'GET', path: '/v1/pets', status: 200, cut: true, ms: 30_001.5 },
      { method: 'GET', path: '/v1/pets', status: 500, reason: '', ms: 0 },
      // Escapes in a line with no reason: a quote, a backslash, a control character, a surrogate
      // pair (a lone surrogate pino writes as JSON.stringify does from Node 25 only).
      { method: 'GET', path: '/v1/x?q="a\\', status: 404, ms: 1 },
      { method: 'GET', path: '/v1/x?q=\u0001\u007f', status: 200, ms: 2 },
      { method: 'GET', path: '/v1/x?q=\ud83d\ude00\u2028', status: 200, ms: 4 },
      { method: 'M"\\', path: '/v1', status: 405, ms: 5 },
      // Lines of a path seen before, its parts kept: again, by another method, with another status.
      { method: 'GET', path: '/v1/categories', status: 200, ms: 17.25 },
      { method: 'POST', path: '/v1/categories', status: 201, ms: 3 },
      { method: 'POST', path: '/v1/categories', status: 400, reason: 'No name', ms: 3 },
      { method: 'GET', path: '/v1/categories', status: 304, ms: 1 },
      { method: 'GET', path: '/v1/x?q="a\\', status: 404, ms: 7 },
    ];
    for (const level of [undefined, 'warn'] as const) {
      const direct = written(false, level);
      const byPino = written(true, level);
      for (const line of sent) {
        direct.lines(line);
        byPino.lines(line);
      }
      await new Promise((resolve) => setImmediate(resolve));
      const withoutTime = (text: string) => text.replace(/"time":"[^"]+"/g, '"time":"T"');
      expect(direct.text()).not.toBe('');
      expect(withoutTime(direct.text())).toBe(withoutTime(byPino.text()));
      for (const line of direct.text().split('\n').filter(Boolean))
        expect((JSON.parse(line) as { time: string }).time).toMatch(
          /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
        );
    }
  });
});
