// What the tests of `petstore-kit contract` share: the built CLI run as a user runs it, and
// servers started on a free port of 127.0.0.1.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Rule, RuleContext } from '../contract-tests/rule.js';

const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));
const TLS = fileURLToPath(new URL('./fixtures/tls/', import.meta.url));

/** What a run of the CLI left: its exit code and everything it printed. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Fails a suite at once, with what to do, when the CLI it spawns has not been built. */
export function requireBuiltCli(): void {
  if (!existsSync(BIN))
    throw new Error('dist/cli/bin.js is missing: run `npm run build` (npm test does)');
}

/**
 * Runs `petstore-kit contract` with these arguments, in an environment holding PATH and `env`
 * alone (nothing of the test's own: no stray BASE_URL or API_KEY).
 * @example await runContractCli(['--base-url', url], { API_KEY: 'k' })
 */
export function runContractCli(
  args: string[],
  env: Record<string, string> = {},
  cwd = process.cwd(),
): Promise<CliRun> {
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

/** A server started for a test: its base URL, and how to stop it. */
export interface Served {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/**
 * Serves a request handler (an Express app) on a free port of 127.0.0.1, over HTTPS with the
 * test CA's certificate when `tls` is set; `path` is the base path its URL ends in.
 * @default path '/v1'
 */
export async function serveOnFreePort(
  handler: RequestListener,
  options: { tls?: boolean; path?: string } = {},
): Promise<Served> {
  const server = options.tls
    ? createHttpsServer(
        { cert: readFileSync(join(TLS, 'server.pem')), key: readFileSync(join(TLS, 'server.key')) },
        handler,
      )
    : createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}${options.path ?? '/v1'}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Runs the rules whose names match, one after the other as a run does, and tells what each did:
 * `passed`, or the error's name and the first lines of its message.
 * @example expect(await ruleOutcomes(rules, ctx, /^addPet: /)).toEqual(allPassed(found))
 */
export async function ruleOutcomes(
  rules: readonly Rule[],
  ctx: RuleContext,
  name: RegExp,
): Promise<Record<string, string>> {
  const chosen = rules.filter((rule) => name.test(rule.name));
  expect(chosen.length, `no rule matches ${String(name)}`).toBeGreaterThan(0);
  const found: Record<string, string> = {};
  for (const rule of chosen)
    found[rule.name] = await rule.check(ctx).then(
      () => 'passed',
      (err: Error) => `${err.name}: ${err.message.split('\n').slice(0, 12).join('\n')}`,
    );
  return found;
}

/** What ruleOutcomes gives when every rule it ran passed. */
export const allPassed = (found: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.keys(found).map((name) => [name, 'passed']));
