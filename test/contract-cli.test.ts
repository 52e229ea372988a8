// `petstore-kit contract` end to end: the built CLI runs the suite in vitest against
// servers started here, and its exit code says whether they conform.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contractRules } from '../contract-tests/rules.js';
import { loadContractSpec } from '../contract-tests/spec.js';
import { createApp } from '../src/wiring/create-app.js';
import { loadSpec } from '../src/openapi/load.js';
import type { Store } from '../src/store/store.js';
import { categoriesServer } from './fixtures/categories-server.js';
import { categoryStore, storedCategories } from './helpers.js';

const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));
const TLS = fileURLToPath(new URL('./fixtures/tls/', import.meta.url));
const KEY = 'cli-key';
/** Generated bodies per run: enough to run both generated rules, few enough to be quick. */
const BUDGET = '10';
const servers: Server[] = [];
let ruleCount: number;
let creatingRuleCount: number;
let closedPort: number;

/** Serves an app on a free port, over HTTPS with the test CA's certificate when `tls` is set. */
async function serve(
  app: Express,
  options: { tls?: boolean; path?: string } = {},
): Promise<string> {
  const server = options.tls
    ? createHttpsServer(
        { cert: readFileSync(join(TLS, 'server.pem')), key: readFileSync(join(TLS, 'server.key')) },
        app,
      )
    : createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}${options.path ?? '/v1'}`;
}

async function mock(store: Store = categoryStore()): Promise<string> {
  return serve(express().use(createApp({ spec: await loadSpec(), apiKeys: [KEY], store })));
}

function contract(
  args: string[],
  env: Record<string, string> = {},
  cwd = process.cwd(),
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'contract', ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', CONTRACT_BUDGET: BUDGET, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

beforeAll(async () => {
  if (!existsSync(BIN))
    throw new Error('dist/cli/bin.js is missing: run `npm run build` (npm test does)');
  const rules = contractRules(await loadContractSpec(), {
    namePrefix: 'x',
    apiKey: KEY,
    seed: 1,
    budget: Number(BUDGET),
  });
  ruleCount = rules.length;
  creatingRuleCount = rules.filter((rule) => rule.createsData).length;
  // A port that was free a moment ago: nothing answers there.
  const probe = await serve(categoriesServer({ apiKey: KEY }));
  closedPort = Number(new URL(probe).port);
  const server = servers.pop()!;
  await new Promise((resolve) => server.close(resolve));
});

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('petstore-kit contract', () => {
  it('exits 0 against our mock, from BASE_URL and API_KEY, and writes a JUnit report', async () => {
    const baseUrl = await mock();
    const report = join(await mkdtemp(join(tmpdir(), 'petstore-kit-junit-')), 'contract.xml');
    const run = await contract(['--reporter', 'junit', '--output', report], {
      BASE_URL: baseUrl,
      API_KEY: KEY,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`conforms: ${ruleCount} rules passed, 0 failed, 0 skipped`);
    const xml = await readFile(report, 'utf8');
    expect(xml).toContain(`<testsuites name="vitest tests" tests="${ruleCount}" failures="0"`);
    expect(xml).toContain(
      'createCategory rule 1: a body without `name` gets 400 with an Error body',
    );
  });

  it('writes the JUnit report where a relative --output points, advisories as warnings in it', async () => {
    // The fixture's 401 answers carry no WWW-Authenticate header: HTTP asks for one, the
    // interface does not promise it. A warning (console, JUnit, GitHub), never a failure.
    const dir = await mkdtemp(join(tmpdir(), 'petstore-kit-cwd-'));
    const run = await contract(
      ['--reporter', 'junit', '--output', 'reports/contract.xml'],
      {
        BASE_URL: await serve(categoriesServer({ apiKey: KEY })),
        API_KEY: KEY,
        GITHUB_ACTIONS: 'true',
      },
      dir,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /Advisories:.*\n {2}warning: 401 answers carry no WWW-Authenticate header.* \(\d+ rules\)/,
    );
    expect(run.stdout).toContain('::warning title=contract advisory::401 answers carry no');
    expect(await readFile(join(dir, 'reports', 'contract.xml'), 'utf8')).toMatch(
      /<property name="warning" value="401 answers carry no WWW-Authenticate header/,
    );
  });

  it('exits 1 against a faulty server, naming the violated rule, the seed and a shrunk counterexample', async () => {
    // Two defects: 400 before 401, and markup stripped, which only generated bodies meet.
    const baseUrl = await serve(
      categoriesServer({
        apiKey: KEY,
        validateBeforeAuth: true,
        transformText: (text) => text.replace(/[<>]/g, ''),
      }),
    );
    const run = await contract(
      ['--base-url', baseUrl, '--api-key', KEY, '--seed', '7', '--budget', '100'],
      {
        GITHUB_ACTIONS: 'true',
      },
    );
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain(
      'createCategory rule 3: a missing credential gets 401 even with malformed JSON',
    );
    expect(run.stderr).toMatch(/does NOT conform: \d+ rules passed, [1-9]\d* failed/);
    expect(run.stdout).toContain(
      'petstore-kit contract: 100 generated cases, seed 7 (replay: --seed 7 --budget 100)',
    );
    expect(run.stdout + run.stderr).toMatch(
      /generated body \d+ of 50 broke the rule \(seed 7\); shrunk in \d+ steps to:\n {2}\{"name":"[<>]"\}/,
    );
    // Under GitHub Actions, each failure is an annotation too.
    expect(run.stdout).toContain(
      '::error title=createCategory rule 3%3A a missing credential gets 401 even with malformed JSON::expected status 401, got 400%0A',
    );
  });

  it('exits 2 with a hint when every operation answers 404 (a base URL without /v1)', async () => {
    const root = await serve(categoriesServer({ apiKey: KEY }), { path: '' });
    const run = await contract(['--base-url', root, '--api-key', KEY]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `petstore-kit contract: every operation of the interface answers 404 at ${root}: is the base path right? The interface is served under /v1: try ${root}/v1`,
    );
  });

  it("exits 2, not 1, when the target stays rate-limited past the suite's bounds", async () => {
    const baseUrl = await serve(
      categoriesServer({ apiKey: KEY, limiter: { status: 429, requests: 5, retryAfter: 120 } }),
    );
    const run = await contract(['--base-url', baseUrl, '--api-key', KEY]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /could not judge: \d+ rules passed, 0 failed, 0 skipped, [1-9]\d* could not be judged .*429 asks to wait 120 s, past the suite's 30 s of waiting per request/,
    );
  });

  it('exits 2 when nothing answers within --timeout', async () => {
    const silent = createServer(() => {});
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
    const run = await contract(['--base-url', baseUrl, '--api-key', KEY, '--timeout', '300']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `petstore-kit contract: cannot reach ${baseUrl} (no answer within 300 ms)`,
    );
  });

  it('reaches HTTPS of a private CA (NODE_EXTRA_CA_CERTS) through a proxy (HTTPS_PROXY)', async () => {
    const baseUrl = await serve(categoriesServer({ apiKey: KEY }), { tls: true });
    const tunnels: string[] = [];
    const proxy = createServer();
    proxy.on('connect', (req, client, head) => {
      tunnels.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    servers.push(proxy);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const run = await contract(['--base-url', baseUrl, '--api-key', KEY], {
      NODE_EXTRA_CA_CERTS: join(TLS, 'ca.pem'),
      HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(new Set(tunnels)).toEqual(new Set([new URL(baseUrl).host]));
  });

  it('names the private-CA remedy when the certificate is not trusted', async () => {
    const baseUrl = await serve(categoriesServer({ apiKey: KEY }), { tls: true });
    const run = await contract(['--base-url', baseUrl, '--api-key', KEY]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `petstore-kit contract: cannot reach ${baseUrl} (UNABLE_TO_VERIFY_LEAF_SIGNATURE: a private CA? set NODE_EXTRA_CA_CERTS to its PEM file)`,
    );
  });

  it('creates nothing with --read-only, and skips the rules that would', async () => {
    const store = categoryStore();
    const run = await contract(['--base-url', await mock(store), '--read-only'], { API_KEY: KEY });
    expect(run.code, run.stderr).toBe(0);
    expect(creatingRuleCount).toBeGreaterThan(0);
    expect(run.stdout).toContain(
      `conforms: ${ruleCount - creatingRuleCount} rules passed, 0 failed, ${creatingRuleCount} skipped`,
    );
    expect(await storedCategories(store)).toEqual([]);
  });

  it('exits 2 with one line for an unreachable target', async () => {
    const run = await contract([
      '--base-url',
      `http://127.0.0.1:${closedPort}/v1`,
      '--api-key',
      KEY,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `petstore-kit contract: cannot reach http://127.0.0.1:${closedPort}/v1 (ECONNREFUSED)`,
    );
  });

  it.each([
    { why: 'no API key', args: ['--base-url', 'http://127.0.0.1:9/v1'], says: /no API key/ },
    { why: 'no target', args: ['--api-key', KEY], says: /no target/ },
    {
      why: 'a base URL that is not one',
      args: ['--base-url', 'staging', '--api-key', KEY],
      says: /not a URL/,
    },
    {
      why: 'JUnit without a file',
      args: ['--base-url', 'http://127.0.0.1:9/v1', '--api-key', KEY, '--reporter', 'junit'],
      says: /needs --output/,
    },
    {
      why: 'both --base-url and --server',
      args: ['--base-url', 'http://a/v1', '--server', 'staging', '--api-key', KEY],
      says: /not both/,
    },
  ])('exits 2 with one line for $why', async ({ args, says }) => {
    const run = await contract(args);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(says);
  });

  it('names the servers the spec has when --server names none of them', async () => {
    const run = await contract(['--server', 'qa', '--api-key', KEY]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'petstore-kit contract: the spec has no server "qa" (it has: production, staging)',
    );
  });

  it("takes the base URL from the spec's servers with --server and --server-variable", async () => {
    const host = `127.0.0.1:${closedPort}`;
    const run = await contract([
      '--server',
      'staging',
      '--server-variable',
      `host=${host}`,
      '--api-key',
      KEY,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`cannot reach https://${host}/v1`);
  });
});
