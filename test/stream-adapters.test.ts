// The same streams through every adapter: MSW's handlers (a ReadableStream body), the express
// mount, and the Node server, where back-pressure and `--send-timeout` hold for a stream as for
// a long list, and the request line says a stream was cut.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockMiddleware, type MockMiddleware } from '../src/express.js';
import { createLogger } from '../src/http/logger.js';
import { mockHandlers } from '../src/msw.js';
import { startMock } from '../src/wiring/start-mock.js';
import { unhandled } from './msw-major.js';
import { open } from './server-helpers.js';

const CHAT = fileURLToPath(new URL('./fixtures/specs/streams-31.yaml', import.meta.url));
const JOBS = fileURLToPath(new URL('./fixtures/specs/streams-32.yaml', import.meta.url));

const chatInit = (prefer: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', prefer },
  body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream: true }),
});

/** The `data:` of each event of an SSE text. */
function dataOf(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const data = block.split('\n').find((line) => line.startsWith('data: ')) ?? '';
      return JSON.parse(data.slice('data: '.length)) as unknown;
    });
}

/** Each read of a body, as text, as it arrives. */
async function reads(body: ReadableStream<Uint8Array> | null): Promise<string[]> {
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const texts: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return texts;
    texts.push(decoder.decode(value, { stream: true }));
  }
}

describe('petstore-kit/msw', () => {
  const server = setupServer();
  beforeAll(async () => {
    const mock = await mockHandlers({ spec: CHAT, origin: 'http://chat.test', apiKeys: [] });
    server.use(...mock.handlers);
    server.listen(unhandled('error'));
  });
  afterAll(() => server.close());

  it('answers a stream as a ReadableStream body, read event by event', async () => {
    const res = await fetch(
      'http://chat.test/v1/chat/completions',
      chatInit('events=3, interval=20'),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const texts = await reads(res.body);
    // The body makes an event each time the reader asks: one a read.
    expect(texts.map((text) => dataOf(text).length)).toEqual([1, 1, 1]);
    const chunks = dataOf(texts.join(''));
    expect(chunks).toHaveLength(3);
    for (const chunk of chunks) expect(chunk).toMatchObject({ object: 'chat.completion.chunk' });
  });

  it('is cut by `Prefer: fault=reset; after=1` as a network error after one event', async () => {
    const res = await fetch(
      'http://chat.test/v1/chat/completions',
      chatInit('events=3, interval=0, fault=reset; after=1'),
    );
    let text = '';
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          text += new TextDecoder().decode(value);
        }
      })(),
    ).rejects.toThrow();
    expect(dataOf(text)).toHaveLength(1);
  });
});

describe('petstore-kit/express', () => {
  let mock: MockMiddleware;
  let listening: Server;
  beforeAll(async () => {
    mock = await mockMiddleware({ spec: JOBS, apiKeys: [] });
    const app = express();
    app.use(mock);
    listening = await new Promise<Server>((resolve) => {
      const started = app.listen(0, '127.0.0.1', () => resolve(started));
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => listening.close(resolve));
    await mock.close();
  });

  it('streams a job’s progress as JSON Lines through the mount, ending with the job', async () => {
    const origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    const created = await fetch(`${origin}/v1/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'deploy', state: 'queued', progress: 0 }),
    });
    const job = (await created.json()) as { id: number };
    const res = await fetch(`${origin}/v1/jobs/${job.id}`, {
      headers: { accept: 'application/jsonl', prefer: 'events=3, interval=20' },
    });
    expect(res.headers.get('content-type')).toBe('application/jsonl');
    expect(res.headers.get('content-length')).toBeNull();
    const lines = (await reads(res.body)).join('').trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[2] ?? '')).toEqual(job);
  });
});

// Each test has a mock of its own: they wait on their timers and clients at once.
describe.concurrent('the Node server', () => {
  /** A mock of the jobs spec whose request lines a test reads, closed at the test's end. */
  async function loggedMock(
    atEnd: (stop: () => Promise<void>) => void,
    sendTimeoutSeconds?: number,
  ) {
    const lines: { msg: string; cut?: boolean; fault?: string }[] = [];
    const log = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n'))
          if (line.includes('/v1/')) lines.push(JSON.parse(line) as (typeof lines)[number]);
        done();
      },
    });
    const mock = await startMock({
      spec: JOBS,
      apiKeys: [],
      logger: createLogger(log),
      logRequests: true,
      ...(sendTimeoutSeconds === undefined ? {} : { sendTimeoutSeconds }),
    });
    atEnd(() => mock.close());
    return { mock, lines };
  }

  const connections = (server: Server) =>
    new Promise<number>((resolve, reject) =>
      server.getConnections((err, count) => (err ? reject(err) : resolve(count))),
    );

  it('drops a client that reads nothing of a stream after the send timeout, and logs it cut', async ({
    expect,
    onTestFinished,
  }) => {
    const { mock, lines } = await loggedMock(onTestFinished, 0.5);
    const socket = await open(Number(new URL(mock.url).port));
    onTestFinished(async () => {
      socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.pause();
    // A thousand events of 16 kB: more than the kernel's buffers on both sides hold.
    socket.write(
      'GET /v1/logs HTTP/1.1\r\nHost: localhost\r\nPrefer: events=1000, interval=0\r\n\r\n',
    );
    await expect.poll(() => connections(mock.server), { timeout: 10_000, interval: 50 }).toBe(1);
    await expect.poll(() => connections(mock.server), { timeout: 30_000, interval: 100 }).toBe(0);
    await expect.poll(() => lines.length, { timeout: 5000 }).toBe(1);
    expect(lines[0]?.cut).toBe(true);
    expect(lines[0]?.msg).toMatch(/cut/);
  }, 60_000);

  it('keeps a client that reads a stream slower than the send timeout, between whole events', async ({
    expect,
    onTestFinished,
  }) => {
    // The events come further apart than the send timeout; a busy machine only parts them more.
    const { mock, lines } = await loggedMock(onTestFinished, 0.2);
    const res = await fetch(`${mock.url}/ticks`, {
      headers: { accept: 'application/x-ndjson', prefer: 'events=3, interval=300' },
    });
    const text = (await reads(res.body)).join('');
    expect(text.trim().split('\n')).toHaveLength(3);
    await expect.poll(() => lines.length, { timeout: 5000 }).toBe(1);
    expect(lines[0]?.cut).toBeUndefined();
  }, 30_000);

  it('logs a stream cut by `Prefer: fault=reset; after=2` as cut', async ({
    expect,
    onTestFinished,
  }) => {
    const { mock, lines } = await loggedMock(onTestFinished);
    const res = await fetch(`${mock.url}/ticks`, {
      headers: {
        accept: 'application/x-ndjson',
        prefer: 'events=5, interval=200, fault=reset; after=2',
      },
    });
    let text = '';
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          text += new TextDecoder().decode(value);
        }
      })(),
    ).rejects.toThrow();
    expect(text.trim().split('\n')).toHaveLength(2);
    await expect.poll(() => lines.length, { timeout: 5000 }).toBe(1);
    expect(lines[0]?.cut).toBe(true);
  });
});
