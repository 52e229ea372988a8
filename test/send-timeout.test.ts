// `--send-timeout`: a client that takes nothing of a large list for that long is dropped
// within about a second of it, not twice as late, and its request line says the answer was
// cut, not 200 (issue 45).
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { createLogger } from '../src/http/logger.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { KEY, QUICK_SHUTDOWN } from './helpers.js';
import { open } from './server-helpers.js';

const started: RunningMock[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

/** About 10 MB of categories: more than the kernel's buffers on both sides hold. */
function categories(): Record<string, unknown>[] {
  const description = 'A category long enough to make the list ten megabytes. '.repeat(36);
  return Array.from({ length: 5000 }, (_, i) => ({
    id: i + 1,
    name: `Kind ${i + 1}`,
    description,
  }));
}

function connections(server: Server): Promise<number> {
  return new Promise((resolve, reject) =>
    server.getConnections((err, count) => (err ? reject(err) : resolve(count))),
  );
}

describe('a client that reads nothing of a large list', () => {
  it('is dropped within a second or so of the send timeout, and its line says the answer was cut', async () => {
    const seconds = 1;
    let logged = '';
    const log = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    const mock = await startMock({
      ...QUICK_SHUTDOWN,
      apiKeys: [KEY],
      store: createMemoryStore({ initial: { categories: categories() } }),
      sendTimeoutSeconds: seconds,
      logger: createLogger(log),
      logRequests: true,
    });
    started.push(mock);
    const socket = await open(Number(new URL(mock.url).port));
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.pause();
    const asked = performance.now();
    socket.write(
      `GET /v1/categories HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\n\r\n`,
    );
    await expect.poll(() => connections(mock.server), { timeout: 10_000, interval: 50 }).toBe(1);
    // Seen from the server: a paused client socket may not notice its reset.
    await expect.poll(() => connections(mock.server), { timeout: 30_000, interval: 50 }).toBe(0);
    const dropped = performance.now() - asked;
    // Not before the timeout, and not twice as late: a generous second and a half over it.
    expect(dropped).toBeGreaterThan(seconds * 1000 - 100);
    expect(dropped).toBeLessThan(seconds * 1000 + 1500);
    await expect.poll(() => logged, { timeout: 5000 }).toContain('GET /v1/categories');
    const line = JSON.parse(
      logged.split('\n').find((l) => l.includes('/v1/categories')) ?? '{}',
    ) as {
      msg: string;
      cut?: boolean;
    };
    expect(line.msg).not.toMatch(/ 200 /);
    expect(line.msg).toMatch(/cut/);
  }, 60_000);
});
