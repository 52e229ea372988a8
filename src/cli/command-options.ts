// The options of a command other than the mock's (whose rows are wiring/option-table.ts),
// each declared once: its flag, variable, default, help line and how its text is read. The
// command's commander options, its options type (FlagsOf) and docs/options.md are made from it.
import { InvalidArgumentError, Option, type Command } from 'commander';

/** One option of a command: what commander is told, once. */
export interface CommandOption<V = unknown> {
  /** As commander takes it: `-u, --base-url <url>`; without `<...>`, a flag that takes no value. */
  readonly flag: string;
  /** Its help line. */
  readonly doc: string;
  /** The variable the flag falls back to. */
  readonly env?: string;
  /** The value when none is given. */
  readonly default?: V;
  /** The default as the help prints it, where the value does not say it. */
  readonly defaultText?: string;
  /** The only values it takes. */
  readonly choices?: readonly string[];
  /**
   * Its value from the flag's text (and the value before, for a repeatable flag).
   * @throws {InvalidArgumentError} saying why the text is refused.
   */
  read?(text: string, previous: V | undefined): V;
  /** Whether the command cannot run without it. */
  readonly mandatory?: true;
}

/** A command's options, by the name commander gives each one's value (`--base-url`: `baseUrl`). */
export type CommandOptions = Readonly<Record<string, CommandOption>>;

/** The value of one option: what its `read` gives, else text, else (a flag alone) a boolean. */
type ValueOf<O> = O extends { choices: readonly (infer C)[] }
  ? C
  : O extends { read(text: string, previous: never): infer V }
    ? V
    : O extends { default: infer V }
      ? V
      : O extends { flag: `${string}<${string}` }
        ? string
        : boolean;

/** The names of the options with a default, or mandatory: commander always hands those on. */
type Defaulted<T> = {
  [K in keyof T]: T[K] extends { default: unknown } | { mandatory: true } ? K : never;
}[keyof T];

/**
 * The options a command's action is handed, made from its declaration: those with a default
 * are always there, the others only when given.
 * @example type DiffFlags = FlagsOf<typeof DIFF_OPTIONS>; // { format: 'text' | ...; config?: string }
 */
export type FlagsOf<T extends CommandOptions> = {
  -readonly [K in Exclude<keyof T, Defaulted<T>>]?: ValueOf<T[K]>;
} & { -readonly [K in Defaulted<T>]: ValueOf<T[K]> };

/**
 * A repeatable option: every value given, in order.
 * @example repeated('--input <name=value>', 'an input; repeatable')
 */
export function repeated(
  flag: string,
  doc: string,
): CommandOption<string[]> & { read(text: string, previous: string[] | undefined): string[] } {
  return { flag, doc, read: (text, previous = []) => [...previous, text] };
}

/**
 * Adds a command's declared options to it, in their order.
 * @example addCommandOptions(new Command('contract'), CONTRACT_OPTIONS)
 */
export function addCommandOptions<C extends Command>(command: C, options: CommandOptions): C {
  for (const declared of Object.values(options)) {
    const option = new Option(declared.flag, declared.doc);
    if (declared.env) option.env(declared.env);
    if (declared.choices) option.choices(declared.choices);
    if (declared.default !== undefined) option.default(declared.default, declared.defaultText);
    else if (declared.defaultText !== undefined) option.default(undefined, declared.defaultText);
    const { read } = declared;
    if (read)
      option.argParser((text: string, previous: unknown) => {
        // Commander hands the default as the value before: a repeatable flag starts afresh.
        const before = previous === declared.default ? undefined : previous;
        try {
          return read.call(declared, text, before);
        } catch (err) {
          if (err instanceof InvalidArgumentError) throw err;
          throw new InvalidArgumentError(err instanceof Error ? err.message : String(err));
        }
      });
    if (declared.mandatory) option.makeOptionMandatory();
    command.addOption(option);
  }
  return command;
}
