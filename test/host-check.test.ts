// The Host check (issue 30): a page whose DNS name is rebound to 127.0.0.1 sends its own name
// as Host; the mock answers only loopback names and addresses, the host it listens on, and the
// hosts it is told to allow, and refuses others with a 403 in the spec's error shape.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mockMiddleware } from '../src/express.js';
import type { MockOptions } from '../src/wiring/options.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { KEY, QUICK_SHUTDOWN } from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function mock(options: MockOptions = {}): Promise<RunningMock> {
  const running = await startMock({ ...QUICK_SHUTDOWN, apiKeys: [KEY], ...options });
  cleanups.push(() => running.close());
  return running;
}

/** A GET with this Host header (fetch does not let a caller set one). */
function get(
  port: number,
  path: string,
  host: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { Host: host, Authorization: `Bearer ${KEY}` } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(text) as Record<string, unknown>,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const portOf = (running: RunningMock) => (running.server.address() as AddressInfo).port;

describe('the Host a request names', () => {
  it('a foreign host is refused with 403 in the spec’s error shape, the admin API too', async () => {
    const running = await mock();
    const port = portOf(running);
    for (const path of ['/v1/categories', '/__mock/requests']) {
      const answer = await get(port, path, `evil.example:${port}`);
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ status: 403, code: 'host_not_allowed' });
      expect(String(answer.body.message)).toContain('"evil.example"');
      expect(String(answer.body.message)).toContain('--allowed-host');
    }
  });

  it('localhost, 127.0.0.1, [::1] and *.localhost are answered, with or without a port', async () => {
    const running = await mock();
    const port = portOf(running);
    for (const host of [
      `localhost:${port}`,
      'localhost',
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      `app.localhost:${port}`,
      'LOCALHOST.',
    ])
      expect((await get(port, '/v1/categories', host)).status, host).toBe(200);
  });

  it('a host allowed with allowedHosts is answered, and * answers every host', async () => {
    const allowed = await mock({ allowedHosts: ['mock.team.internal'] });
    const port = portOf(allowed);
    expect((await get(port, '/v1/categories', `Mock.Team.Internal:${port}`)).status).toBe(200);
    expect((await get(port, '/v1/categories', `other.internal:${port}`)).status).toBe(403);
    const any = await mock({ allowedHosts: ['*'] });
    expect((await get(portOf(any), '/v1/categories', 'evil.example')).status).toBe(200);
  });

  it('mounted in an app, the mock leaves the Host to the app', async () => {
    const middleware = await mockMiddleware({ apiKeys: [KEY] });
    const server: Server = createServer((req, res) =>
      middleware(req, res, () => res.writeHead(404).end('{}')),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      await new Promise((resolve) => server.close(resolve));
      await middleware.close();
    });
    const port = (server.address() as AddressInfo).port;
    expect((await get(port, '/v1/categories', 'evil.example')).status).toBe(200);
  });
});
