// `petstore-kit contract` end to end: the built CLI runs the suite in vitest against
// servers started here, and its exit code says whether they conform.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Express } from 'express';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contractRules } from '../contract-tests/rules.js';
import { loadContractSpec } from '../contract-tests/spec.js';
import { createApp } from '../src/app.js';
import { loadSpec } from '../src/spec/load.js';
import { createMemoryStore, type CategoryStore } from '../src/state/category-store.js';
import { categoriesServer } from './fixtures/categories-server.js';

const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));
const KEY = 'cli-key';
const servers: Server[] = [];
let ruleCount: number;
let creatingRuleCount: number;
let closedPort: number;

async function serve(app: Express): Promise<string> {
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function mock(store: CategoryStore = createMemoryStore()): Promise<string> {
  return serve(createApp({ spec: await loadSpec(), apiKeys: [KEY], store, logRequests: false }));
}

function contract(
  args: string[],
  env: Record<string, string> = {},
  cwd = process.cwd(),
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'contract', ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
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
  const rules = contractRules(await loadContractSpec(), { namePrefix: 'x' });
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

  it('writes the JUnit report where a relative --output points, from where it was run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-kit-cwd-'));
    const run = await contract(
      ['--reporter', 'junit', '--output', 'reports/contract.xml'],
      { BASE_URL: await mock(), API_KEY: KEY },
      dir,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(dir, 'reports', 'contract.xml'), 'utf8')).toContain('<testsuites');
  });

  it('exits 1 against a faulty server, naming the violated rule', async () => {
    const baseUrl = await serve(categoriesServer({ apiKey: KEY, validateBeforeAuth: true }));
    const run = await contract(['--base-url', baseUrl, '--api-key', KEY]);
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain(
      'createCategory rule 3: a missing credential gets 401 even with malformed JSON',
    );
    expect(run.stderr).toMatch(/does NOT conform: \d+ rules passed, [1-9]\d* failed/);
  });

  it('creates nothing with --read-only, and skips the rules that would', async () => {
    const store = createMemoryStore();
    const run = await contract(['--base-url', await mock(store), '--read-only'], { API_KEY: KEY });
    expect(run.code, run.stderr).toBe(0);
    expect(creatingRuleCount).toBeGreaterThan(0);
    expect(run.stdout).toContain(
      `conforms: ${ruleCount - creatingRuleCount} rules passed, 0 failed, ${creatingRuleCount} skipped`,
    );
    expect(store.list()).toEqual([]);
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
