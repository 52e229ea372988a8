import { fileURLToPath } from 'node:url';
import type { Dispatcher } from 'undici';
import type { TestCase } from 'vitest/node';
import { basePathOf, findServer, resolveServerUrl } from '../openapi/servers.js';
import { loadSpec, type OpenApiDocument } from '../openapi/load.js';

/** The contract suite's vitest config, beside its rules in contract-tests/. */
const CONTRACT_CONFIG = fileURLToPath(
  new URL('../../contract-tests/vitest.config.ts', import.meta.url),
);
/** The suite's reporter (advisories, GitHub annotations), loaded by vitest like the config. */
const CONTRACT_REPORTER = fileURLToPath(
  new URL('../../contract-tests/reporter.ts', import.meta.url),
);

/** The operations the suite checks: a base URL where all of them answer 404 is a wrong one. */
const CHECKED_OPERATIONS = ['listCategories', 'createCategory'];

/** Exit codes of `petstore-kit contract`. */
export const ContractExit = {
  /** The target conforms: every rule that ran passed. */
  conforms: 0,
  /** At least one rule is violated. */
  violated: 1,
  /** The run could not judge: unusable configuration, unreachable or unavailable target, or no test ran. */
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
  /** Seed of the generated cases. @default a random one, printed */
  seed?: number;
  /** Generated bodies, half valid and half invalid; 0 generates none. @default 100 */
  budget?: number;
  /** Milliseconds one request may take. @default 10000 */
  timeout?: number;
}

/** A configuration the suite cannot run with; its message is one line. */
export class ContractConfigError extends Error {
  override name = 'ContractConfigError';
}

/** The name the suite gives a rule it could not judge (see contract-tests/verdicts.ts). */
const UNJUDGED = 'TargetUnavailable';

/**
 * Runs the contract suite against a deployment and tells whether it conforms.
 * @returns the exit code: see ContractExit
 * @example await runContract({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'secret', reporter: 'default' }, io)
 */
export async function runContract(
  options: ContractCommandOptions,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const timeoutMs = options.timeout ?? 10_000;
  let baseUrl: string;
  try {
    // A start after the first reads the spec from loadSpec's remembered loads, without YAML.
    const spec = (await loadSpec()).resolved;
    baseUrl = resolveBaseUrl(options, spec);
    checkOptions(options);
    await preflight(baseUrl, options.apiKey ?? '', spec, timeoutMs);
  } catch (err) {
    io.stderr.write(`petstore-kit contract: ${err instanceof Error ? err.message : String(err)}\n`);
    return ContractExit.unusable;
  }

  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const budget = options.budget ?? 100;
  io.stdout.write(
    budget === 0
      ? 'petstore-kit contract: no generated cases (--budget 0)\n'
      : `petstore-kit contract: ${budget} generated cases, seed ${seed} (replay: --seed ${seed} --budget ${budget})\n`,
  );

  // The suite's vitest config reads these in the main process and provides them to the rules.
  process.env.BASE_URL = baseUrl;
  process.env.API_KEY = options.apiKey;
  process.env.CONTRACT_READ_ONLY = options.readOnly ? 'true' : 'false';
  process.env.CONTRACT_SEED = String(seed);
  process.env.CONTRACT_BUDGET = String(budget);
  process.env.CONTRACT_TIMEOUT = String(timeoutMs);

  const junit = options.reporter === 'junit';
  // Loaded once the target is known to be there: a run that stops earlier stops sooner.
  const { startVitest } = await import('vitest/node');
  const vitest = await startVitest(
    'test',
    [],
    {
      config: CONTRACT_CONFIG,
      watch: false,
      reporters: ['default', CONTRACT_REPORTER, ...(junit ? ['junit'] : [])],
      ...(junit && options.output ? { outputFile: { junit: options.output } } : {}),
    },
    {},
    { stdout: io.stdout as never, stderr: io.stderr as never },
  );
  const tally = { passed: 0, failed: 0, unjudged: 0, skipped: 0 };
  const reasons: string[] = [];
  const tests: TestCase[] = [];
  let broken = vitest.state.getUnhandledErrors().length > 0;
  for (const module of vitest.state.getTestModules()) {
    for (const error of module.errors()) {
      broken = true;
      reasons.push(error.message);
    }
    for (const test of module.children.allTests()) {
      tests.push(test);
      const result = test.result();
      if (result.state === 'passed') tally.passed += 1;
      else if (result.state !== 'failed') tally.skipped += 1;
      else if (result.errors.every((error) => error.name === UNJUDGED)) {
        tally.unjudged += 1;
        reasons.push(result.errors[0]?.message.split('\n')[0] ?? test.name);
      } else tally.failed += 1;
    }
  }
  await vitest.close();

  const counts = `${tally.passed} rules passed, ${tally.failed} failed, ${tally.skipped} skipped`;
  const unjudged = tally.unjudged > 0 ? `, ${tally.unjudged} could not be judged` : '';
  const summary = `${counts}${unjudged} against ${baseUrl} (${timing(tests)})`;
  if (tally.failed > 0) {
    io.stderr.write(`petstore-kit contract: does NOT conform: ${summary}\n`);
    return ContractExit.violated;
  }
  if (tally.unjudged > 0 || broken) {
    io.stderr.write(
      `petstore-kit contract: could not judge: ${summary}${reasons[0] ? `: ${reasons[0]}` : ''}\n`,
    );
    return ContractExit.unusable;
  }
  if (tally.passed === 0) {
    io.stderr.write(`petstore-kit contract: no contract test ran against ${baseUrl}\n`);
    return ContractExit.unusable;
  }
  io.stdout.write(`petstore-kit contract: conforms: ${summary}\n`);
  return ContractExit.conforms;
}

/** The suite's own start-up (process start to its first rule) and the rules' time. */
function timing(tests: TestCase[]): string {
  const spans = tests
    .map((test) => test.diagnostic())
    .filter((d) => d !== undefined)
    .map((d) => ({ start: d.startTime, end: d.startTime + d.duration }));
  if (spans.length === 0) return 'no rule ran';
  const first = Math.min(...spans.map((s) => s.start));
  const last = Math.max(...spans.map((s) => s.end));
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return `start-up ${seconds(first - performance.timeOrigin)}, rules ${seconds(last - first)}`;
}

function resolveBaseUrl(options: ContractCommandOptions, spec: OpenApiDocument): string {
  if (options.server && options.baseUrlSource === 'cli') {
    throw new ContractConfigError('give --base-url or --server, not both');
  }
  if (options.server) {
    return resolveServerUrl(
      findServer(spec, options.server),
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

/**
 * Tells a target that cannot be judged from one that fails: nothing answers there, or every
 * operation of the interface answers 404 (a base URL without `/v1`, most likely). Goes
 * through the same proxy as the suite; sends no valid create.
 */
async function preflight(
  baseUrl: string,
  apiKey: string,
  spec: OpenApiDocument,
  timeoutMs: number,
): Promise<void> {
  const { EnvHttpProxyAgent, request } = await import('undici');
  const dispatcher = new EnvHttpProxyAgent();
  try {
    const probe = async (method: string, path: string) => {
      const res = await request(baseUrl + path, {
        method: method.toUpperCase() as Dispatcher.HttpMethod,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        // An empty object breaks the schema: a create that is served gets 400, not a category.
        body: method === 'get' ? undefined : '{}',
        dispatcher,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body.dump();
      return res.statusCode;
    };
    let statuses: number[];
    try {
      await probe('get', '');
      statuses = [];
      for (const { method, path } of operations(spec)) statuses.push(await probe(method, path));
    } catch (err) {
      throw new ContractConfigError(`cannot reach ${baseUrl} (${failureCode(err, timeoutMs)})`);
    }
    if (statuses.length > 0 && statuses.every((status) => status === 404)) {
      throw new ContractConfigError(
        `every operation of the interface answers 404 at ${baseUrl}: is the base path right? ${basePathHint(baseUrl, spec)}`,
      );
    }
  } finally {
    await dispatcher.close();
  }
}

function operations(spec: OpenApiDocument): { method: string; path: string }[] {
  return Object.entries(spec.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item ?? {})
      .filter(([, operation]) =>
        CHECKED_OPERATIONS.includes((operation as { operationId?: string }).operationId ?? ''),
      )
      .map(([method]) => ({ method, path })),
  );
}

function basePathHint(baseUrl: string, spec: OpenApiDocument): string {
  const basePath = basePathOf(spec);
  const path = new URL(baseUrl).pathname.replace(/\/+$/, '');
  if (basePath !== '' && !path.endsWith(basePath)) {
    return `The interface is served under ${basePath}: try ${baseUrl}${basePath}`;
  }
  return `The base URL should be the one its paths (${operations(spec)
    .map(({ path }) => path)
    .filter((p, i, all) => all.indexOf(p) === i)
    .join(', ')}) hang from, ending in ${basePath || '/'}`;
}

function failureCode(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && err.name === 'TimeoutError')
    return `no answer within ${timeoutMs} ms`;
  const found = [err, (err as { cause?: unknown }).cause]
    .map((e) => (e as { code?: unknown } | undefined)?.code)
    .find((code): code is string => typeof code === 'string');
  if (found && /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(found))
    return `${found}: a private CA? set NODE_EXTRA_CA_CERTS to its PEM file`;
  return found ?? (err instanceof Error ? err.message : String(err));
}
