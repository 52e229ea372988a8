// The flags of the mock's options, made from their table: each flag hands its text on as it
// is, and the one check of the options (validateOptions) reads it, so that a bad flag and a
// bad library option are refused with the same line.
import { Option, type Command } from 'commander';
import {
  defaultText,
  MOCK_OPTIONS,
  type CommandName,
  type FlagRow,
  type OptionName,
  type OptionRow,
} from '../wiring/option-table.js';
import { splitList } from '../wiring/option-kinds.js';

interface TableFlag {
  name: OptionName;
  row: OptionRow<unknown>;
  flag: FlagRow;
}

function flagsOf(command: CommandName): TableFlag[] {
  return (Object.entries(MOCK_OPTIONS) as [OptionName, OptionRow<unknown>][]).flatMap(
    ([name, row]) =>
      (row.flags ?? [])
        .filter((flag) => (flag.commands ?? ['mock']).includes(command))
        .map((flag) => ({ name, row, flag })),
  );
}

/** Whether a flag takes a value (`--port <port>`), rather than being given or not (`--watch`). */
function takesValue(flag: FlagRow): boolean {
  return flag.flag.includes('<');
}

/** The help line of a flag: its doc, and the default where it takes a value. */
function helpOf({ row, flag }: TableFlag): string {
  const doc = flag.doc ?? row.doc;
  const shown =
    flag.cliDefault !== undefined && takesValue(flag)
      ? String(flag.cliDefault)
      : takesValue(flag)
        ? defaultText(row)
        : undefined;
  return shown === undefined ? doc : `${doc} (default: ${shown})`;
}

/**
 * Adds the flags of the mock's options that `command` takes, as the table describes them.
 * @example addOptionFlags(program.command('mock'), 'mock');
 */
export function addOptionFlags(target: Command, command: CommandName): Command {
  for (const one of flagsOf(command)) {
    const option = new Option(one.flag.flag, helpOf(one));
    if (one.flag.env) option.env(one.flag.env);
    // Split here only to count the values: each one is checked with the rest (validateOptions).
    if (one.flag.repeatable)
      option.argParser((value: string, previous: string[] = []) => [
        ...previous,
        ...splitList(value),
      ]);
    if (one.flag.mandatory) option.makeOptionMandatory();
    target.addOption(option);
  }
  return target;
}

/**
 * The options the flags (and their variables) of `command` give, by option name, as text:
 * only those given, and the CLI's own defaults; validateOptions reads them.
 * @example optionValues(mock, 'mock') // { port: '4010', seedCount: '3', logRequests: true }
 */
export function optionValues(target: Command, command: CommandName): Record<string, unknown> {
  const given: Record<string, unknown> = {};
  for (const { name, flag } of flagsOf(command)) {
    const option = target.options.find((one) => one.flags === flag.flag);
    const attribute = option?.attributeName();
    const source = attribute ? target.getOptionValueSource(attribute) : undefined;
    if (attribute === undefined || (source !== 'cli' && source !== 'env')) {
      if (flag.cliDefault !== undefined && !(name in given)) given[name] = flag.cliDefault;
      continue;
    }
    const value: unknown = target.getOptionValue(attribute);
    const raw = takesValue(flag) ? value : (flag.sets ?? true);
    given[name] = flag.into ? flag.into(raw as string | readonly string[]) : raw;
  }
  return given;
}
