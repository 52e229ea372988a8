// A body over the limit is refused with 413 before it is read, and the connection then closed
// gracefully (RFC 9112 §9.6, nginx's lingering close): the server reads and discards what the
// client is still sending, so a client that reads only once it has sent its body always
// reads the 413, rather than meeting a reset (issue 45).
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { startProxy } from '../src/wiring/start-proxy.js';
import { KEY } from './helpers.js';
import { open } from './server-helpers.js';

const started: Pick<RunningMock, 'close'>[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

const BODY = 2 * 1024 * 1024;
const CHUNK = 64 * 1024;

/**
 * Sends a POST of 2 MiB, a chunk every few milliseconds, reading nothing until it is all sent
 * (as many clients do), then reads what the server said; resolves with it and any error met.
 */
async function slowUpload(port: number): Promise<{ text: string; error?: string }> {
  const socket = await open(port);
  sockets.push(socket);
  socket.pause();
  let error: string | undefined;
  socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
  socket.write(
    `POST /v1/categories HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${BODY}\r\n\r\n`,
  );
  const chunk = Buffer.alloc(CHUNK, 0x20);
  for (let sent = 0; sent < BODY && error === undefined && !socket.destroyed; sent += CHUNK) {
    socket.write(chunk);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  // Whatever the server does now, its answer is read: all that arrived, until the end.
  const text = await new Promise<string>((resolve) => {
    let received = '';
    // Reset meanwhile: what the client had not read is lost with the connection.
    if (socket.destroyed) return resolve(received);
    socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
    socket.once('close', () => resolve(received));
    socket.resume();
    socket.end();
  });
  return { text, ...(error === undefined ? {} : { error }) };
}

/**
 * Three slow uploads of 2 MiB at once, each on its own connection: each reads its 413 in the
 * spec's error shape, then the close.
 */
async function expectRefusedGracefully(port: number): Promise<void> {
  const uploads = await Promise.all([slowUpload(port), slowUpload(port), slowUpload(port)]);
  for (const { text, error } of uploads) {
    expect({ error, status: text.slice(0, 12) }).toEqual({
      error: undefined,
      status: 'HTTP/1.1 413',
    });
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'payload_too_large', message: expect.any(String) });
  }
}

describe('a body over the limit', () => {
  it('is answered 413 in the spec error shape, which the client reads before the connection closes', async () => {
    const mock = await startMock({ apiKeys: [KEY], bodyLimit: 1024 * 1024 });
    started.push(mock);
    await expectRefusedGracefully(Number(new URL(mock.url).port));
  }, 60_000);

  it('is answered so by the proxy too, which forwards nothing of it', async () => {
    // A target nothing listens at: a request that reached it would be a 502, not a 413.
    const proxy = await startProxy({
      target: 'http://127.0.0.1:9/v1',
      apiKeys: [KEY],
      bodyLimit: 1024 * 1024,
    });
    started.push(proxy);
    await expectRefusedGracefully(Number(new URL(proxy.url).port));
  }, 60_000);
});
