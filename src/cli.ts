import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createApp } from './app.js';
import type { ContractCommandOptions } from './contract-command.js';
import { createLogger, type Logger } from './logger.js';
import { generateCategories } from './seed-data.js';
import { basePathOf } from './servers.js';
import { DEFAULT_SPEC_PATH, loadSpec } from './spec.js';
import { createMemoryStore } from './store.js';

/** Accepted when no key is configured, so that `npm start` works out of the box. */
export const DEFAULT_API_KEY = 'petstore-kit-dev-key';

export interface MockCommandOptions {
  port: number;
  host: string;
  apiKey?: string[];
  seedCount: number;
  seed: number;
  spec: string;
  quiet?: boolean;
}

/** A mock started by the CLI: where it listens, and how to stop it. */
export interface RunningMock {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Where the CLI writes: the process's streams in production, buffers in tests. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Called with each mock once it listens. */
  onListening?: (mock: RunningMock) => void;
  /** Called with the exit code of a command that ends by itself (`contract`). */
  onExitCode?: (code: number) => void;
}

/**
 * The `petstore-kit` command line. Options fall back to environment variables
 * (`PORT`, `HOST`, `API_KEYS`), which commander reads.
 * @example await createCli({ stdout: process.stdout, stderr: process.stderr }).parseAsync(process.argv);
 */
export function createCli(io: CliIo): Command {
  const program = new Command('petstore-kit')
    .description('Mock server and contract tests for the Pet Store categories interface')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });

  program
    .command('mock')
    .description('run the stateful mock server')
    .addOption(
      new Option('-p, --port <port>', 'port to listen on')
        .env('PORT')
        .default(4010)
        .argParser(parsePort),
    )
    .addOption(
      new Option('-H, --host <host>', 'address to listen on').env('HOST').default('127.0.0.1'),
    )
    .addOption(
      new Option(
        '-k, --api-key <key>',
        `an accepted API key; repeat for several (default: ${DEFAULT_API_KEY})`,
      )
        .env('API_KEYS')
        .argParser(collectKeys),
    )
    .addOption(
      new Option('--seed-count <count>', 'categories generated at start-up (0 for an empty store)')
        .default(10)
        .argParser(parseCount),
    )
    .addOption(
      new Option('--seed <seed>', 'seed of the generated categories')
        .default(1)
        .argParser(parseInteger),
    )
    .addOption(
      new Option('--spec <path>', 'OpenAPI document to serve').default(
        DEFAULT_SPEC_PATH,
        'the bundled spec',
      ),
    )
    .addOption(new Option('-q, --quiet', 'log no line per request'))
    .action(async (options: MockCommandOptions) => {
      await startMock(options, createLogger(io.stdout), io.onListening);
    });

  program
    .command('contract')
    .description(
      'run the contract suite against a deployment; exit 0 if it conforms, 1 if not, 2 if it cannot tell',
    )
    .addOption(
      new Option(
        '-u, --base-url <url>',
        'base URL of the deployment, e.g. https://staging.example.com/v1',
      ).env('BASE_URL'),
    )
    .addOption(
      new Option(
        '-k, --api-key <key>',
        'a valid API key of the deployment (prefer the env var)',
      ).env('API_KEY'),
    )
    .addOption(
      new Option(
        '-s, --server <name>',
        "take the base URL from the spec's server of that description (production, staging)",
      ),
    )
    .addOption(
      new Option(
        '--server-variable <name=value>',
        'fill a variable of that server URL; repeatable',
      ).argParser((value: string, previous: string[] = []) => [...previous, value]),
    )
    .addOption(
      new Option('-r, --reporter <name>', 'report format')
        .choices(['default', 'junit'])
        .default('default'),
    )
    .addOption(
      // Resolved here, from where the user stands: vitest would resolve it from its own root.
      new Option('-o, --output <file>', 'where --reporter junit writes its XML').argParser(
        (file: string) => resolve(file),
      ),
    )
    .addOption(new Option('--read-only', 'skip every check that creates data (for production)'))
    .addOption(
      new Option('--seed <seed>', 'seed of the generated cases (default: a random one, printed)')
        .env('CONTRACT_SEED')
        .argParser(parseCount),
    )
    .addOption(
      new Option('--budget <count>', 'bodies generated from the spec, half valid (0: none)')
        .env('CONTRACT_BUDGET')
        .default(100)
        .argParser(parseCount),
    )
    .addOption(
      new Option('--timeout <ms>', 'milliseconds one request may take, for slow networks')
        .env('CONTRACT_TIMEOUT')
        .default(10_000)
        .argParser((value: string) => {
          const ms = parseCount(value);
          if (ms === 0) throw new InvalidArgumentError('it must be 1 or more.');
          return ms;
        }),
    )
    .action(async (options: ContractCommandOptions, command: Command) => {
      const baseUrlSource = command.getOptionValueSource('baseUrl');
      // Loaded here only: vitest would add a third to the mock's start-up.
      const { runContract } = await import('./contract-command.js');
      io.onExitCode?.(await runContract({ ...options, baseUrlSource }, io));
    });

  return program;
}

async function startMock(
  options: MockCommandOptions,
  logger: Logger,
  onListening: (mock: RunningMock) => void = () => {},
): Promise<RunningMock> {
  const spec = await loadSpec(options.spec);
  const store = createMemoryStore();
  for (const category of generateCategories({ count: options.seedCount, seed: options.seed }))
    store.create(category);
  const keys = options.apiKey?.length ? options.apiKey : [DEFAULT_API_KEY];
  const app = createApp({ spec, apiKeys: keys, store, logger, logRequests: !options.quiet });

  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err: NodeJS.ErrnoException) => {
    throw new Error(listenFailure(err, options));
  });

  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}${basePathOf(spec.resolved)}`;
  const mock: RunningMock = {
    url,
    server,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // A client that never finishes its request must not keep the mock from stopping.
        setTimeout(() => server.closeAllConnections(), 3000).unref();
      }),
  };
  // Before the announcement: whoever acts on it (a signal, a request) finds the mock ready.
  onListening(mock);
  logger.info(
    { url, categories: store.list().length, keys: keys.length },
    `petstore-kit mock listening on ${url}` +
      (options.apiKey?.length ? '' : ` (API key: ${DEFAULT_API_KEY})`),
  );

  return mock;
}

function listenFailure(err: NodeJS.ErrnoException, options: MockCommandOptions): string {
  const where = `${options.host}:${options.port}`;
  if (err.code === 'EADDRINUSE') return `cannot listen on ${where}: the port is already in use`;
  if (err.code === 'EACCES') return `cannot listen on ${where}: permission denied`;
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
    return `cannot listen on ${where}: no such address`;
  return `cannot listen on ${where}: ${err.message}`;
}

function parseInteger(value: string): number {
  if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError('it must be a whole number.');
  return Number(value);
}

function parseCount(value: string): number {
  const count = parseInteger(value);
  if (count < 0) throw new InvalidArgumentError('it must be 0 or more.');
  return count;
}

function parsePort(value: string): number {
  const port = parseInteger(value);
  if (port < 0 || port > 65535) throw new InvalidArgumentError('it must be from 0 to 65535.');
  return port;
}

function collectKeys(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean),
  ];
}
