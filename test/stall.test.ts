// An event-loop stall longer than the keep-alive timeout: a request that arrived on an idle
// keep-alive connection during the stall is answered, not reset (issue 18).
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { open, readAll } from './server-helpers.js';

const MOCK = fileURLToPath(new URL('./fixtures/stalling-mock.mjs', import.meta.url));
const children: ChildProcess[] = [];

const mocks: RunningMock[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
});

async function stallingMock(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [MOCK], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the mock exited with ${code}`)));
  });
}

const LIST = 'GET /v1/categories HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer k\r\n\r\n';

describe('a stall of the event loop longer than the keep-alive timeout', () => {
  it('answers the request that arrived on an idle keep-alive connection meanwhile', async () => {
    const url = await stallingMock({ STALL_MS: '1500', KEEP_ALIVE_MS: '500' });
    const socket = await open(Number(new URL(url).port));
    const reading = readAll(socket, 15_000);
    socket.write(LIST);
    await sleep(200);
    // Another client's request holds the loop for 1.5 s...
    const stalling = fetch(`${url}/pets/1`, { headers: { Authorization: 'Bearer k' } });
    await sleep(800);
    // ...while this connection, idle for longer than its keep-alive timeout, sends its next one.
    socket.write(`${LIST.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n')}`);
    expect((await stalling).status).toBe(200);
    const text = await reading;
    expect(text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
  });

  it('still closes a keep-alive connection that stays idle past its timeout', async () => {
    // No stall here: the mock in this process.
    const mock = await startMock({ apiKeys: ['k'], seedCount: 1, keepAliveTimeoutSeconds: 0.3 });
    mocks.push(mock);
    const socket = await open(Number(new URL(mock.url).port));
    const reading = readAll(socket);
    socket.write(LIST);
    const text = await reading; // resolves when the server closes the connection
    expect(text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 200']);
  });
});
