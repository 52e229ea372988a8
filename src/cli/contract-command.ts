import { readFile, writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import type * as VitestNode from 'vitest/node';
import type { TestCase } from 'vitest/node';
import { loadSpec, type OpenApiDocument } from '../openapi/load.js';
import { basePathOf, findServer, resolveServerUrl } from '../openapi/servers.js';
import { buildContractPlan, type ContractPlan } from './contract-plan.js';
import {
  contractCoverage,
  unreachedOperations,
  type HitCounts,
  type PlaceHitCounts,
  type RuleHits,
} from './contract-coverage.js';
import { preflight } from './contract-preflight.js';
import {
  contractReport,
  floorShortfall,
  githubAnnotations,
  type RuleOutcome,
} from './contract-report.js';
import { coverageReport } from './coverage-report.js';
import type { Coverage } from '../openapi/coverage-table.js';
import { CONTRACT_DEFAULTS, ContractExit } from './contract-defaults.js';
import { locateSuite, suiteOptions } from './contract-suite.js';

export interface ContractCommandOptions {
  /** The OpenAPI document of the interface. @default the bundled spec */
  spec?: string;
  baseUrl?: string;
  /** Where baseUrl came from: an explicit flag outranks `--server`, the environment does not. */
  baseUrlSource?: string | undefined;
  /** The bearer token or API key, for every bearer, API key, OAuth 2 and OpenID Connect scheme. */
  apiKey?: string;
  /** `user:password` for HTTP basic schemes. */
  basic?: string;
  server?: string;
  serverVariable?: string[];
  /**
   * `default` prints the text report; `junit` writes JUnit XML to `output`, the coverage
   * table as a test suite of its own; `json` writes the verdict, the rules and the coverage
   * table as JSON to `output`, else to stdout instead of the text report.
   * @default 'default'
   */
  reporter: 'default' | 'junit' | 'json';
  output?: string;
  /**
   * The least share, in percent, of documented (operation, status) pairs the run must
   * exercise: below it the run does not conform (exit 1), the table saying what was missed.
   * @example 60
   */
  minCoverage?: number;
  readOnly?: boolean;
  /** Seed of the generated cases. @default a random one, shown in the replay command */
  seed?: number;
  /** Generated bodies in all, half valid and half invalid; 0 generates none. @default 100 */
  budget?: number;
  /** Milliseconds one request may take. @default 10000 */
  timeout?: number;
  /**
   * Milliseconds one rule may take, generated cases and shrinking included; a rule that
   * reaches it is not judged (exit 2 unless another fails). @default 60000
   */
  ruleTimeout?: number;
}

/** A configuration the suite cannot run with; its message is one line. */
export class ContractConfigError extends Error {
  override name = 'ContractConfigError';
}

/** The names the suite gives a rule it could not judge (see contract-tests/verdicts.ts). */
const UNJUDGED = new Set(['TargetUnavailable', 'BudgetReached']);
/** The annotation types of the suite (see contract-tests/reporter.ts). */
const ADVISORY = 'warning';
const SKIP_NOTE = 'skipped';
/** The metadata in which each rule's test hands over its answers heard (contract-tests/coverage-hits.ts). */
const HITS_META = 'contractHits';
const PLACE_HITS_META = 'contractPlaceHits';

/**
 * Runs the contract suite against a deployment and tells whether it conforms.
 * @returns the exit code: see ContractExit
 * @example await runContract({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'secret', reporter: 'default' }, io)
 */
export async function runContract(
  options: ContractCommandOptions,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const timeoutMs = options.timeout ?? CONTRACT_DEFAULTS.timeoutMs;
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const budget = options.budget ?? CONTRACT_DEFAULTS.budget;
  let plan: ContractPlan;
  let spec: OpenApiDocument;
  let baseUrl: string;
  let refusedSchemes: Record<string, string>;
  // Colour codes only for a person at a terminal; a CI log gets plain text (set before vitest
  // loads: its colours are chosen then).
  if ((io.stdout as { isTTY?: boolean }).isTTY !== true) process.env.NO_COLOR ??= '1';
  let loadingVitest: Promise<typeof VitestNode>;
  try {
    checkOptions(options);
    // A start after the first reads the spec from loadSpec's remembered loads, without YAML.
    spec = (await loadSpec(options.spec)).resolved;
    plan = buildContractPlan(spec);
    baseUrl = resolveBaseUrl(options, spec);
    checkCredentials(plan, options);
    // Loaded while the target is asked, half a second of start-up that the pre-flight's
    // network waits hide. Not before: a refused option or spec stops at once without paying
    // its 0.6 CPU s (the checks above take the same thread, so they hid nothing of it).
    loadingVitest = import('vitest/node');
    loadingVitest.catch(() => undefined);
    ({ refusedSchemes } = await preflight(plan, baseUrl, {
      credentials: { token: options.apiKey, basic: options.basic },
      timeoutMs,
      hint: (url) => basePathHint(url, spec, plan),
      readOnly: options.readOnly === true,
    }));
  } catch (err) {
    io.stderr.write(`petstore-kit contract: ${err instanceof Error ? err.message : String(err)}\n`);
    return ContractExit.unusable;
  }

  const replay = replayCommand({ ...options, baseUrl, seed, budget, timeout: timeoutMs });
  const run = {
    plan,
    settings: {
      baseUrl,
      token: options.apiKey,
      basic: options.basic,
      refusedSchemes,
      readOnly: options.readOnly === true,
      seed,
      budget,
      timeoutMs,
      ruleTimeMs: options.ruleTimeout ?? CONTRACT_DEFAULTS.ruleTimeMs,
      replay,
    },
  };

  const junit = options.reporter === 'junit';
  const { createVitest } = await loadingVitest;
  const suite = locateSuite();
  // What vitest prints (`JUNIT report written to ...`) follows the report, whose first line is the verdict.
  const vitestOutput: Buffer[] = [];
  const held = new Writable({
    write(chunk: Buffer, _encoding, done) {
      vitestOutput.push(Buffer.from(chunk));
      done();
    },
  });
  const vitest = await createVitest(
    'test',
    {
      ...suiteOptions(suite),
      reporters: [suite.reporter, ...(junit ? ['junit'] : [])],
      ...(junit && options.output ? { outputFile: { junit: options.output } } : {}),
    },
    {},
    { stdout: held as never, stderr: io.stderr as never },
  );
  // The key is declared by the suite (contract-tests/target.ts), which the build does not see.
  (vitest.provide as (key: string, value: unknown) => void)('contractRun', run);
  try {
    await vitest.start();
  } catch (err) {
    io.stderr.write(Buffer.concat(vitestOutput));
    io.stderr.write(`petstore-kit contract: ${err instanceof Error ? err.message : String(err)}\n`);
    await vitest.close();
    return ContractExit.unusable;
  }

  const outcomes: RuleOutcome[] = [];
  const tests: TestCase[] = [];
  const hits: RuleHits[] = [];
  let broken =
    vitest.state.getUnhandledErrors().length > 0 ? 'an error outside the rules' : undefined;
  for (const module of vitest.state.getTestModules()) {
    for (const error of module.errors()) broken ??= error.message.split('\n')[0];
    for (const test of module.children.allTests()) {
      tests.push(test);
      outcomes.push(outcomeOf(test, options.readOnly === true));
      const meta = test.meta() as Record<string, unknown>;
      const counted = meta[HITS_META];
      const byPlaces = meta[PLACE_HITS_META];
      if (counted && typeof counted === 'object')
        hits.push({
          statuses: counted as HitCounts,
          ...(byPlaces && typeof byPlaces === 'object'
            ? { places: byPlaces as PlaceHitCounts }
            : {}),
        });
    }
  }
  await vitest.close();

  const coverage = contractCoverage(spec, hits);
  const unreached = unreachedOperations(plan, coverage, outcomes, options.readOnly === true);
  const report = contractReport(outcomes, {
    baseUrl,
    replay,
    credentialsFrom: credentialSources(options),
    timing: timing(tests),
    broken,
    coverage,
    minCoverage: options.minCoverage,
    unreached,
  });
  if (junit && options.output)
    await addJunitParts(options.output, {
      properties: { seed: String(seed), budget: String(budget), base_url: baseUrl, replay },
      coverage,
      minCoverage: options.minCoverage,
    });
  const json =
    options.reporter === 'json'
      ? `${JSON.stringify(
          {
            verdict: report.verdict,
            exitCode: report.exitCode,
            seed,
            replay,
            rules: outcomes,
            coverage,
            unreached,
          },
          null,
          2,
        )}\n`
      : undefined;
  if (json !== undefined && options.output) await writeFile(options.output, json);
  if (json !== undefined && !options.output) io.stdout.write(json);
  else io.stdout.write(`${report.lines.join('\n')}\n`);
  // Standard output holds the JSON alone when it is written there.
  if (vitestOutput.length > 0)
    (json !== undefined && !options.output ? io.stderr : io.stdout).write(
      Buffer.concat(vitestOutput),
    );
  if (process.env.GITHUB_ACTIONS === 'true')
    for (const line of githubAnnotations(outcomes)) io.stdout.write(`${line}\n`);
  // The report opens with the verdict; a log that keeps stderr apart gets it there too.
  if (report.exitCode !== 0) io.stderr.write(`${report.verdict}\n`);
  return report.exitCode;
}

function outcomeOf(test: TestCase, readOnly: boolean): RuleOutcome {
  const result = test.result();
  const annotations = test.annotations();
  const advisories = annotations.filter((a) => a.type === ADVISORY).map((a) => a.message);
  const base = { name: test.name, advisories };
  if (result.state === 'passed') return { ...base, state: 'passed' };
  if (result.state === 'failed') {
    const message = result.errors[0]?.message ?? 'failed';
    const unjudged = result.errors.every((error) => UNJUDGED.has(error.name ?? ''));
    return { ...base, state: unjudged ? 'unjudged' : 'failed', message };
  }
  const note =
    annotations.find((a) => a.type === SKIP_NOTE)?.message ??
    (readOnly ? 'they write, and --read-only skips what writes' : 'skipped');
  return { ...base, state: 'skipped', note };
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

/**
 * The command that runs this run again: the same spec, target, seed and budget, so the same
 * generated cases. Credentials stay in the environment, out of reports and logs.
 * @example replayCommand({ baseUrl: 'http://h/v1', seed: 7, budget: 100, timeout: 10000, reporter: 'default' }) // 'petstore-kit contract --base-url http://h/v1 --seed 7 --budget 100'
 */
export function replayCommand(
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
  if (options.timeout !== CONTRACT_DEFAULTS.timeoutMs)
    args.push('--timeout', String(options.timeout));
  return args.map(shellWord).join(' ');
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function credentialSources(options: ContractCommandOptions): string {
  const sources = [options.apiKey ? 'API_KEY' : '', options.basic ? 'BASIC_AUTH' : ''].filter(
    Boolean,
  );
  return sources.length > 0 ? sources.join(' and ') : 'none';
}

/**
 * JUnit readers (Jenkins, GitLab) show a test suite's properties: the seed, the base URL and
 * the replay command go there, so that a report alone tells how to run it again. The
 * coverage table follows as a test suite of its own, a missed status a skipped case; below
 * `--min-coverage` it holds a failing case that says by how much.
 */
async function addJunitParts(
  file: string,
  facts: {
    properties: Record<string, string>;
    coverage: Coverage;
    minCoverage?: number | undefined;
  },
): Promise<void> {
  const xml = await readFile(file, 'utf8').catch(() => undefined);
  if (xml === undefined) return;
  const escape = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const properties = Object.entries(facts.properties)
    .map(([name, value]) => `<property name="${name}" value="${escape(value)}"/>`)
    .join('');
  const { coverage, minCoverage } = facts;
  let suite = coverageReport(coverage, 'junit').replace(/^<\?xml[^>]*>\n/, '');
  const message = minCoverage === undefined ? undefined : floorShortfall(coverage, minCoverage);
  if (message !== undefined) {
    suite = suite
      .replace(/ failures="0"/, ' failures="1"')
      .replace(
        '</testsuite>',
        `  <testcase classname="coverage" name="--min-coverage ${minCoverage}%">\n    <failure message="${escape(message)}"/>\n  </testcase>\n</testsuite>`,
      );
  }
  const withProperties = xml.replace(
    /(<testsuite [^>]*>)/g,
    `$1\n<properties>${properties}</properties>`,
  );
  await writeFile(
    file,
    withProperties.includes('</testsuites>')
      ? withProperties.replace('</testsuites>', `${suite}</testsuites>`)
      : `${withProperties}${suite}`,
  );
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
function checkCredentials(plan: ContractPlan, options: ContractCommandOptions): void {
  if (options.apiKey || options.basic) return;
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
