// The proxy's --target-timeout under a second: undici checks its own head timeout on a clock
// that ticks every half second, so 0.2 s used to answer 504 after about a second.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it, vi } from 'vitest';
import { createForwarder } from '../src/http/forward.js';

let silent: Server | undefined;
afterEach(async () => {
  vi.useRealTimers();
  silent?.closeAllConnections();
  await new Promise((resolve) => silent?.close(resolve));
});

it('gives up on a target that sends no head once the timeout has passed, not on the next tick of a coarser clock', async () => {
  const connected = new Promise<void>((resolve) => {
    silent = createServer(() => {}).on('connection', () => resolve()); // never answers
  });
  await new Promise<void>((resolve) => silent?.listen(0, '127.0.0.1', resolve));
  const { port } = silent?.address() as AddressInfo;
  const forwarder = createForwarder({
    target: new URL(`http://127.0.0.1:${port}/v1`),
    timeoutMs: 200,
  });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let failure: unknown;
  const sent = forwarder
    .send({
      method: 'GET',
      path: '/categories',
      rawHeaders: [],
      body: undefined,
      httpVersion: '1.1',
      signal: new AbortController().signal,
    })
    .catch((err: unknown) => (failure = err));
  await connected;
  // 250 ms on the timers' clock, a few milliseconds of real time: undici's own clock has not ticked.
  await vi.advanceTimersByTimeAsync(250);
  await new Promise((resolve) => setImmediate(resolve));
  expect(failure).toBeDefined();
  expect(forwarder.failure(failure)).toMatchObject({ status: 504, code: 'gateway_timeout' });
  await sent;
  await forwarder.close();
});
