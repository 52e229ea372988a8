// What the tests of `petstore-kit contract` share: the command run in process as bin.ts runs
// it, and servers started on a free port of 127.0.0.1.
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Rule, RuleContext } from '../contract-tests/rule.js';
import { runCliWith } from './helpers.js';

const TLS = fileURLToPath(new URL('./fixtures/tls/', import.meta.url));

/** What a run of the CLI left: its exit code and everything it printed. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `petstore-kit contract` with these arguments in process, with `env` as its whole
 * environment (nothing of the test's own: no stray BASE_URL or API_KEY).
 * @example await runContractCli(['--base-url', url], { API_KEY: 'k' })
 */
export async function runContractCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  const { code, out, err } = await runCliWith(['contract', ...args], env);
  return { code, stdout: out, stderr: err };
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
