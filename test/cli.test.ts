import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { largeDocument, runCliWith, serveCli, type ServingCli } from './helpers.js';
import { ownConnections } from './own-connections.js';
import { tempFolder } from './temp-folders.js';

// What the CLI says and decides is checked in process (src/cli/run.ts, as bin.ts runs it). The
// built CLI, as `npm start` and users run it (`npm test` builds first), is started only for
// what a process alone shows: the bin itself, signals, kill -9, the time zone.
const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));
const SECURITY = fileURLToPath(new URL('./fixtures/specs/security.yaml', import.meta.url));

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

const children: ChildProcess[] = [];
const serving: ServingCli[] = [];
const { closeConnections } = ownConnections();

/** The mock run in process with these flags (and `--port 0`), stopped after the test. */
async function serveMock(args: string[], env: Record<string, string> = {}): Promise<ServingCli> {
  const mock = await serveCli(['mock', '--port', '0', ...args], env);
  serving.push(mock);
  return mock;
}

/** What a refused `petstore-kit mock` run in process printed, one stream after the other. */
async function refusedMock(args: string[], env: Record<string, string> = {}) {
  const { out, err, code } = await runCliWith(['mock', ...args], env);
  return { code, output: out + err };
}

function run(args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

function collect(child: ChildProcess): () => string {
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

function start(args: string[], env: Record<string, string> = {}): Promise<Started> {
  const child = run(['mock', '--port', '0', ...args], env);
  const output = collect(child);
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', () => {
      const url = /listening on (http:\/\/\S+?)["\s)]/.exec(output())?.[1];
      if (url) resolve({ child, url, output });
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output()}`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function get(url: string, key: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}/categories`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.json() };
}

/**
 * A request whose body stops half-way: authorized, so that the mock waits for the rest. It asks
 * `Expect: 100-continue`, and the mock's `100 Continue` says the request is in its hands: the
 * fixed pause it replaces (100 ms) bet that a busy machine let the mock read it by then.
 */
async function halfSentRequest(url: string): Promise<Socket> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const told = new Promise<Buffer>((resolve) => socket.once('data', resolve));
  socket.write(
    'POST /v1/categories HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer petstore-kit-dev-key\r\n' +
      'Content-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n',
  );
  expect((await told).toString()).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
  socket.write('{"na');
  return socket;
}

beforeAll(() => {
  if (!existsSync(BIN))
    throw new Error('dist/cli/bin.js is missing: run `npm run build` (npm test does)');
});

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await closeConnections();
  await Promise.all(serving.splice(0).map((mock) => mock.stop()));
});

// Each test starts the built CLI up to three times: on a loaded two-core machine one start can
// take several seconds, so the bound is generous.
describe('petstore-kit mock', { timeout: 60_000 }, () => {
  // Each start of the built CLI costs about a second of CPU: a test that starts one checks
  // all it can of it (the start-up, the log, the stop).
  it('starts with seeded categories and the documented default key, printed at start-up, and logs one line per request with method, path, status and duration', async () => {
    const { url, output } = await serveMock([]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(output()).toContain('petstore-kit-dev-key');
    const res = await get(url, 'petstore-kit-dev-key');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(10);
    await expect
      .poll(output, { timeout: 10_000 })
      .toMatch(/"method":"GET","path":"\/v1\/categories","status":200,"ms":[\d.]+/);
  });

  it('takes keys, seed count and host from flags; the default key is then refused; stops cleanly with exit 0', async () => {
    const { url, output, stop } = await serveMock([
      '--api-key',
      'one',
      '-k',
      'two',
      '--seed-count',
      '3',
      '--host',
      '127.0.0.1',
    ]);
    expect((await get(url, 'one')).body).toHaveLength(3);
    expect((await get(url, 'two')).status).toBe(200);
    expect((await get(url, 'petstore-kit-dev-key')).status).toBe(401);
    expect(output()).not.toMatch(/one|two/);
    await closeConnections();
    expect(await stop()).toBe(0);
  });

  it('takes PORT, HOST and API_KEYS (comma-separated) from the environment', async () => {
    const { url } = await serveMock([], {
      PORT: '0',
      HOST: '127.0.0.1',
      API_KEYS: 'alpha, beta',
    });
    expect((await get(url, 'beta')).status).toBe(200);
    expect((await get(url, 'alpha')).status).toBe(200);
    expect((await get(url, 'petstore-kit-dev-key')).status).toBe(401);
  });

  it('a flag given outranks its variable, a repeatable one too', async () => {
    // serveMock gives --port 0: a PORT the mock would refuse is not read.
    const { url } = await serveMock(['--api-key', 'from-flag'], {
      API_KEYS: 'from-env',
      PORT: 'abc',
    });
    expect((await get(url, 'from-flag')).status).toBe(200);
    expect((await get(url, 'from-env')).status).toBe(401);
  });

  it('gives the same seeded data for the same --seed in every time zone (dates and times included), other data for another seed; --quiet logs no request; stops cleanly on SIGINT', async () => {
    const library = fileURLToPath(new URL('./fixtures/specs/library.yaml', import.meta.url));
    const args = ['--spec', library, '--quiet'];
    // TZ is read once per process: two zones far apart in processes of their own, the worker's
    // own zone and the other seed in process.
    const zones = ['Pacific/Kiritimati', 'America/Adak'];
    const [inProcess, otherSeed, ...mocks] = await Promise.all([
      serveMock([...args, '--seed', '5']),
      serveMock([...args, '--seed', '6']),
      ...zones.map((zone) => start([...args, '--seed', '5'], { TZ: zone })),
    ]);
    const authors = await Promise.all(
      [inProcess!, ...mocks, otherSeed!].map(async ({ url }) => {
        const res = await fetch(`${url}/authors`, {
          headers: { Authorization: 'Bearer petstore-kit-dev-key' },
        });
        return (await res.json()) as { createdAt: string }[];
      }),
    );
    expect(authors[0]![0]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(authors[1]).toEqual(authors[0]);
    expect(authors[2]).toEqual(authors[0]);
    expect(authors[3]).not.toEqual(authors[0]);
    // Each was asked once: with --quiet, not one line of it is logged.
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const { output } of mocks) expect(output()).not.toContain('"path"');
    mocks[0]!.child.kill('SIGINT');
    expect(await exited(mocks[0]!.child)).toBe(0);
  });

  it.each([
    { args: ['--port', 'abc'], message: /--port.*whole number/ },
    { args: ['--port', '70000'], message: /--port.*0 to 65535/ },
    { args: ['--seed-count', '-1'], message: /--seed-count.*0 or more/ },
    {
      args: ['--spec', '/nonexistent.yaml'],
      message: /^petstore-kit: cannot read the spec at \/nonexistent\.yaml/m,
    },
    { args: ['--bogus'], message: /unknown option '--bogus'/ },
    { args: ['--delay', '400-100'], message: /--delay.*range/ },
    { args: ['--fault-rate', '2'], message: /--fault-rate.*from 0 to 1/ },
    { args: ['--fault-kinds', 'reset,boom'], message: /--fault-kinds.*reset, timeout, malformed/ },
    { args: ['--stability', 'alpha'], message: /--stability.*experimental, beta, stable/ },
    {
      args: ['--cors-origin', 'localhost:5173'],
      message: /CORS origin "localhost:5173" is not an origin/,
    },
    { args: ['--request-timeout', '-1'], message: /--request-timeout.*seconds/ },
    { args: ['--basic', 'alice'], message: /--basic.*user:password/ },
    {
      args: ['--spec', SECURITY, '--api-key', 'basicAuth=abc'],
      message: /^petstore-kit: security scheme basicAuth is HTTP basic/m,
    },
  ])('stops with one clear line and a non-zero exit for $args', async ({ args, message }) => {
    const { code, output } = await refusedMock(args);
    expect(code).not.toBe(0);
    expect(output).toMatch(message);
    expect(output.trim().split('\n')).toHaveLength(1);
  });

  it('the built CLI stops with its one line and exit code 1 for a refused option', async () => {
    const child = run(['mock', '--port', 'abc']);
    const output = collect(child);
    expect(await exited(child)).toBe(1);
    expect(output().trim()).toMatch(/^petstore-kit: .*--port.*whole number/);
  });

  it('stops on SIGTERM even while a client holds a request half-sent', async () => {
    // The shortest shutdown timeout it takes: only that bound can end the half-sent request.
    const { child, url } = await start(['--shutdown-timeout', '0.001']);
    const socket = await halfSentRequest(url);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    socket.destroy();
  });

  it('given a large document, starts itself again in its own process with the young generation and the malloc arenas bounded (where Node can), serves it and stops cleanly on SIGTERM', async () => {
    const spec = await largeDocument();
    const { child, url, output } = await start(['--spec', spec, '--quiet']);
    const commandLine = await readFile(`/proc/${child.pid}/cmdline`, 'utf8').catch(() => '');
    const canRelaunch = typeof (process as { execve?: unknown }).execve === 'function';
    const environment = await readFile(`/proc/${child.pid}/environ`, 'utf8').catch(() => '');
    if (process.platform === 'linux') {
      expect(commandLine.split('\0').includes('--max-semi-space-size=8')).toBe(canRelaunch);
      expect(environment.split('\0').includes('MALLOC_ARENA_MAX=2')).toBe(canRelaunch);
    }
    const res = await fetch(`${url}/items`, {
      headers: { Authorization: 'Bearer petstore-kit-dev-key' },
    });
    expect(res.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(output()).toMatch(/listening on/);
  });

  it('stops on SIGTERM within its shutdown timeout while a request asks for a value a schema makes huge, and answered it meanwhile', async () => {
    // OpenAI's description: a 70 MB maxLength filled at random blocked the event loop for
    // ever (SIGTERM did nothing; only SIGKILL stopped it). Every value is bounded now.
    const dir = await tempFolder('huge');
    const spec = join(dir, 'openapi.json');
    const payload = {
      type: 'object',
      required: ['id', 'data'],
      properties: {
        id: { type: 'string' },
        data: { type: 'string', minLength: 1, maxLength: 70_254_592 },
        chunks: {
          type: 'array',
          maxItems: 10_000_000,
          items: { type: 'string', maxLength: 10_485_760 },
        },
      },
    };
    await writeFile(
      spec,
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'huge', version: '1' },
        paths: {
          '/skills/{id}': {
            get: {
              operationId: 'getSkill',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              responses: {
                '200': { description: 'ok', content: { 'application/json': { schema: payload } } },
              },
            },
          },
        },
      }),
    );
    const { child, url } = await start(['--spec', spec, '--quiet', '--shutdown-timeout', '5']);
    // Answered, and small: it never was, before.
    const first = await fetch(`${url}/skills/s1`);
    expect(first.status).toBe(200);
    expect((await first.arrayBuffer()).byteLength).toBeLessThan(1_000_000);
    // Another such request in flight (or not yet arrived: either way) when the signal comes.
    const second = fetch(`${url}/skills/s2`).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const signalled = performance.now();
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    // The shutdown timeout, and as much again for a busy machine.
    expect(performance.now() - signalled).toBeLessThan(10_000);
    await second;
  });

  it('--data keeps every acknowledged write across kill -9', async () => {
    const dir = await tempFolder('data');
    const data = join(dir, 'mock.jsonl');
    const key = 'petstore-kit-dev-key';
    const first = await start(['--data', data, '--quiet']);
    const acknowledged: unknown[] = [];
    await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const res = await fetch(`${first.url}/categories`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `Acked ${i}` }),
        });
        if (res.status === 201) acknowledged.push(await res.json());
      }),
    );
    const before = (await get(first.url, key)).body;
    first.child.kill('SIGKILL');
    await exited(first.child);

    const second = await serveMock(['--data', data, '--quiet']);
    const after = (await get(second.url, key)).body as unknown[];
    expect(acknowledged).toHaveLength(30);
    expect(after).toEqual(before);
    for (const created of acknowledged) expect(after).toContainEqual(created);
  });

  it('--data refuses, in one line, a data file another mock holds', async () => {
    const data = join(await tempFolder('data'), 'mock.jsonl');
    await serveMock(['--data', data, '--quiet']);
    const { code, output } = await refusedMock(['--port', '0', '--data', data]);
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toMatch(/in use by another petstore-kit mock/);
  });

  it('--data refuses, in one line, a data file another mock process holds through a hard link, naming that process', async () => {
    const dir = await tempFolder('data');
    const first = await start(['--data', join(dir, 'mock.jsonl'), '--quiet']);
    await link(join(dir, 'mock.jsonl'), join(dir, 'linked.jsonl'));
    const { code, output } = await refusedMock([
      '--port',
      '0',
      '--data',
      join(dir, 'linked.jsonl'),
    ]);
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toContain(`in use by another petstore-kit mock (process ${first.child.pid})`);
  });

  it("--data starts after a kill -9, even when the dead mock's pid names a live process", async () => {
    const data = join(await tempFolder('data'), 'mock.jsonl');
    const first = await start(['--data', data, '--quiet']);
    first.child.kill('SIGKILL');
    await exited(first.child);
    // What a lock by pid leaves: the dead mock's pid, now another live process's (the one that
    // started this test's worker: not the mock's own, which runs in the worker).
    await writeFile(`${data}.lock`, JSON.stringify({ pid: process.ppid, host: hostname() }));
    const second = await serveMock(['--data', data, '--quiet']);
    expect((await get(second.url, 'petstore-kit-dev-key')).status).toBe(200);
  });

  it('--data refuses, in one line naming them, records a changed spec no longer fits; nothing is lost', async () => {
    const dir = await tempFolder('data');
    const data = join(dir, 'mock.jsonl');
    const key = 'petstore-kit-dev-key';
    const first = await serveMock(['--data', data, '--quiet']);
    const res = await fetch(`${first.url}/categories`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'A name far too long for the stricter spec' }),
    });
    const long = (await res.json()) as { id: number };
    const before = (await get(first.url, key)).body;
    await closeConnections();
    expect(await first.stop()).toBe(0);

    const bundled = await readFile(
      fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url)),
      'utf8',
    );
    const stricter = join(dir, 'stricter.yaml');
    await writeFile(
      stricter,
      bundled.replace(
        'description: Category name.',
        'description: Category name.\n          maxLength: 20',
      ),
    );
    const { code, output } = await refusedMock(['--port', '0', '--data', data, '--spec', stricter]);
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toMatch(
      new RegExp(
        `no longer fits the spec: 1 record of categories \\(id ${long.id}: .*20 characters\\)`,
      ),
    );
    // The file is as it was: the spec it was written for serves every record.
    const again = await serveMock(['--data', data, '--quiet']);
    expect((await get(again.url, key)).body).toEqual(before);
  });

  it('--spec serves another spec statefully, with no code for it', async () => {
    const library = fileURLToPath(new URL('./fixtures/specs/library.yaml', import.meta.url));
    const { url } = await serveMock(['--spec', library, '--seed-count', '2', '--quiet']);
    expect(url).toMatch(/\/api$/);
    const headers = {
      Authorization: 'Bearer petstore-kit-dev-key',
      'Content-Type': 'application/json',
    };
    const created = await fetch(`${url}/books`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ isbn: '978-0000000001', title: 'Kept', status: 'draft' }),
    });
    expect(created.status).toBe(201);
    const book = (await created.json()) as { number: number };
    expect(book.number).toBe(3);
    const read = await fetch(`${url}/books/3`, { headers });
    expect(await read.json()).toEqual(book);
  });

  it('a second signal stops at once, while the first still waits for a half-sent request', async () => {
    // With a 60 s shutdown timeout, only the second signal can end it within the test's time.
    const { child, url } = await start(['--shutdown-timeout', '60']);
    const socket = await halfSentRequest(url);
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(child.exitCode).toBeNull();
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(1);
    socket.destroy();
  });

  it('enforces every scheme of a spec with --api-key and --basic, and says what each accepts', async () => {
    const key = 'k-7f3a9';
    const password = 's3cr3t-pw';
    const { url, output } = await serveMock([
      '--spec',
      SECURITY,
      '--api-key',
      key,
      '--basic',
      `alice:${password}`,
      '--log-format',
      'json',
    ]);
    const basic = (pair: string) => ({
      headers: { Authorization: `Basic ${Buffer.from(pair).toString('base64')}` },
    });
    expect((await fetch(`${url}/basic`, basic(`alice:${password}`))).status).toBe(200);
    expect((await fetch(`${url}/basic`, basic('alice:wrong'))).status).toBe(401);
    expect((await fetch(`${url}/cookie`, { headers: { Cookie: `session=${key}` } })).status).toBe(
      200,
    );
    expect((await fetch(`${url}/query?api_key=petstore-kit-dev-key`)).status).toBe(401);
    expect(output()).toContain('security: basicAuth (http basic): the 1 user:password given');
    expect(output()).toContain(
      'security: queryKey (apiKey in query parameter api_key): the 1 key given',
    );
    expect(output()).not.toContain(key);
    expect(output()).not.toContain(password);
  });

  it('takes BASIC_AUTH (comma-separated) from the environment', async () => {
    const { url } = await serveMock(['--spec', SECURITY], { BASIC_AUTH: 'a:1, b:2' });
    for (const pair of ['a:1', 'b:2']) {
      const res = await fetch(`${url}/basic`, {
        headers: { Authorization: `Basic ${Buffer.from(pair).toString('base64')}` },
      });
      expect(res.status, pair).toBe(200);
    }
  });

  it('says so in one line when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    const { code, output } = await refusedMock(['--port', String(port)]);
    expect(code).toBe(1);
    expect(output.trim()).toBe(
      `petstore-kit: cannot listen on 127.0.0.1:${port}: the port is already in use`,
    );
    blocker.close();
  });
});

describe('petstore-kit: misconfiguration refused, in one line and exit code 1', () => {
  // Each of these used to start anyway, and quietly serve something else than was asked:
  // the public default key, every address, a key no request can send, no delay at all.
  const cases: { why: string; args?: string[]; env?: Record<string, string>; says: RegExp }[] = [
    {
      why: 'an empty API_KEYS',
      env: { API_KEYS: '' },
      says: /^petstore-kit: option apiKeys \(--api-key, API_KEYS\): it holds an empty value.* \[invalid_option\]$/,
    },
    {
      why: 'API_KEYS of commas only',
      env: { API_KEYS: ' , ' },
      says: /API_KEYS\): it holds an empty value/,
    },
    {
      why: "--api-key ''",
      args: ['--api-key', ''],
      says: /--api-key, API_KEYS\): it holds an empty value/,
    },
    {
      why: 'an empty BASIC_AUTH',
      env: { BASIC_AUTH: '' },
      says: /BASIC_AUTH\): it holds an empty value/,
    },
    {
      why: 'an empty CORS_ORIGINS',
      env: { CORS_ORIGINS: '' },
      says: /CORS_ORIGINS, --no-cors\): it holds an empty value/,
    },
    { why: 'an empty HOST', env: { HOST: '' }, says: /HOST\): it is empty.*such as 127\.0\.0\.1/ },
    {
      why: 'an empty REDIS_URL',
      env: { REDIS_URL: '' },
      says: /REDIS_URL\): it is empty/,
    },
    { why: "--host ''", args: ['--host', ' '], says: /--host, HOST\): it is empty/ },
    {
      why: 'keys separated by a space',
      env: { API_KEYS: 'first-key second-key' },
      says: /^petstore-kit: an API key cannot hold whitespace: .*separate several keys with commas\)$/,
    },
    {
      why: "a scheme's key with a space",
      args: ['--api-key', 'bearerAuth=a key'],
      says: /^petstore-kit: an API key cannot hold whitespace/,
    },
    {
      why: 'an inverted delay range',
      args: ['--delay', '400-100'],
      says: /--delay\): its minimum \(400\) exceeds its maximum \(100\)/,
    },
  ];

  it.each(cases)('$why', async ({ args = [], env = {}, says }) => {
    const { code, output } = await refusedMock(['--port', '0', ...args], env);
    expect(code).toBe(1);
    const lines = output.trim().split('\n');
    expect(lines, output).toHaveLength(1);
    expect(lines[0]).toMatch(says);
    // The secret is never echoed back.
    expect(output).not.toMatch(/first-key|a key'/);
  });

  it('--version prints the version of the package, and exits 0: the built bin, and in process', async () => {
    const manifest = JSON.parse(
      await readFile(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    const child = run(['--version']);
    const output = collect(child);
    expect(await exited(child)).toBe(0);
    expect(output()).toBe(`${manifest.version}\n`);
    expect(await runCliWith(['-v'])).toEqual({ out: `${manifest.version}\n`, err: '', code: 0 });
  });

  it('bare petstore-kit prints the help on stdout and exits 0; an unknown command exits 1', async () => {
    const bare = await runCliWith([]);
    expect(bare.code).toBe(0);
    expect(bare.out).toMatch(/^Usage: petstore-kit \[options\] \[command\]/);
    expect(bare.out).toMatch(/mock \[options\] +run the stateful mock server/);

    const unknown = await runCliWith(['mokc']);
    expect(unknown.code).toBe(1);
    expect((unknown.out + unknown.err).trim()).toBe("error: unknown command 'mokc'");
  });
});

/**
 * Whether this machine lets the tests mount file systems (root, in a sandbox that allows
 * it): then full and read-only disks are real, not simulated.
 */
function canMount(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = execFileSync('mktemp', ['-d']).toString().trim();
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe]);
    return true;
  } catch {
    return false;
  } finally {
    execFileSync('rmdir', [probe]);
  }
}

describe.skipIf(!canMount())('petstore-kit mock --data on a full or read-only disk', () => {
  const KEY = 'petstore-kit-dev-key';
  const mounts: string[] = [];

  afterEach(async () => {
    // The mocks first: a mount in use cannot be taken away.
    await closeConnections();
    await Promise.all(serving.splice(0).map((mock) => mock.stop()));
    for (const point of mounts.splice(0).reverse()) execFileSync('umount', [point]);
  });

  /** A new folder on a tmpfs of `size` (e.g. `256k`): a disk that fills up for real. */
  async function smallDisk(size: string): Promise<string> {
    const dir = await tempFolder('disk');
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
    mounts.push(dir);
    return dir;
  }

  /**
   * Makes `dir` read-only by mounting it read-only over itself: a file already open keeps
   * writing (as on a disk remounted read-only under a running process, its handle stays
   * valid), but nothing can be created, renamed or deleted in it.
   */
  function readOnly(dir: string): void {
    execFileSync('mount', ['--bind', dir, dir]);
    mounts.push(dir);
    execFileSync('mount', ['-o', 'remount,ro,bind', dir]);
  }

  function post(url: string, name: string): Promise<Response> {
    return fetch(`${url}/categories`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name }),
    });
  }

  function reset(url: string): Promise<Response> {
    return fetch(new URL('/__mock/reset', url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}` },
    });
  }

  it('answers 507 on a full disk, saying so; stores nothing of it; takes writes again once there is room', async () => {
    const dir = await smallDisk('256k');
    const data = join(dir, 'mock.jsonl');
    const first = await serveMock(['--data', data, '--quiet']);
    // The filler takes what is left; the data file's last page still has room for a few creates.
    await writeFile(join(dir, 'filler'), Buffer.alloc(1 << 20)).catch(() => undefined);
    const stored: string[] = [];
    let refused: { name: string; res: Response } | undefined;
    for (let i = 0; i < 100 && !refused; i++) {
      const name = `Pet ${i} ${'x'.repeat(400)}`;
      const res = await post(first.url, name);
      if (res.status === 201) stored.push(name);
      else refused = { name, res };
    }
    expect(refused?.res.status).toBe(507);
    expect(await refused?.res.json()).toMatchObject({
      code: 'insufficient_storage',
      message: expect.stringMatching(/data file .*mock\.jsonl is on a full disk \(ENOSPC/),
    });
    expect((await get(first.url, KEY)).status).toBe(200);

    await rm(join(dir, 'filler'));
    expect((await post(first.url, 'After')).status).toBe(201);
    await closeConnections();
    expect(await first.stop()).toBe(0);
    const second = await serveMock(['--data', data, '--quiet']);
    const names = ((await get(second.url, KEY)).body as { name: string }[]).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining([...stored, 'After']));
    expect(names).not.toContain(refused?.name);
  });

  it('answers 503 with Retry-After while its folder is read-only, saying so, and recovers after', async () => {
    const dir = await tempFolder('data');
    const { url } = await serveMock(['--data', join(dir, 'mock.jsonl'), '--quiet']);
    readOnly(dir);
    // A reset writes a new file beside the data file, which a read-only folder refuses.
    const refused = await reset(url);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      code: 'service_unavailable',
      message: expect.stringMatching(/data file .*mock\.jsonl cannot be written \(EROFS/),
    });
    execFileSync('umount', [mounts.pop() ?? dir]);
    expect((await reset(url)).status).toBe(204);
  });

  it('stops with exit 0 when its folder has turned read-only', async () => {
    const dir = await tempFolder('data');
    const { output, stop } = await serveMock(['--data', join(dir, 'mock.jsonl'), '--quiet']);
    readOnly(dir);
    await closeConnections();
    expect(await stop()).toBe(0);
    expect(output()).not.toMatch(/Unhandled|EROFS/);
  });
});
