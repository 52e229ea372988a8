// The options of the commands besides `mock` (wiring/option-table.ts) and `contract`
// (contract-options.ts), each declared once (see command-options.ts): cli.ts makes their flags
// from these tables, each command module its options type, and docs/options.md lists them.
import { resolve } from 'node:path';
import { DIFF_FORMATS } from '../diff/report.js';
import { LEVELS } from '../diff/rules.js';
import { LOG_LEVELS } from '../http/log-levels.js';
import { DEFAULT_API_KEY } from '../wiring/option-table.js';
import { repeated, type CommandOptions } from './command-options.js';
import { COVERAGE_FORMATS } from './coverage-report.js';
import { parsePercent } from './parse.js';
import { WORKFLOW_FORMATS } from './workflow-report.js';

/** `--log-format` and `--log-level`, which the mock and the proxy take alike. */
export const LOG_OPTIONS = {
  logFormat: {
    flag: '--log-format <format>',
    doc: 'log lines: pretty for people, json for tools',
    choices: ['auto', 'pretty', 'json'],
    default: 'auto',
    defaultText: 'pretty on a terminal when pino-pretty is installed, json otherwise',
  },
  logLevel: {
    flag: '--log-level <level>',
    doc: 'the least level logged: debug adds the admin API reads (the inspector polling)',
    choices: LOG_LEVELS,
    env: 'LOG_LEVEL',
    default: 'info',
  },
} as const satisfies CommandOptions;

/** The proxy's options beside the table's rows that name it (wiring/option-table.ts). */
export const PROXY_OPTIONS = {
  failOnViolation: {
    flag: '--fail-on-violation',
    doc: 'exit with 1 on SIGTERM/SIGINT if any violation was seen',
  },
} as const satisfies CommandOptions;

/** `petstore-kit coverage`. */
export const COVERAGE_OPTIONS = {
  url: { flag: '-u, --url <url>', doc: 'the running mock, e.g. http://127.0.0.1:4010' },
  coverageFile: {
    flag: '--coverage-file <file>',
    doc: "the run's coverage a mock kept in this file (its --coverage-file), read instead of a running mock",
  },
  session: {
    flag: '--session <id>',
    doc: 'the coverage of this Mock-Session (default: the default state)',
  },
  run: {
    flag: '--run',
    doc: 'the coverage of every request of every session since the mock started, resets and all: what a whole end-to-end run exercised',
  },
  format: {
    flag: '--format <format>',
    doc: 'how to print the table',
    choices: COVERAGE_FORMATS,
    default: 'text',
  },
  min: {
    flag: '--min <percent>',
    doc: 'exit 1 when fewer documented statuses were exercised',
    read: parsePercent,
  },
  apiKey: {
    flag: '-k, --api-key <key>',
    doc: 'a key the mock accepts (its admin API asks for one)',
    env: 'API_KEY',
    default: DEFAULT_API_KEY,
  },
} as const satisfies CommandOptions;

/** `petstore-kit workflow <file>`. */
export const WORKFLOW_OPTIONS = {
  server: repeated(
    '--server <sourceName=url>',
    'the base URL of one source description; repeatable',
  ),
  baseUrl: {
    flag: '-u, --base-url <url>',
    doc: 'the base URL of the one source description',
    env: 'BASE_URL',
  },
  input: repeated('--input <name=value>', 'an input of the workflows; repeatable'),
  inputs: { flag: '--inputs <file>', doc: 'a JSON file of inputs by name' },
  apiKey: {
    flag: '-k, --api-key <key>',
    doc: 'the token of bearer, API key, OAuth 2 and OpenID Connect schemes (prefer the env var)',
    env: 'API_KEY',
  },
  credential: repeated(
    '--credential <scheme=value>',
    'the credential of one security scheme (scheme[scope,...]=token for OAuth 2); repeatable',
  ),
  workflow: repeated('-w, --workflow <id>', 'run this workflow only; repeatable'),
  mock: {
    flag: '--mock',
    doc: 'run against the mock of each source description, in the process (no socket)',
  },
  format: {
    flag: '-f, --format <format>',
    doc: 'report format',
    choices: WORKFLOW_FORMATS,
    default: 'text',
  },
  output: {
    flag: '-o, --output <file>',
    doc: 'write the report to this file (the summary to stdout)',
    read: (file: string) => resolve(file),
  },
} as const satisfies CommandOptions;

/** `petstore-kit workflow from-har <file.har>`. */
export const FROM_HAR_OPTIONS = {
  spec: {
    flag: '--spec <path>',
    doc: 'the OpenAPI document the calls went to (default: the bundled spec)',
  },
  output: { flag: '-o, --output <file>', doc: 'where to write the workflow (default: stdout)' },
  baseUrl: { flag: '--base-url <url>', doc: "the API's URL as recorded, base path included" },
  workflowId: { flag: '--workflow-id <id>', doc: "the workflow's id", default: 'recorded' },
} as const satisfies CommandOptions;

/** `petstore-kit diff <old> <new>`. */
export const DIFF_OPTIONS = {
  format: {
    flag: '-f, --format <format>',
    doc: 'report format',
    choices: DIFF_FORMATS,
    default: 'text',
  },
  failOn: {
    flag: '--fail-on <level>',
    doc: 'exit 1 on a change at this level or above',
    choices: LEVELS,
    default: 'breaking',
  },
  config: { flag: '-c, --config <file>', doc: 'JSON or YAML file raising or lowering rule levels' },
} as const satisfies CommandOptions;

/** `petstore-kit traffic <file.har>`. */
export const TRAFFIC_OPTIONS = {
  spec: {
    flag: '--spec <path>',
    doc: 'the OpenAPI document to judge by (default: the bundled spec)',
  },
  baseUrl: {
    flag: '--base-url <url>',
    doc: "the API's URL as recorded, base path included (default: every exchange under the description's base path)",
  },
  format: {
    flag: '-f, --format <format>',
    doc: 'report format',
    choices: ['text', 'json'],
    default: 'text',
  },
  minCoverage: {
    flag: '--min-coverage <percent>',
    doc: 'exit 1 when the recording exercised less of the documented operation statuses',
    read: parsePercent,
  },
} as const satisfies CommandOptions;
