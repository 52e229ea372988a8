// The validating proxy (`petstore-kit proxy`) in front of a real target: a small node:http
// server (proxy-target.ts), correct at first, then with one fault at a time.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedSpec } from '../src/openapi/load.js';
import { startMock } from '../src/wiring/start-mock.js';
import { startProxy, type ProxyOptions, type RunningProxy } from '../src/wiring/start-proxy.js';
import { editedSpec, serveCli } from './helpers.js';
import { categoriesTarget, TARGET_AUTH, type Fault } from './proxy-target.js';
import { tempFolder } from './temp-folders.js';

const ADMIN_KEY = 'admin-key';

let spec: LoadedSpec;
const target = categoriesTarget();
let targetUrl: string;
const proxies: RunningProxy[] = [];

beforeAll(async () => {
  // Without `default`, a status the list operation does not document is a status violation.
  spec = await editedSpec((document) => {
    delete (document.paths?.['/categories']?.get?.responses as Record<string, unknown>).default;
  });
  await new Promise<void>((resolve) => target.server.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.server.address() as AddressInfo).port}/api/v1`;
});

/**
 * Closes the proxies started. No request of the test is on its way then: their idle keep-alive
 * connections are closed first, and the close has no shutdown grace (200 ms) to wait out.
 */
async function closeProxies(): Promise<void> {
  await Promise.all(
    proxies.splice(0).map((proxy) => (proxy.server.closeIdleConnections(), proxy.close())),
  );
}

afterEach(async () => {
  target.state.fault = 'none';
  target.state.received = [];
  await closeProxies();
});

afterAll(async () => {
  target.server.closeAllConnections();
  await new Promise((resolve) => target.server.close(resolve));
});

async function proxy(
  options: Partial<ProxyOptions> = {},
): Promise<RunningProxy & { admin: string }> {
  const started = await startProxy({ spec, target: targetUrl, apiKeys: [ADMIN_KEY], ...options });
  proxies.push(started);
  return Object.assign(started, { admin: started.url.replace(/\/v1$/, '/__mock') });
}

interface ListedViolations {
  count: number;
  violations: {
    method: string;
    path: string;
    status: number;
    side: string;
    rule: string;
    message: string;
  }[];
}

async function violationsOf(admin: string): Promise<ListedViolations> {
  const res = await fetch(`${admin}/violations`, {
    headers: { Authorization: `Bearer ${ADMIN_KEY}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as ListedViolations;
}

/**
 * The violations once at least `atLeast` are listed: an answer is checked once it has gone by,
 * which a client may see a moment before the proxy has.
 */
async function violationsAfter(admin: string, atLeast: number): Promise<ListedViolations> {
  for (let tries = 0; ; tries++) {
    const listed = await violationsOf(admin);
    if (listed.count >= atLeast || tries === 100) return listed;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The answer with its raw bytes (undici's request decompresses nothing) and headers. */
async function raw(url: string, headers: Record<string, string> = TARGET_AUTH) {
  const res = await request(url, { headers });
  return {
    status: res.statusCode,
    headers: res.headers,
    bytes: Buffer.from(await res.body.arrayBuffer()),
  };
}

describe('petstore-kit proxy: forwarding', () => {
  it('passes each answer through as the target gave it: status, bytes, content type, fields, compression', async () => {
    const { url } = await proxy();
    for (const path of ['/categories', '/categories?gzip', '/nowhere']) {
      const direct = await raw(`${targetUrl}${path}`);
      const through = await raw(`${url}${path}`);
      expect(through.status, path).toBe(direct.status);
      expect(through.bytes.equals(direct.bytes), path).toBe(true);
      for (const name of [
        'content-type',
        'content-encoding',
        'x-trace',
        'set-cookie',
        'content-length',
      ])
        expect(through.headers[name], `${path} ${name}`).toEqual(direct.headers[name]);
    }
    expect((await raw(`${url}/categories?gzip`)).headers['content-encoding']).toBe('gzip');
  });

  it('streams an answer: its first bytes reach the client before the target has sent the rest', async () => {
    const { url, admin } = await proxy();
    const res = await request(`${url}/store/orders`, { headers: TARGET_AUTH });
    expect(res.statusCode).toBe(200);
    const chunks = res.body[Symbol.asyncIterator]();
    const first = await chunks.next();
    expect(String(first.value)).toBe('[{"id":1}');
    target.state.release();
    let rest = '';
    for (let next = await chunks.next(); !next.done; next = await chunks.next())
      rest += String(next.value);
    expect(rest).toBe(',{"id":2}]');
    expect((await violationsOf(admin)).count).toBe(0);
  });

  it("forwards the client's credential untouched and drops the hop-by-hop fields (RFC 9110 §7.6.1)", async () => {
    const { url } = await proxy();
    // node:http sends the Connection field as given (undici's client keeps it to itself).
    await new Promise<void>((resolve, reject) => {
      const headers = {
        ...TARGET_AUTH,
        Connection: 'keep-alive, X-Hop',
        'X-Hop': 'secret',
        'X-End': 'kept',
      };
      get(`${url}/categories`, { headers, agent: false }, (res) =>
        res.resume().on('end', resolve),
      ).on('error', reject);
    });
    const [received] = target.state.received;
    expect(received?.url).toBe('/api/v1/categories');
    expect(received?.headers.authorization).toBe(TARGET_AUTH.Authorization);
    expect(received?.headers['x-end']).toBe('kept');
    expect(received?.headers['x-hop']).toBeUndefined();
  });

  it('adds itself to Via (RFC 9110 §7.6.3) on the forwarded request and on the answer, after those before it', async () => {
    const { url } = await proxy();
    const plain = await raw(`${url}/categories`);
    expect(plain.headers.via).toBe('1.1 petstore-kit');
    expect(target.state.received[0]?.headers.via).toBe('1.1 petstore-kit');
    await raw(`${url}/categories`, { ...TARGET_AUTH, Via: '1.0 corporate-proxy' });
    expect(target.state.received[1]?.headers.via).toBe('1.0 corporate-proxy, 1.1 petstore-kit');
    // The target's own Via is kept, the proxy's entry after it.
    expect((await raw(`${url}/hop`)).headers.via).toBe('1.1 backend-gateway, 1.1 petstore-kit');
  });

  it('drops the hop-by-hop fields of the answer and those its Connection names (RFC 9110 §7.6.1)', async () => {
    const { url } = await proxy();
    const direct = await raw(`${targetUrl}/hop`);
    // Sent by the target: the fields below are dropped by the proxy, not missing from the start.
    expect(direct.headers['x-hop-answer']).toBe('secret');
    expect(direct.headers['keep-alive']).toBe('timeout=77, max=9');
    const through = await raw(`${url}/hop`);
    expect(through.status).toBe(200);
    expect(through.headers['x-end-answer']).toBe('kept');
    expect(through.headers['x-hop-answer']).toBeUndefined();
    // The proxy's own connection to its client may have its own Keep-Alive, not the target's.
    expect(through.headers['keep-alive']).not.toBe('timeout=77, max=9');
    expect(String(through.headers.connection ?? '')).not.toMatch(/x-hop-answer/i);
  });

  it('finds no violation in a correct target', async () => {
    const { url, admin } = await proxy();
    expect((await raw(`${url}/categories`)).status).toBe(200);
    const created = await fetch(`${url}/categories`, {
      method: 'POST',
      headers: { ...TARGET_AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Ferret' }),
    });
    expect(created.status).toBe(201);
    expect(await violationsOf(admin)).toEqual({ count: 0, violations: [] });
  });
});

describe('petstore-kit proxy: violations', () => {
  const faults: [Fault, string][] = [
    ['wrong-status', 'status'],
    ['missing-field', 'body'],
    ['wrong-type', 'body'],
    ['wrong-content-type', 'content-type'],
    ['error-shape', 'error-shape'],
    ['error-status', 'error-shape'],
    ['duplicate-ids', 'duplicate-ids'],
  ];
  it.each(faults)(
    'lists a target answering with %s as a response violation (%s)',
    async (fault, rule) => {
      const { url, admin } = await proxy();
      target.state.fault = fault;
      const direct = await raw(`${targetUrl}/categories`);
      const through = await raw(`${url}/categories`);
      // Observed, never rewritten: the client gets the faulty answer as it was.
      expect(through.status).toBe(direct.status);
      expect(through.bytes.equals(direct.bytes)).toBe(true);
      const { count, violations } = await violationsAfter(admin, 1);
      expect(count).toBeGreaterThanOrEqual(1);
      // Each problem once, however many of the spec's schemas found it.
      const problems = violations.map((v) => `${v.side} ${v.rule} ${v.message}`);
      expect(new Set(problems).size).toBe(problems.length);
      expect(violations).toContainEqual({
        method: 'GET',
        path: '/v1/categories',
        status: direct.status,
        side: 'response',
        rule,
        message: expect.any(String),
        operation: 'listCategories',
      });
    },
  );

  it('lists a request missing a required field on the request side, and still forwards it', async () => {
    const { url, admin } = await proxy();
    const res = await fetch(`${url}/categories`, {
      method: 'POST',
      headers: { ...TARGET_AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ description: 'no name' }),
    });
    // The target's own answer, not the mock's.
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 'validation_failed', message: 'name', status: 400 });
    expect(target.state.received.map((r) => [r.method, r.body])).toEqual([
      ['POST', '{"description":"no name"}'],
    ]);
    const { violations } = await violationsAfter(admin, 1);
    expect(violations).toContainEqual(
      expect.objectContaining({
        side: 'request',
        rule: 'body',
        status: 400,
        message: expect.stringMatching(/name/),
      }),
    );
  });

  it("forwards a browser's CORS preflight without listing it: OPTIONS is every path's", async () => {
    const { url, admin } = await proxy();
    const res = await fetch(`${url}/categories`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://app.test', 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.status).toBe(401); // the target's own answer to a request without its credential
    expect(target.state.received.map((r) => r.method)).toEqual(['OPTIONS']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await violationsOf(admin)).count).toBe(0);
  });

  it('lists a request without its credential, whose value it never judges', async () => {
    const { url, admin } = await proxy();
    await raw(`${url}/categories`, {});
    await raw(`${url}/categories`, { Authorization: 'Bearer any-value-the-target-knows' });
    const { violations } = await violationsAfter(admin, 1);
    expect(violations.filter((v) => v.side === 'request').map((v) => [v.rule, v.status])).toEqual([
      ['credentials', 401],
    ]);
  });

  it('with enforce, answers a request that breaks the spec itself, and forwards nothing', async () => {
    const { url, admin } = await proxy({ enforce: true });
    const res = await fetch(`${url}/categories`, {
      method: 'POST',
      headers: { ...TARGET_AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({}),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(target.state.received).toEqual([]);
    expect((await violationsAfter(admin, 1)).count).toBe(1);
  });

  it('lists no violation for a query parameter the operation does not declare: OpenAPI does not forbid it (issue 44)', async () => {
    for (const enforce of [false, true]) {
      const { url, admin } = await proxy({ enforce });
      target.state.received = [];
      const res = await raw(`${url}/categories?gzip`);
      // Forwarded, with enforce too: the target's own (compressed) list.
      expect(res.status).toBe(200);
      expect(target.state.received.map((r) => r.url)).toEqual(['/api/v1/categories?gzip']);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await violationsOf(admin)).violations.filter((v) => v.side === 'request')).toEqual(
        [],
      );
    }
  });

  it('lists them for the admin key only, and clears them', async () => {
    const { url, admin } = await proxy();
    target.state.fault = 'duplicate-ids';
    await raw(`${url}/categories`);
    for (const headers of [{}, { Authorization: 'Bearer staging-token' }] as Record<
      string,
      string
    >[])
      expect((await fetch(`${admin}/violations`, { headers })).status).toBe(401);
    expect((await violationsAfter(admin, 1)).count).toBe(1);
    const cleared = await fetch(`${admin}/violations`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(cleared.status).toBe(204);
    expect(await violationsOf(admin)).toEqual({ count: 0, violations: [] });
  });
});

describe('petstore-kit proxy: a failing target', () => {
  it('answers 502 in the spec’s error shape when the target cannot be reached, and lists no violation', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { url, admin } = await proxy({ target: `http://127.0.0.1:${port}/api/v1` });
    const res = await fetch(`${url}/categories`, { headers: TARGET_AUTH });
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      code: 'bad_gateway',
      message: expect.any(String),
      status: 502,
    });
    expect((await violationsOf(admin)).count).toBe(0);
  });

  it('answers 502 in the spec’s error shape when the target resets the connection', async () => {
    const { url, admin } = await proxy();
    const res = await fetch(`${url}/categories`, { headers: { ...TARGET_AUTH, 'X-Reset': '1' } });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      code: 'bad_gateway',
      message: expect.any(String),
      status: 502,
    });
    expect((await violationsOf(admin)).count).toBe(0);
  });

  it('answers 504 when the target is slower than the target timeout', async () => {
    const silent = createServer(() => {}); // never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const { url, admin } = await proxy({
        target: `http://127.0.0.1:${port}`,
        targetTimeoutSeconds: 0.2,
      });
      const res = await fetch(`${url}/categories`, { headers: TARGET_AUTH });
      expect(res.status).toBe(504);
      expect(await res.json()).toEqual({
        code: 'gateway_timeout',
        message: expect.any(String),
        status: 504,
      });
      expect((await violationsOf(admin)).count).toBe(0);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('petstore-kit proxy: recording', () => {
  it('keeps what the target created, which `mock --data` then serves', async () => {
    const file = join(await tempFolder('record'), 'staging.json');
    const { url } = await proxy({ record: file });
    const made = [];
    for (const name of ['Ferret', 'Parrot']) {
      const res = await fetch(`${url}/categories`, {
        method: 'POST',
        headers: { ...TARGET_AUTH, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      made.push(await res.json());
    }
    // Closed first: the recording is the proxy's until it stops.
    await closeProxies();
    const mock = await startMock({ spec, data: file, apiKeys: ['k'] });
    try {
      const listed = await fetch(`${mock.url}/categories`, {
        headers: { Authorization: 'Bearer k' },
      });
      expect(await listed.json()).toEqual(made);
    } finally {
      mock.server.closeIdleConnections();
      await mock.close();
    }
  });
});

describe('petstore-kit proxy: recording replaces and deletes', () => {
  it('keeps a replaced record as the target answered it, and forgets a deleted one', async () => {
    const withItems = await editedSpec((document) => {
      const json = (ref: string) => ({
        'application/json': { schema: { $ref: `#/components/schemas/${ref}` } },
      });
      (document.paths as Record<string, unknown>)['/categories/{categoryId}'] = {
        parameters: [
          { name: 'categoryId', in: 'path', required: true, schema: { type: 'integer' } },
        ],
        put: {
          operationId: 'replaceCategory',
          requestBody: { required: true, content: json('NewCategory') },
          responses: { '200': { description: 'The category.', content: json('Category') } },
        },
        delete: {
          operationId: 'deleteCategory',
          responses: { '204': { description: 'Deleted.' } },
        },
      };
    });
    const file = join(await tempFolder('record'), 'staging.json');
    const { url, admin } = await proxy({ spec: withItems, record: file });
    const send = async (method: string, path: string, body?: object) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { ...TARGET_AUTH, 'Content-Type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return res.status === 204 ? undefined : ((await res.json()) as { id: number });
    };
    const ferret = await send('POST', '/categories', { name: 'Ferret' });
    const parrot = await send('POST', '/categories', { name: 'Parrot' });
    await send('PUT', `/categories/${parrot?.id}`, { name: 'Macaw' });
    await send('DELETE', `/categories/${ferret?.id}`);
    expect((await violationsOf(admin)).count).toBe(0);
    await closeProxies();

    const mock = await startMock({ spec: withItems, data: file, apiKeys: ['k'] });
    try {
      const listed = await fetch(`${mock.url}/categories`, {
        headers: { Authorization: 'Bearer k' },
      });
      expect(await listed.json()).toEqual([{ id: parrot?.id, name: 'Macaw' }]);
    } finally {
      mock.server.closeIdleConnections();
      await mock.close();
    }
  });
});

describe('petstore-kit proxy: the command', () => {
  const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));

  /** Runs the built `petstore-kit proxy`, makes one request through it, stops it with SIGTERM. */
  async function runThrough(fault: Fault): Promise<{ code: number | null; output: string }> {
    if (!existsSync(BIN)) throw new Error('dist/cli/bin.js is missing: run `npm run build`');
    target.state.fault = fault;
    const child = spawn(
      process.execPath,
      [BIN, 'proxy', '--port', '0', '--spec', spec.source, '--target', targetUrl].concat([
        '--api-key',
        ADMIN_KEY,
        '--fail-on-violation',
        '--log-format',
        'json',
      ]),
      { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const found = /listening on (http:\/\/\S+?)[",\s]/.exec(output)?.[1];
          if (found) resolve(found);
        });
        void exited.then((code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      await raw(`${url}/categories`);
      child.kill('SIGTERM');
      return { code: await exited, output };
    } finally {
      child.kill('SIGKILL');
    }
  }

  it('with --fail-on-violation, exits 1 after a violation, its summary line counting each rule', async () => {
    const { code, output } = await runThrough('duplicate-ids');
    expect(output).toMatch(
      /petstore-kit proxy stopped: 1 violation \(response\/duplicate-ids: 1\)/,
    );
    expect(code).toBe(1);
  });

  it('with --fail-on-violation, exits 0 when the target kept to the spec (in process, as bin.ts runs it)', async () => {
    target.state.fault = 'none';
    const proxy = await serveCli([
      ...['proxy', '--port', '0', '--spec', spec.source, '--target', targetUrl],
      ...['--api-key', ADMIN_KEY, '--fail-on-violation', '--log-format', 'json'],
    ]);
    await raw(`${proxy.url}/categories`);
    expect(await proxy.stop()).toBe(0);
    expect(proxy.output()).toMatch(/petstore-kit proxy stopped: no violations/);
  });
});
