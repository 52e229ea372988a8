import { createRequire } from 'node:module';
import { Command, Option } from 'commander';
import type { LogLevel } from '../http/log-levels.js';
import { DEFAULTS, validateOptions } from '../wiring/options.js';
import type { RunningMock } from '../wiring/start-mock.js';
import type { RunningProxy } from '../wiring/start-proxy.js';
import type { ProxyFlags } from './proxy-command.js';
import type { ContractCommandOptions } from './contract-command.js';
import type { CoverageFlags } from './coverage-command.js';
import { ContractExit } from './contract-defaults.js';
import { CONTRACT_OPTIONS } from './contract-options.js';
import { addCommandOptions, type CommandOptions } from './command-options.js';
import {
  COVERAGE_OPTIONS,
  DIFF_OPTIONS,
  FROM_HAR_OPTIONS,
  LOG_OPTIONS,
  PROXY_OPTIONS,
  TRAFFIC_OPTIONS,
  WORKFLOW_OPTIONS,
} from './command-tables.js';
import type { DiffCommandOptions } from './diff-command.js';
import type { FromHarOptions } from './from-har-command.js';
import type { TrafficCommandOptions } from './traffic-command.js';
import type { WorkflowCommandOptions } from './workflow-command.js';
import type { TypesCommandFlags } from './types-command.js';
import { TYPE_OPTIONS } from '../openapi/typegen/options.js';
import { addOptionFlags, optionValues } from './option-flags.js';

/**
 * Every command, declared once: its description and the options it declares (beside the
 * table's flags, which `mock` and `proxy` add from wiring/option-table.ts, and the log flags
 * `proxy` shares with `mock`). The CLI builds each command from here, and docs/options.md
 * (scripts/options-doc.ts) lists their options from here; `types` takes the generator's
 * options (TYPE_OPTIONS).
 * @internal for scripts/options-doc.ts and its tests: no part of the package's surface
 */
export const COMMANDS = {
  mock: { description: 'run the stateful mock server (docs/options.md)', options: LOG_OPTIONS },
  proxy: {
    description:
      'forward every request to a real API and check requests and answers against the spec (docs/proxy.md)',
    options: PROXY_OPTIONS,
  },
  contract: {
    description:
      'run the contract suite against a deployment; exit 0 if it conforms, 1 if not, 2 if it cannot tell',
    options: CONTRACT_OPTIONS,
  },
  coverage: {
    description:
      'print which documented statuses of each operation a running mock answered (its requests since the last reset); exit 1 below --min, 2 if the mock cannot tell',
    options: COVERAGE_OPTIONS,
  },
  types: {
    description:
      "write the spec's TypeScript types (openapi-typescript's shape, written with no compiler: TypeScript 5 and 7 read them)",
  },
  workflow: {
    description:
      'run the workflows of an Arazzo 1.0 or 1.1 document against a deployment or the mock; exit 0 if every one passed, 1 if a step failed, 2 if they cannot run',
    options: WORKFLOW_OPTIONS,
  },
  'workflow from-har': {
    description:
      'write the calls a HAR recorded as an Arazzo workflow whose steps carry the values each answer gave; exit 0 written, 2 if nothing could be',
    options: FROM_HAR_OPTIONS,
  },
  diff: {
    description:
      'tell whether a client written against <old> can fail against a server implementing <new>; exit 0 if not, 1 if so, 2 if it cannot tell',
    options: DIFF_OPTIONS,
  },
  traffic: {
    description:
      'judge every exchange of a HAR recording against the description; exit 0 if the server kept to it, 1 if not (or below --min-coverage), 2 if nothing could be judged',
    options: TRAFFIC_OPTIONS,
  },
} as const satisfies Readonly<Record<string, { description: string; options?: CommandOptions }>>;

/** The variables a run of the CLI sees: the process's in bin.ts, a test's own in process. */
type Env = Readonly<Record<string, string | undefined>>;

/**
 * Every command of the CLI: an option's variable (`PORT`, `BASE_URL`...) is read from the run's
 * `env`, and its subcommands are made alike.
 */
class KitCommand extends Command {
  /** Commander's Command is an EventEmitter, which its typings leave out. */
  declare emit: (event: string, ...args: unknown[]) => boolean;

  constructor(
    name: string | undefined,
    private readonly env: Env,
  ) {
    super(name);
  }

  override createCommand(name?: string): Command {
    return new KitCommand(name, this.env);
  }

  /**
   * Commander's own step that applies the options' variables, which reads `process.env`: the same
   * priority (a flag given outranks its variable), from the run's `env`.
   */
  _parseOptionsEnv(): void {
    for (const option of this.options) {
      const value = option.envVar === undefined ? undefined : this.env[option.envVar];
      if (value === undefined) continue;
      const key = option.attributeName();
      const source = this.getOptionValueSource(key) ?? '';
      if (this.getOptionValue(key) !== undefined && !['default', 'config', 'env'].includes(source))
        continue;
      // A flag that takes no value is set by its variable being there at all.
      if (option.required || option.optional) this.emit(`optionEnv:${option.name()}`, value);
      else this.emit(`optionEnv:${option.name()}`);
    }
  }
}

/**
 * The `contract` command: a bad option is a setup problem, which it reports as every other,
 * in one line, with exit code 2 (1 says the target broke a rule).
 */
class ContractCommand extends KitCommand {
  override error(message: string, options?: { code?: string; exitCode?: number }): never {
    const line = message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
    return super.error(`petstore-kit contract: ${line}`, {
      ...options,
      exitCode: ContractExit.unusable,
    });
  }
}

/** The `diff` command: like `contract`, a bad option is a setup problem, exit code 2. */
class CheckCommand extends KitCommand {
  override error(message: string, options?: { code?: string; exitCode?: number }): never {
    const line = message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
    return super.error(`petstore-kit ${this.name()}: ${line}`, { ...options, exitCode: 2 });
  }
}

/** `petstore-kit workflow`: runs the workflows of an Arazzo document (docs/workflows.md). */
function workflowCommand(io: CliIo): Command {
  return addCommandOptions(
    new CheckCommand('workflow', io.env ?? {})
      .description(COMMANDS.workflow.description)
      .argument('<file>', 'the Arazzo document, e.g. flows.arazzo.yaml'),
    COMMANDS.workflow.options,
  ).action(async (file: string, options: WorkflowCommandOptions) => {
    const { runWorkflowCommand } = await import('./workflow-command.js');
    // Run first: `io.onExitCode?.(await ...)` would skip the run when no callback is given.
    const code = await runWorkflowCommand(file, options, io);
    io.onExitCode?.(code);
  });
}

/**
 * The `types` command: an unknown option is told in one line with the valid ones, exit code 2
 * (the generator's options are many, and openapi-typescript users bring its flags).
 */
class TypesCommand extends KitCommand {
  override error(message: string, options?: { code?: string; exitCode?: number }): never {
    let line = message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
    if (options?.code === 'commander.unknownOption') {
      const valid = this.options.map((option) => option.long ?? option.short).join(', ');
      line = `${line}: the options are ${valid}`;
    }
    return super.error(`petstore-kit types: ${line}`, { ...options, exitCode: 2 });
  }
}

/** `petstore-kit types`: the spec, the output, and the generator's options (TYPE_OPTIONS). */
function typesCommand(io: CliIo): Command {
  const command = new TypesCommand('types', io.env ?? {})
    .description(COMMANDS.types.description)
    .addOption(
      new Option('--spec <path>', 'OpenAPI document to read').default(
        DEFAULTS.spec,
        'the bundled spec',
      ),
    )
    .addOption(new Option('-o, --output <file>', 'the file to write (default: stdout)'));
  for (const { flag, doc, default: on } of Object.values(TYPE_OPTIONS)) {
    command.addOption(new Option(`--${flag}`, `${doc}${on ? ' (on by default)' : ''}`));
    if (on) command.addOption(new Option(`--no-${flag}`, `turn --${flag} off`));
  }
  return command.action(async (options: TypesCommandFlags) => {
    const { runTypes } = await import('./types-command.js');
    const code = await runTypes(options, io);
    io.onExitCode?.(code);
  });
}

/** Where the CLI writes: the process's streams in production, buffers in tests. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Called with each mock once it listens. */
  onListening?: (mock: RunningMock) => void;
  /** Called with each proxy once it listens. */
  onProxy?: (proxy: RunningProxy) => void;
  /** Called with the exit code of a command that ends by itself (`contract`), or a proxy's on its stop. */
  onExitCode?: (code: number) => void;
  /**
   * The file descriptor `stdout` writes to, when the process owns it (bin.ts: 1): log lines
   * are then written to it buffered, flushed at exit, not one synchronous write each.
   */
  stdoutFd?: number;
  /** The variables the options fall back to (`PORT`, `BASE_URL`...); none when not given. */
  env?: Env;
}

/**
 * The `petstore-kit` command line. The mock's flags, and the variables they fall back to
 * (`PORT`, `HOST`, `API_KEYS`...), come from the table of options (wiring/option-table.ts).
 * It never exits the process: where commander would, it throws a CommanderError with the exit
 * code (run.ts turns it into the run's).
 * @example await createCli({ stdout: process.stdout, stderr: process.stderr }).parseAsync(['mock'], { from: 'user' });
 */
export function createCli(io: CliIo): Command {
  const env = io.env ?? {};
  const program = new KitCommand('petstore-kit', env)
    .exitOverride()
    .description(
      'Stateful mock server and contract tests for any API its OpenAPI document describes (the Pet Store categories interface by default)',
    )
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .version(packageVersion(), '-v, --version', 'print the version')
    .helpCommand(true)
    // A command's options are read where they stand: `workflow from-har x.har -o flow.yaml` is the subcommand's `-o`.
    .enablePositionalOptions()
    .allowExcessArguments()
    // Bare `petstore-kit` asks what there is: the help, on stdout, and success. A word that
    // names no command is still an error (an action on the program would take it as an operand).
    .action((_options: unknown, command: Command) => {
      const [unknown] = command.args;
      if (unknown !== undefined) command.error(`error: unknown command '${unknown}'`);
      program.outputHelp();
    });

  addLogFlags(
    addOptionFlags(program.command('mock').description(COMMANDS.mock.description), 'mock'),
  ).action(async (flags: { logFormat: LogFormat; logLevel: LogLevel }, command: Command) => {
    // Checked before the server's modules load: a refused option is told in a third of the time.
    const options = validateOptions(optionValues(command, 'mock'));
    const { runMock } = await import('./mock-command.js');
    await runMock(options, await loggerOf(flags, io), io.onListening);
  });

  addCommandOptions(
    addLogFlags(
      addOptionFlags(program.command('proxy').description(COMMANDS.proxy.description), 'proxy'),
    ),
    COMMANDS.proxy.options,
  ).action(async (flags: ProxyFlags, command: Command) => {
    const shared = validateOptions(optionValues(command, 'proxy'), 'proxy');
    const { runProxy } = await import('./proxy-command.js');
    await runProxy(flags, shared, await loggerOf(flags, io), io.onProxy, io.onExitCode);
  });

  program.addCommand(
    addCommandOptions(
      new ContractCommand('contract', env)
        .copyInheritedSettings(program)
        .description(COMMANDS.contract.description),
      COMMANDS.contract.options,
    ).action(async (options: ContractCommandOptions, command: Command) => {
      const baseUrlSource = command.getOptionValueSource('baseUrl');
      // Loaded here only: the suite's modules are no part of the mock's start-up.
      const { runContract } = await import('./contract-command.js');
      // A JSON object is no one flag's value: read here, with the other env vars.
      const credentialsJson = env.CONTRACT_CREDENTIALS;
      const code = await runContract(
        { ...options, baseUrlSource, credentialsJson },
        { ...io, env },
      );
      io.onExitCode?.(code);
    }),
  );

  addCommandOptions(
    program.command('coverage').description(COMMANDS.coverage.description),
    COMMANDS.coverage.options,
  ).action(async (options: CoverageFlags) => {
    const { runCoverage } = await import('./coverage-command.js');
    const code = await runCoverage(options, io);
    io.onExitCode?.(code);
  });
  program.addCommand(typesCommand(io).copyInheritedSettings(program));
  const workflow = workflowCommand(io).copyInheritedSettings(program).enablePositionalOptions();
  workflow.addCommand(
    addCommandOptions(
      new CheckCommand('from-har', env)
        .copyInheritedSettings(program)
        .description(COMMANDS['workflow from-har'].description)
        .argument(
          '<file.har>',
          "a HAR 1.2 file: a browser's network panel, Playwright's recordHar, or the proxy's --har",
        ),
      COMMANDS['workflow from-har'].options,
    ).action(async (file: string, options: FromHarOptions) => {
      const { runFromHar } = await import('./from-har-command.js');
      const code = await runFromHar(file, options, io);
      io.onExitCode?.(code);
    }),
  );
  program.addCommand(workflow);
  program.addCommand(
    addCommandOptions(
      new CheckCommand('diff', env)
        .copyInheritedSettings(program)
        .description(COMMANDS.diff.description)
        .argument('<old>', 'the OpenAPI document as it was (Swagger 2.0, OpenAPI 3.0, 3.1, 3.2)')
        .argument('<new>', 'the OpenAPI document as it is to be'),
      COMMANDS.diff.options,
    ).action(async (old: string, now: string, options: DiffCommandOptions) => {
      const { runDiff } = await import('./diff-command.js');
      const code = await runDiff(old, now, options, io);
      io.onExitCode?.(code);
    }),
  );
  program.addCommand(
    addCommandOptions(
      new CheckCommand('traffic', env)
        .copyInheritedSettings(program)
        .description(COMMANDS.traffic.description)
        .argument(
          '<file.har>',
          "a HAR 1.2 file: a browser's network panel, Playwright's recordHar, or the proxy's --har",
        ),
      COMMANDS.traffic.options,
    ).action(async (file: string, options: TrafficCommandOptions) => {
      const { runTraffic } = await import('./traffic-command.js');
      const code = await runTraffic(file, options, io);
      io.onExitCode?.(code);
    }),
  );

  return program;
}

/** The version in package.json: two folders up, from src/cli/ and from dist/cli/ alike. */
function packageVersion(): string {
  const manifest: unknown = createRequire(import.meta.url)('../../package.json');
  return (manifest as { version: string }).version;
}

/** `--log-format` and `--log-level`, which the mock and the proxy take alike. */
function addLogFlags(command: Command): Command {
  return addCommandOptions(command, LOG_OPTIONS);
}

/** Request log lines: pretty for people on a terminal, JSON for tools. */
type LogFormat = 'auto' | 'pretty' | 'json';

/** Loaded by the commands that log (mock, proxy): a contract run or a diff loads no pino. */
async function loggerOf(flags: { logFormat: LogFormat; logLevel: LogLevel }, io: CliIo) {
  const { createLogger, prettyInstalled } = await import('../http/logger.js');
  const format = flags.logFormat;
  // On a terminal, lines for people when their formatter (an optional peer) is installed.
  const pretty =
    format === 'pretty' ||
    (format === 'auto' && (io.stdout as { isTTY?: boolean }).isTTY === true && prettyInstalled());
  return createLogger(io.stdout, {
    pretty,
    level: flags.logLevel,
    ...(io.stdoutFd === undefined ? {} : { bufferedFd: io.stdoutFd }),
  });
}
