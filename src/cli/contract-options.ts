// The options of `petstore-kit contract`, each declared once (see command-options.ts): cli.ts
// makes its flags from them, contract-command.ts its options type and its defaults, and
// docs/options.md lists them. A module of no heavy imports: declaring the flags loads no suite.
import { resolve } from 'node:path';
import { repeated, type CommandOptions, type FlagsOf } from './command-options.js';
import { parseCount, parsePercent, parsePositive } from './parse.js';

/** The options of `petstore-kit contract`, in the order its help lists them. */
export const CONTRACT_OPTIONS = {
  spec: {
    flag: '--spec <path>',
    doc: 'OpenAPI document of the interface to check (default: the bundled spec)',
  },
  baseUrl: {
    flag: '-u, --base-url <url>',
    doc: 'base URL of the deployment, e.g. https://staging.example.com/v1',
    env: 'BASE_URL',
  },
  apiKey: {
    flag: '-k, --api-key <key>',
    doc: 'a valid key of the deployment: the token of its bearer, API key, OAuth 2 and OpenID Connect schemes (prefer the env var)',
    env: 'API_KEY',
  },
  basic: {
    flag: '--basic <user:password>',
    doc: 'valid credentials of its HTTP basic schemes (prefer the env var)',
    env: 'BASIC_AUTH',
  },
  credential: repeated(
    '--credential <scheme=value>',
    'the value of one security scheme of the spec, scheme[read,write]=token for an OAuth 2 or OpenID Connect token holding those scopes; repeatable (env CONTRACT_CREDENTIALS: a JSON object scheme to value)',
  ),
  server: {
    flag: '-s, --server <name>',
    doc: "take the base URL from the spec's server of that description (production, staging)",
  },
  serverVariable: repeated(
    '--server-variable <name=value>',
    'fill a variable of that server URL; repeatable',
  ),
  reporter: {
    flag: '-r, --reporter <name>',
    doc: 'report format',
    choices: ['default', 'junit', 'json'],
    default: 'default',
  },
  output: {
    flag: '-o, --output <file>',
    doc: 'where --reporter junit writes its XML (json: its JSON, else to stdout)',
    // Resolved here, from where the user stands, before anything else reads it.
    read: (file: string) => resolve(file),
  },
  readOnly: {
    flag: '--read-only',
    doc: 'skip every check that writes (creates, updates, deletes): for production',
  },
  seed: {
    flag: '--seed <seed>',
    doc: 'seed of the generated cases (default: a random one, in the replay command)',
    env: 'CONTRACT_SEED',
    read: parseCount,
  },
  budget: {
    flag: '--budget <count>',
    doc: 'bodies generated from the spec in all, half valid (0: none)',
    env: 'CONTRACT_BUDGET',
    default: 100,
    read: parseCount,
  },
  timeout: {
    flag: '--timeout <ms>',
    doc: 'milliseconds one request may take, for slow networks',
    env: 'CONTRACT_TIMEOUT',
    default: 10_000,
    read: parsePositive,
  },
  ruleTimeout: {
    flag: '--rule-timeout <ms>',
    doc: 'milliseconds one rule may take, its generated cases included; past it the rule is not judged',
    env: 'CONTRACT_RULE_TIMEOUT',
    default: 60_000,
    read: parsePositive,
  },
  receiver: {
    flag: '--receiver <host:port>',
    doc: 'listen there for the callbacks and webhooks the target sends, and check them (the target must reach it; give its webhooks this URL)',
    env: 'CONTRACT_RECEIVER',
  },
  minCoverage: {
    flag: '--min-coverage <percent>',
    doc: 'fail the run (exit 1) when it exercises less of the documented operation statuses, or of the documented (operation, security scheme) pairs',
    env: 'CONTRACT_MIN_COVERAGE',
    read: parsePercent,
  },
} as const satisfies CommandOptions;

/** The options of a contract run, as its flags give them; a caller in code may leave any to its default. */
export type ContractFlags = Partial<FlagsOf<typeof CONTRACT_OPTIONS>>;
