// A client that stops reading an answer is dropped after the send timeout, and what was held
// for it freed: a stalled reader cannot hold a socket and its buffers forever (issue 18).
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { KEY, QUICK_SHUTDOWN } from './helpers.js';
import { open } from './server-helpers.js';

const started: RunningMock[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

function connections(server: Server): Promise<number> {
  return new Promise((resolve, reject) =>
    server.getConnections((err, count) => (err ? reject(err) : resolve(count))),
  );
}

/** A pet of about 32 MiB: far more than the socket's buffers hold. */
const HUGE = { id: 1, name: 'x'.repeat(32 * 1024 * 1024) };

describe('a client that stops reading', () => {
  it('is dropped after the send timeout', async () => {
    const mock = await startMock({
      ...QUICK_SHUTDOWN,
      apiKeys: [KEY],
      seedCount: 0,
      sendTimeoutSeconds: 0.3,
      handlers: { getPetById: () => ({ status: 200, body: HUGE }) },
    });
    started.push(mock);
    const socket = await open(Number(new URL(mock.url).port));
    socket.pause(); // reads nothing of the answer
    socket.write(
      `GET /v1/pets/1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\n\r\n`,
    );
    await expect.poll(() => connections(mock.server), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => connections(mock.server), { timeout: 15_000 }).toBe(0);
    socket.destroy();
  });

  it('that reads slowly but steadily is served whole', async () => {
    const mock = await startMock({
      ...QUICK_SHUTDOWN,
      apiKeys: [KEY],
      seedCount: 0,
      // Far above the client's 5 ms pauses: a busy machine that stalls the test's own process
      // for 300 ms (the bound before) had the reader dropped as stalled (CI failed once on it).
      sendTimeoutSeconds: 3,
      handlers: { getPetById: () => ({ status: 200, body: { id: 1, name: 'x'.repeat(4 << 20) } }) },
    });
    started.push(mock);
    const socket = await open(Number(new URL(mock.url).port));
    let received = 0;
    const done = new Promise<void>((resolve, reject) => {
      // Dropped before the whole answer came: said at once, not after the test's time runs out.
      socket.on('close', () => reject(new Error(`the connection closed after ${received} bytes`)));
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        // A pause shorter than the timeout between reads.
        socket.pause();
        setTimeout(() => socket.resume(), 5);
        if (received > 4 << 20) resolve();
      });
    });
    socket.write(
      `GET /v1/pets/1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\n\r\n`,
    );
    await done;
    expect(received).toBeGreaterThan(4 << 20);
    socket.destroy();
  });
});
