import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';
import { findServer, resolveServerUrl } from '../spec/servers.js';
import { loadSpec } from '../spec/load.js';

/** The contract suite's vitest config, beside its rules in contract-tests/. */
const CONTRACT_CONFIG = fileURLToPath(
  new URL('../../contract-tests/vitest.config.ts', import.meta.url),
);

/** Exit codes of `petstore-kit contract`. */
export const ContractExit = {
  /** The target conforms: every rule that ran passed. */
  conforms: 0,
  /** At least one rule is violated. */
  violated: 1,
  /** The run could not judge: unusable configuration, unreachable target, or no test ran. */
  unusable: 2,
} as const;

export interface ContractCommandOptions {
  baseUrl?: string;
  /** Where baseUrl came from: an explicit flag outranks `--server`, the environment does not. */
  baseUrlSource?: string | undefined;
  apiKey?: string;
  server?: string;
  serverVariable?: string[];
  reporter: 'default' | 'junit';
  output?: string;
  readOnly?: boolean;
}

/** A configuration the suite cannot run with; its message is one line. */
export class ContractConfigError extends Error {
  override name = 'ContractConfigError';
}

/**
 * Runs the contract suite against a deployment and tells whether it conforms.
 * @returns the exit code: see ContractExit
 * @example await runContract({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'secret', reporter: 'default' }, io)
 */
export async function runContract(
  options: ContractCommandOptions,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  let baseUrl: string;
  try {
    baseUrl = await resolveBaseUrl(options);
    checkOptions(options);
    await checkReachable(baseUrl);
  } catch (err) {
    io.stderr.write(`petstore-kit contract: ${err instanceof Error ? err.message : String(err)}\n`);
    return ContractExit.unusable;
  }

  // The suite's vitest config reads these in the main process and provides them to the rules.
  process.env.BASE_URL = baseUrl;
  process.env.API_KEY = options.apiKey;
  process.env.CONTRACT_READ_ONLY = options.readOnly ? 'true' : 'false';

  const junit = options.reporter === 'junit';
  const vitest = await startVitest(
    'test',
    [],
    {
      config: CONTRACT_CONFIG,
      watch: false,
      reporters: junit ? ['default', 'junit'] : ['default'],
      ...(junit && options.output ? { outputFile: { junit: options.output } } : {}),
    },
    {},
    { stdout: io.stdout as never, stderr: io.stderr as never },
  );
  const tally = { passed: 0, failed: 0, skipped: 0 };
  let broken = vitest.state.getUnhandledErrors().length > 0;
  for (const module of vitest.state.getTestModules()) {
    if (module.errors().length > 0) broken = true;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') tally.passed += 1;
      else if (state === 'failed') tally.failed += 1;
      else tally.skipped += 1;
    }
  }
  await vitest.close();

  const summary = `${tally.passed} rules passed, ${tally.failed} failed, ${tally.skipped} skipped against ${baseUrl}`;
  if (tally.failed > 0 || broken) {
    io.stderr.write(`petstore-kit contract: does NOT conform: ${summary}\n`);
    return broken && tally.failed === 0 ? ContractExit.unusable : ContractExit.violated;
  }
  if (tally.passed === 0) {
    io.stderr.write(`petstore-kit contract: no contract test ran against ${baseUrl}\n`);
    return ContractExit.unusable;
  }
  io.stdout.write(`petstore-kit contract: conforms: ${summary}\n`);
  return ContractExit.conforms;
}

async function resolveBaseUrl(options: ContractCommandOptions): Promise<string> {
  if (options.server && options.baseUrlSource === 'cli') {
    throw new ContractConfigError('give --base-url or --server, not both');
  }
  if (options.server) {
    const spec = await loadSpec();
    return resolveServerUrl(
      findServer(spec.resolved, options.server),
      parseVariables(options.serverVariable ?? []),
    );
  }
  if (!options.baseUrl) {
    throw new ContractConfigError(
      'no target: give --base-url (or BASE_URL) or --server NAME (a server of the spec)',
    );
  }
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new ContractConfigError(`the base URL is not a URL: "${options.baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ContractConfigError(`the base URL must be http or https: "${options.baseUrl}"`);
  }
  return options.baseUrl.replace(/\/+$/, '');
}

function checkOptions(options: ContractCommandOptions): void {
  if (!options.apiKey) throw new ContractConfigError('no API key: give --api-key or set API_KEY');
  if (options.reporter === 'junit' && !options.output) {
    throw new ContractConfigError('--reporter junit needs --output FILE');
  }
}

function parseVariables(pairs: string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0)
        throw new ContractConfigError(`--server-variable takes NAME=VALUE, not "${pair}"`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/** Any HTTP answer will do: this only tells a dead target from a failing one. */
async function checkReachable(baseUrl: string): Promise<void> {
  try {
    await fetch(baseUrl, { signal: AbortSignal.timeout(10_000), redirect: 'manual' });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
    throw new ContractConfigError(`cannot reach ${baseUrl} (${why})`);
  }
}
