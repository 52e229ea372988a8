// The proxy's requests in the request log (issue 33): what an app sent through the proxy, and
// what the target answered, read at GET /__mock/requests as the inspector reads it.
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type RunningProxy } from '../src/wiring/start-proxy.js';
import { categoriesTarget, TARGET_AUTH } from './proxy-target.js';

const ADMIN_KEY = 'admin-key';
const ADMIN = { Authorization: `Bearer ${ADMIN_KEY}` };
const target = categoriesTarget();
let proxy: RunningProxy;
let admin: string;

interface Logged {
  id: number;
  method: string;
  path: string;
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  bodyNote?: string;
  response?: { headers: Record<string, string>; body?: unknown; bodyStart?: string };
}

/** The request log, newest first, once it holds `count` entries (an answer is logged once it has gone by). */
async function logged(count: number): Promise<Logged[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${admin}/requests`, { headers: ADMIN });
    expect(res.status).toBe(200);
    const { requests } = (await res.json()) as { requests: Logged[] };
    if (requests.length >= count || Date.now() > deadline) return requests;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  await new Promise<void>((resolve) => target.server.listen(0, '127.0.0.1', resolve));
  const port = (target.server.address() as AddressInfo).port;
  proxy = await startProxy({ target: `http://127.0.0.1:${port}/api/v1`, apiKeys: [ADMIN_KEY] });
  admin = proxy.url.replace(/\/v1$/, '/__mock');
});

afterEach(async () => {
  await fetch(`${admin}/requests`, { method: 'DELETE', headers: ADMIN });
});

afterAll(async () => {
  await proxy.close();
  target.server.closeAllConnections();
  await new Promise((resolve) => target.server.close(resolve));
});

describe('petstore-kit proxy: the request log', () => {
  it('logs each forwarded request with the target’s answer, its credentials redacted', async () => {
    const created = await fetch(`${proxy.url}/categories`, {
      method: 'POST',
      headers: { ...TARGET_AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ferret' }),
    });
    expect(created.status).toBe(201);
    const listed = await fetch(`${proxy.url}/categories`, { headers: TARGET_AUTH });
    expect(listed.status).toBe(200);

    const [list, create] = await logged(2);
    expect(list).toMatchObject({ method: 'GET', path: '/v1/categories', status: 200 });
    expect(list?.response?.body).toEqual([
      { id: 1, name: 'Dog', description: 'Domestic dogs' },
      { id: 2, name: 'Cat' },
    ]);
    expect(create).toMatchObject({
      method: 'POST',
      path: '/v1/categories',
      status: 201,
      body: { name: 'Ferret' },
      response: { body: { id: expect.any(Number), name: 'Ferret' } },
    });
    expect(create?.response?.headers['x-trace']).toBe('target-1');
    // The target's cookies and the client's credential are not shown.
    expect(create?.response?.headers['set-cookie']).toBe('[not kept]');
    expect(JSON.stringify(create?.headers)).not.toContain('staging-token');
  });

  it('logs a request to a path the spec does not have, with the status the target gave', async () => {
    const missing = await fetch(`${proxy.url}/nowhere`, { headers: TARGET_AUTH });
    const [entry] = await logged(1);
    expect(entry).toMatchObject({ method: 'GET', path: '/v1/nowhere', status: missing.status });
  });
});
