// `petstore-kit contract` end to end: the command runs the suite against servers started here,
// in process as bin.ts runs it, and its exit code says whether they conform. The built CLI is
// started only for what a process alone shows: its working folder, and the variables Node and
// its HTTP client read at start (NODE_EXTRA_CA_CERTS, HTTPS_PROXY).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contractRules } from '../contract-tests/rules.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { preflight } from '../src/cli/contract-preflight.js';
import { createApp } from '../src/wiring/create-app.js';
import { loadSpec } from '../src/openapi/load.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import type { Store } from '../src/store/store.js';
import { categoriesServer } from './fixtures/categories-server.js';
import { KEYS, withKeySchemes } from './fixtures/library-keys.js';
import { libraryServer } from './fixtures/library-server.js';
import { categoryStore, storedCategories } from './helpers.js';
import { runContractCli, serveOnFreePort, type CliRun } from './contract-helpers.js';
import { tempFolder } from './temp-folders.js';

const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));
const TLS = fileURLToPath(new URL('./fixtures/tls/', import.meta.url));
const LIBRARY = fileURLToPath(new URL('./fixtures/specs/library.yaml', import.meta.url));
/** The start of colour and cursor escape sequences: none in a piped run. */
const ANSI = '\u001b[';
const KEY = 'cli-key';
/** Generated bodies per run: enough to run both generated rules, few enough to be quick. */
const BUDGET = '10';
const servers: Server[] = [];
let ruleCount: number;
let creatingRuleCount: number;
let closedPort: number;

/** Serves an app on a free port, stopped after the test. */
async function serve(
  app: Express,
  options: { tls?: boolean; path?: string } = {},
): Promise<string> {
  const served = await serveOnFreePort(app, options);
  servers.push(served.server);
  return served.url;
}

async function mock(store: Store = categoryStore()): Promise<string> {
  return serve(express().use(createApp({ spec: await loadSpec(), apiKeys: [KEY], store })));
}

/** The command in process, with a small budget of generated bodies unless `env` says otherwise. */
function contract(args: string[], env: Record<string, string> = {}) {
  return runContractCli(args, { CONTRACT_BUDGET: BUDGET, ...env });
}

/** The built CLI's `contract` in a process of its own, in `cwd`, with PATH and `env` alone. */
function builtContract(args: string[], env: Record<string, string>, cwd: string): Promise<CliRun> {
  if (!existsSync(BIN))
    throw new Error('dist/cli/bin.js is missing: run `npm run build` (npm test does)');
  const child = spawn(process.execPath, [BIN, 'contract', ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', CONTRACT_BUDGET: BUDGET, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })),
  );
}

beforeAll(async () => {
  const rules = contractRules(buildContractPlan((await loadSpec()).resolved), {
    namePrefix: 'x',
    credentials: { token: KEY },
    refusedSchemes: {},
    seed: 1,
    budget: Number(BUDGET),
    replay: '',
    ruleTimeMs: 60_000,
  });
  ruleCount = rules.length;
  creatingRuleCount = rules.filter((rule) => rule.createsData).length;
  // A port that was free a moment ago: nothing answers there.
  const probe = await serve(categoriesServer({ apiKey: KEY }));
  closedPort = Number(new URL(probe).port);
  const server = servers.pop()!;
  await new Promise((resolve) => server.close(resolve));
});

const mocks: RunningMock[] = [];

afterEach(async () => {
  for (const running of mocks.splice(0)) await running.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

// A test runs the whole suite, a few of them in a child process: 12 s on a quiet machine, over
// the 20 s default at a load of 16. A bound a busy machine cannot miss.
describe('petstore-kit contract', { timeout: 120_000 }, () => {
  it('exits 0 against our mock, from BASE_URL and API_KEY, and writes a JUnit report', async () => {
    const baseUrl = await mock();
    const report = join(await tempFolder('junit'), 'contract.xml');
    const run = await contract(['--reporter', 'junit', '--output', report], {
      BASE_URL: baseUrl,
      API_KEY: KEY,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`conforms: ${ruleCount} rules passed, 0 failed, 0 skipped`);
    expect(run.stdout + run.stderr).not.toContain(ANSI);
    const xml = await readFile(report, 'utf8');
    expect(xml).toContain(
      `<testsuites name="petstore-kit contract" tests="${ruleCount}" failures="0"`,
    );
    expect(xml).toContain(
      'createCategory rule 1: a body without `name` gets 400 with an Error body',
    );
    // The report alone tells how to run it again: seed, base URL, replay command.
    expect(xml).toMatch(/<property name="seed" value="\d+"\/>/);
    expect(xml).toContain(`<property name="base_url" value="${baseUrl}"/>`);
    expect(xml).toMatch(
      new RegExp(
        `<property name="replay" value="petstore-kit contract --base-url ${baseUrl.replace(/[.]/g, '\\.')} --seed \\d+ --budget ${BUDGET}"/>`,
      ),
    );
  });

  it('judges a deployment still warming up once it is up (503 with Retry-After first), reached over HTTPS of a private CA (NODE_EXTRA_CA_CERTS) through a proxy (HTTPS_PROXY), and writes the JUnit report where a relative --output points, advisories as warnings in it', async () => {
    // The fixture's 401 answers carry no WWW-Authenticate header: HTTP asks for one, the
    // interface does not promise it. A warning (console, JUnit, GitHub), never a failure.
    // One run for all: the working folder and what Node reads at start need the built CLI, and
    // each run of it costs seconds of CPU to start its suite.
    const baseUrl = await serve(categoriesServer({ apiKey: KEY, warming: 1 }), { tls: true });
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
    const dir = await tempFolder('cwd');
    const run = await builtContract(
      ['--reporter', 'junit', '--output', 'reports/contract.xml'],
      {
        BASE_URL: baseUrl,
        API_KEY: KEY,
        GITHUB_ACTIONS: 'true',
        NODE_EXTRA_CA_CERTS: join(TLS, 'ca.pem'),
        HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      },
      dir,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(new Set(tunnels)).toEqual(new Set([new URL(baseUrl).host]));
    expect(run.stdout).toMatch(
      /Advisories:.*\n {2}warning: 401 answers carry no WWW-Authenticate header.* \(\d+ rules\)/,
    );
    expect(run.stdout).toContain('::warning title=contract advisory::401 answers carry no');
    expect(await readFile(join(dir, 'reports', 'contract.xml'), 'utf8')).toMatch(
      /<property name="warning" value="401 answers carry no WWW-Authenticate header/,
    );
  });

  it('exits 1 against a faulty server, saying first what is wrong, then each kind of failure with its evidence and the replay command', async () => {
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
    // One finding each: the wrong-credential probes carry bodies that change nothing (one invalid
    // field), so a deployment that reads the body first answers them 400 too, under one cause.
    expect(run.stdout.split('\n')[0]).toMatch(
      /^petstore-kit contract: does NOT conform: \d+ of \d+ rules fail, in 2 ways; the commonest \(\d+ rules\): 400 answers where the spec wants 401$/,
    );
    expect(run.stdout).toMatch(
      /\nFAIL {2}\d+ rules: 400 answers where the spec wants 401\n {6}breaks: #\/components\/securitySchemes\/\w+\n/,
    );
    expect(run.stdout).toMatch(
      /\n {6}createCategory rule 3: a missing credential gets 401 with an Error body\n/,
    );
    expect(run.stdout).toMatch(
      /\nFAIL {2}1 rule: sent values answered altered\n {6}createCategory rule 4: generated valid bodies/,
    );
    expect(run.stdout).toMatch(
      /generated body \d+ of 50 broke the rule \(seed 7\); shrunk in \d+ steps to:\n {8}\{"name":"[<>]"\}/,
    );
    expect(run.stdout).toContain(
      `Replay: petstore-kit contract --base-url ${baseUrl} --seed 7 --budget 100   (credentials from API_KEY, as in this run)`,
    );
    expect(run.stdout.split('\n')[1]).toMatch(/^\d+ rules passed, \d+ failed/);
    // The verdict opens the report, and stderr repeats it for logs that keep it apart.
    expect(run.stderr.trim()).toBe(run.stdout.split('\n')[0]);
    expect(run.stdout + run.stderr).not.toContain(ANSI);
    // Under GitHub Actions, each failure is an annotation too.
    expect(run.stdout).toContain(
      '::error title=createCategory rule 3%3A a missing credential gets 401 even with malformed JSON::400 answers where the spec wants 401%0Asent no credential and malformed JSON: expected status 401, got 400%0A',
    );
  });

  it('checks another spec with --spec: passes against the mock serving it, and fails a faulty deployment of it', async () => {
    const mock = await startMock({
      spec: LIBRARY,
      apiKeys: [KEY],
      seedCount: 3,
      port: 0,
      logRequests: false,
    });
    mocks.push(mock);
    const passed = await contract(['--spec', LIBRARY, '--base-url', mock.url, '--api-key', KEY]);
    expect(passed.code, passed.stdout + passed.stderr).toBe(0);
    expect(passed.stdout).toMatch(/conforms: \d{3} rules passed, 0 failed, 0 skipped/);

    const faulty = await serve(libraryServer({ apiKey: KEY, deleteKeepsAuthor: true }), {
      path: '/api',
    });
    const failed = await contract([
      '--spec',
      LIBRARY,
      '--base-url',
      faulty,
      '--api-key',
      KEY,
      '--seed',
      '3',
      '--budget',
      '100',
    ]);
    expect(failed.code).toBe(1);
    expect(failed.stdout.split('\n')[0]).toMatch(
      /^petstore-kit contract: does NOT conform: 1 of \d+ rules fails: 200 answers where the spec wants 404$/,
    );
    expect(failed.stdout).toContain('deleteAuthor: a deleted record is gone');
    expect(failed.stdout).toContain(
      `Replay: petstore-kit contract --spec ${LIBRARY} --base-url ${faulty} --seed 3 --budget 100`,
    );
    // Two whole runs of the CLI: on a busy machine, well over 20 s.
  }, 180_000);

  it('exits 2 with one line when the key is refused for every operation: a rotated key is not a violation', async () => {
    const baseUrl = await serve(categoriesServer({ apiKey: KEY }));
    const run = await contract(['--base-url', baseUrl, '--api-key', 'a-rotated-key']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'petstore-kit contract: the key is refused by the target: check API_KEY (every operation answers 401 to it)\n',
    );
  });

  it.each([
    { why: 'an unknown reporter', args: ['--reporter', 'xml'], says: /argument 'xml' is invalid/ },
    { why: 'a negative budget', args: ['--budget', '-1'], says: /argument '-1' is invalid/ },
    {
      why: 'an unknown option',
      args: ['--spek', 'x.yaml'],
      says: /unknown option '--spek' \(Did you mean --spec\?\)/,
    },
    {
      why: 'a spec that is not there',
      args: ['--spec', 'nowhere.yaml'],
      says: /cannot read the spec at nowhere\.yaml/,
    },
    {
      why: 'basic credentials without a colon',
      args: ['--basic', 'ada'],
      says: /--basic takes user:password/,
    },
  ])('exits 2 with one line for $why, before any request', async ({ args, says }) => {
    const run = await contract([
      '--base-url',
      `http://127.0.0.1:${closedPort}/v1`,
      '--api-key',
      KEY,
      ...args,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^petstore-kit contract: /);
    expect(run.stderr).toMatch(says);
  });

  it('stops at the first sign of an unavailable target: Retry-After honoured once, then one line', async () => {
    let requests = 0;
    const down = createServer((_req, res) => {
      requests += 1;
      // The shortest wait a Retry-After can ask for: honoured once all the same.
      res.writeHead(503, { 'Retry-After': '0', 'Content-Type': 'application/json' });
      res.end('{"code":"unavailable","message":"Down for maintenance","status":503}');
    });
    servers.push(down);
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}/v1`;
    const run = await contract(['--base-url', baseUrl, '--api-key', KEY]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `petstore-kit contract: the target is unavailable: GET ${baseUrl} answers 503 (Retry-After: 0) after the wait it asked for\n`,
    );
    expect(requests).toBe(2);
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
    expect(run.stdout.split('\n')[0]).toMatch(
      /^petstore-kit contract: could not judge [1-9]\d* of \d+ rules: .*429 asks to wait 120 s, past the suite's 30 s of waiting per request/,
    );
    expect(run.stdout.split('\n')[1]).toMatch(
      /^\d+ rules passed, 0 failed, 0 skipped, [1-9]\d* could not be judged against /,
    );
    expect(run.stderr.trim()).toBe(run.stdout.split('\n')[0]);
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
    // Those that write, and those that send an unsafe method the target must refuse.
    const counts = /conforms: (\d+) rules passed, 0 failed, (\d+) skipped/.exec(run.stdout);
    expect(counts, run.stdout).not.toBeNull();
    expect(Number(counts![1]) + Number(counts![2])).toBe(ruleCount);
    expect(Number(counts![2])).toBeGreaterThanOrEqual(creatingRuleCount);
    expect(run.stdout).toContain('SKIPPED');
    expect(run.stdout).toContain('not judged: --read-only');
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
    {
      why: 'no API key',
      args: ['--base-url', 'http://127.0.0.1:9/v1'],
      says: /^petstore-kit contract: no API key: give --api-key or set API_KEY\n/,
    },
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

describe('the pre-flight', () => {
  it('tries each scheme, and sets aside one whose credential every operation refuses while another works', async () => {
    const plan = buildContractPlan(withKeySchemes((await loadSpec(LIBRARY)).resolved));
    const baseUrl = await serve(libraryServer({ apiKey: KEY, ...KEYS }), { path: '/api' });
    const hint = () => '';
    const wrongPassword = await preflight(plan, baseUrl, {
      credentials: { token: KEY, basic: 'ada:an-old-password' },
      timeoutMs: 5000,
      hint,
    });
    expect(wrongPassword.refusedSchemes).toEqual({
      basic: expect.stringMatching(
        /^the target refused the credential given for it \(401(, 401)*\) on every operation the suite tried it on$/,
      ),
    });
    const right = await preflight(plan, baseUrl, {
      credentials: { token: KEY, basic: 'ada:s3cret' },
      timeoutMs: 5000,
      hint,
    });
    expect(right.refusedSchemes).toEqual({});
    await expect(
      preflight(plan, baseUrl, {
        credentials: { token: 'old', basic: 'ada:old' },
        timeoutMs: 5000,
        hint,
      }),
    ).rejects.toThrow(
      'the key and the user and password are refused by the target: check API_KEY and BASIC_AUTH (every operation answers 401 to it)',
    );
  });
});
