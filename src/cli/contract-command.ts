import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { loadSpec, type OpenApiDocument } from '../openapi/load.js';
import { basePathOf, findServer, resolveServerUrl } from '../openapi/servers.js';
import { buildContractPlan, type ContractPlan } from './contract-plan.js';
import { contractCoverage, unreachedOperations } from './contract-coverage.js';
import { preflight } from './contract-preflight.js';
import { junitReport } from './contract-junit.js';
import {
  contractReport,
  findings,
  githubAnnotations,
  type RuleOutcome,
} from './contract-report.js';
import { ContractExit } from './contract-defaults.js';
import { CONTRACT_OPTIONS, type ContractFlags } from './contract-options.js';
import {
  parseCredentialFlag,
  parseCredentialsJson,
  type CredentialFlag,
} from './credential-flag.js';
import {
  loadSuite,
  type RunSuite,
  type SuiteResult,
  type SuiteRuleResult,
} from './contract-suite.js';

/** A contract run's options: its flags (CONTRACT_OPTIONS), and what cli.ts reads beside them. */
export type ContractCommandOptions = ContractFlags & {
  /** Where baseUrl came from: an explicit flag outranks `--server`, the environment does not. */
  baseUrlSource?: string | undefined;
  /** `CONTRACT_CREDENTIALS`: a JSON object from scheme (or `scheme[scope,...]`) to value. */
  credentialsJson?: string | undefined;
};

/** A configuration the suite cannot run with; its message is one line. */
class ContractConfigError extends Error {
  override name = 'ContractConfigError';
}

/** The names the suite gives a rule it could not judge (see contract-tests/verdicts.ts). */
const UNJUDGED = new Set(['TargetUnavailable', 'BudgetReached', 'SetupFailed', 'NotJudged']);

/**
 * Runs the contract suite against a deployment and tells whether it conforms.
 * @returns the exit code: see ContractExit
 * @example await runContract({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'secret', reporter: 'default' }, io)
 */
export async function runContract(
  options: ContractCommandOptions,
  io: {
    stdout: NodeJS.WritableStream;
    stderr: NodeJS.WritableStream;
    env: Readonly<Record<string, string | undefined>>;
  },
): Promise<number> {
  const timeoutMs = options.timeout ?? CONTRACT_OPTIONS.timeout.default;
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const budget = options.budget ?? CONTRACT_OPTIONS.budget.default;
  let plan: ContractPlan;
  let spec: OpenApiDocument;
  let baseUrl: string;
  let refusedSchemes: Record<string, string>;
  let loadingSuite: Promise<RunSuite>;
  let credentials: CredentialFlag[];
  try {
    checkOptions(options);
    // A start after the first reads the spec from loadSpec's remembered loads, without YAML.
    spec = (await loadSpec(options.spec)).resolved;
    plan = buildContractPlan(spec);
    baseUrl = resolveBaseUrl(options, spec);
    credentials = credentialFlags(plan, options);
    checkCredentials(plan, options, credentials);
    // Loaded while the target is asked, its network waits hiding the load; not before: a
    // refused option or spec stops at once without loading the rules.
    loadingSuite = loadSuite();
    loadingSuite.catch(() => undefined);
    ({ refusedSchemes } = await preflight(plan, baseUrl, {
      credentials: {
        token: options.apiKey,
        basic: options.basic,
        byScheme: bySchemeName(credentials),
      },
      timeoutMs,
      hint: (url) => basePathHint(url, spec, plan),
      readOnly: options.readOnly === true,
    }));
  } catch (err) {
    io.stderr.write(`petstore-kit contract: ${err instanceof Error ? err.message : String(err)}\n`);
    return ContractExit.unusable;
  }

  const replay = replayCommand({ ...options, baseUrl, seed, budget, timeout: timeoutMs });
  let result: SuiteResult;
  try {
    const runSuite = await loadingSuite;
    result = await runSuite({
      plan,
      settings: {
        baseUrl,
        token: options.apiKey,
        basic: options.basic,
        credentials,
        refusedSchemes,
        readOnly: options.readOnly === true,
        seed,
        budget,
        timeoutMs,
        ruleTimeMs: options.ruleTimeout ?? CONTRACT_OPTIONS.ruleTimeout.default,
        replay,
        ...(options.receiver ? { receiver: options.receiver } : {}),
      },
    });
  } catch (err) {
    io.stderr.write(`petstore-kit contract: ${err instanceof Error ? err.message : String(err)}\n`);
    return ContractExit.unusable;
  }

  const readOnly = options.readOnly === true;
  const cases = result.rules.map((rule) => ({
    ...outcomeOf(rule, readOnly),
    durationMs: rule.durationMs,
    errorType: rule.error?.name,
  }));
  const outcomes: RuleOutcome[] = cases.map(
    ({ durationMs: _d, errorType: _e, ...outcome }) => outcome,
  );
  const coverage = contractCoverage(
    spec,
    result.rules.map((rule) => ({ statuses: rule.hits, places: rule.placeHits })),
  );
  const unreached = unreachedOperations(plan, coverage, outcomes, readOnly);
  const report = contractReport(outcomes, {
    baseUrl,
    replay,
    credentialsFrom: credentialSources(options),
    timing: timing(result.rules),
    broken: result.broken,
    coverage,
    minCoverage: options.minCoverage,
    unreached,
    writes: result.writes,
    cleanup: result.cleanup,
  });
  if (options.reporter === 'junit' && options.output) {
    await mkdir(dirname(options.output), { recursive: true });
    await writeFile(
      options.output,
      junitReport(cases, {
        suite: plan.title,
        properties: { seed: String(seed), budget: String(budget), base_url: baseUrl, replay },
        coverage,
        minCoverage: options.minCoverage,
        findings: findings(outcomes),
        writes: result.writes ?? [],
        cleanup: result.cleanup,
      }),
    );
  }
  const json =
    options.reporter === 'json'
      ? `${JSON.stringify(
          {
            verdict: report.verdict,
            exitCode: report.exitCode,
            seed,
            replay,
            findings: findings(outcomes),
            rules: outcomes,
            coverage,
            unreached,
            writes: result.writes ?? [],
            cleanup: result.cleanup ?? { deletes: [], left: [] },
          },
          null,
          2,
        )}\n`
      : undefined;
  if (json !== undefined && options.output) await writeFile(options.output, json);
  if (json !== undefined && !options.output) io.stdout.write(json);
  else io.stdout.write(`${report.lines.join('\n')}\n`);
  if (options.reporter === 'junit' && options.output)
    io.stdout.write(`JUnit report written to ${options.output}\n`);
  if (io.env.GITHUB_ACTIONS === 'true')
    for (const line of githubAnnotations(outcomes)) io.stdout.write(`${line}\n`);
  // The report opens with the verdict; a log that keeps stderr apart gets it there too.
  if (report.exitCode !== 0) io.stderr.write(`${report.verdict}\n`);
  return report.exitCode;
}

/**
 * A rule of the suite as the report reads it: a setup step that broke the contract is not judged.
 * @internal for its tests: no part of the package's surface
 */
export function outcomeOf(rule: SuiteRuleResult, readOnly: boolean): RuleOutcome {
  const base = { name: rule.name, advisories: rule.advisories };
  if (rule.state === 'passed') return { ...base, state: 'passed' };
  if (rule.state === 'failed') {
    const unjudged = UNJUDGED.has(rule.error?.name ?? '');
    return {
      ...base,
      state: unjudged ? 'unjudged' : 'failed',
      message: rule.error?.message ?? 'failed',
      ...(rule.error?.clause === undefined ? {} : { clause: rule.error.clause }),
      ...(rule.error?.finding === undefined ? {} : { finding: rule.error.finding }),
    };
  }
  const note = rule.note ?? (readOnly ? 'not judged: --read-only (they write)' : 'skipped');
  return { ...base, state: 'skipped', note };
}

/** The suite's own start-up (process start to its first rule) and the rules' time. */
function timing(rules: readonly SuiteRuleResult[]): string {
  if (rules.length === 0) return 'no rule ran';
  const first = Math.min(...rules.map((rule) => rule.startTime));
  const last = Math.max(...rules.map((rule) => rule.startTime + rule.durationMs));
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return `start-up ${seconds(first - performance.timeOrigin)}, rules ${seconds(last - first)}`;
}

/**
 * The command that runs this run again: the same spec, target, seed and budget, so the same
 * generated cases. Credentials stay in the environment, out of reports and logs.
 * @example replayCommand({ baseUrl: 'http://h/v1', seed: 7, budget: 100, timeout: 10000, reporter: 'default' }) // 'petstore-kit contract --base-url http://h/v1 --seed 7 --budget 100'
 */
function replayCommand(
  options: ContractCommandOptions & {
    baseUrl: string;
    seed: number;
    budget: number;
    timeout: number;
  },
): string {
  const args = ['petstore-kit', 'contract'];
  if (options.spec) args.push('--spec', options.spec);
  args.push(
    '--base-url',
    options.baseUrl,
    '--seed',
    String(options.seed),
    '--budget',
    String(options.budget),
  );
  if (options.readOnly) args.push('--read-only');
  if (options.timeout !== CONTRACT_OPTIONS.timeout.default)
    args.push('--timeout', String(options.timeout));
  if (options.receiver) args.push('--receiver', options.receiver);
  return args.map(shellWord).join(' ');
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function credentialSources(options: ContractCommandOptions): string {
  const sources = [
    options.apiKey ? 'API_KEY' : '',
    options.basic ? 'BASIC_AUTH' : '',
    options.credentialsJson ? 'CONTRACT_CREDENTIALS' : '',
    options.credential?.length ? '--credential' : '',
  ].filter(Boolean);
  return sources.length > 0 ? sources.join(' and ') : 'none';
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
  if (options.reporter === 'junit' && !options.output) {
    throw new ContractConfigError('--reporter junit needs --output FILE');
  }
  if (options.basic !== undefined && !options.basic.includes(':'))
    throw new ContractConfigError('--basic takes user:password (BASIC_AUTH too)');
}

/**
 * A spec whose operations need credentials, run with none of the kinds they take, cannot be
 * judged: say which option gives them.
 */
function checkCredentials(
  plan: ContractPlan,
  options: ContractCommandOptions,
  given: readonly CredentialFlag[],
): void {
  if (options.apiKey || options.basic || given.length > 0) return;
  const needed = new Set<string>();
  for (const operation of plan.operations) {
    if (
      operation.security.length === 0 ||
      operation.security.some((r) => Object.keys(r).length === 0)
    )
      continue;
    for (const requirement of operation.security)
      for (const name of Object.keys(requirement)) {
        const scheme = plan.securitySchemes[name];
        if (scheme?.type === 'http' && scheme.scheme === 'basic') needed.add('basic');
        else if (
          scheme &&
          scheme.type !== 'mutualTLS' &&
          (scheme.type !== 'http' || scheme.scheme === 'bearer')
        )
          needed.add('token');
      }
  }
  if (needed.has('token'))
    throw new ContractConfigError('no API key: give --api-key or set API_KEY');
  if (needed.has('basic'))
    throw new ContractConfigError(
      'no user and password: give --basic user:password or set BASIC_AUTH',
    );
}

/**
 * The values given for one scheme each, from `--credential` and `CONTRACT_CREDENTIALS`, checked
 * against the description: each names one of its schemes, scopes only for OAuth 2 and OpenID
 * Connect, a user and password for HTTP basic, and one value per scheme unless scopes tell
 * them apart.
 * @throws {ContractConfigError} with one line saying which value is wrong and why.
 */
function credentialFlags(plan: ContractPlan, options: ContractCommandOptions): CredentialFlag[] {
  let given: CredentialFlag[];
  try {
    given = [
      ...(options.credentialsJson ? parseCredentialsJson(options.credentialsJson) : []),
      ...(options.credential ?? []).map(parseCredentialFlag),
    ];
  } catch (err) {
    throw new ContractConfigError(`--credential: ${(err as Error).message}`);
  }
  const names = Object.keys(plan.securitySchemes);
  const seen = new Set<string>();
  for (const { scheme: name, scopes, value } of given) {
    const scheme = plan.securitySchemes[name];
    if (!scheme)
      throw new ContractConfigError(
        `--credential names the scheme ${name}, which the description does not define (its schemes: ${names.join(', ') || 'none'})`,
      );
    if (scopes && scheme.type !== 'oauth2' && scheme.type !== 'openIdConnect')
      throw new ContractConfigError(
        `--credential gives scopes to ${name}, which is no OAuth 2 or OpenID Connect scheme: give it as ${name}=<value>`,
      );
    if (scheme.type === 'http' && scheme.scheme === 'basic' && !value.includes(':'))
      throw new ContractConfigError(
        `--credential ${name} is HTTP basic: give it as ${name}=user:password`,
      );
    const key = `${name}[${(scopes ?? ['*']).join(',')}]`;
    if (seen.has(key))
      throw new ContractConfigError(
        `--credential gives ${name} twice${scopes ? ' with the same scopes' : ''}: one value per scheme (tokens of other scopes may be added as ${name}[scope,...]=<token>)`,
      );
    seen.add(key);
  }
  return given;
}

function bySchemeName(given: readonly CredentialFlag[]): Record<string, CredentialFlag[]> {
  const grouped: Record<string, CredentialFlag[]> = {};
  for (const credential of given) (grouped[credential.scheme] ??= []).push(credential);
  return grouped;
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

function basePathHint(baseUrl: string, spec: OpenApiDocument, plan: ContractPlan): string {
  let basePath = '';
  try {
    basePath = basePathOf(spec);
  } catch {
    // Servers that disagree on the base path: no hint from them.
  }
  const path = new URL(baseUrl).pathname.replace(/\/+$/, '');
  if (basePath !== '' && !path.endsWith(basePath)) {
    return `The interface is served under ${basePath}: try ${baseUrl}${basePath}`;
  }
  const paths = [...new Set(plan.operations.map((operation) => operation.path))];
  return `The base URL should be the one its paths (${paths.slice(0, 5).join(', ')}) hang from, ending in ${basePath || '/'}`;
}
