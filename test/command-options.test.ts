// Every command's options are declared once (command-options.ts): its flags, its options type
// and docs/options.md are made from the declaration, so they cannot disagree.
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_OPTIONS } from '../scripts/options-doc.js';
import { addCommandOptions, repeated, type FlagsOf } from '../src/cli/command-options.js';
import { parseCount } from '../src/cli/parse.js';
import { runCliWith } from './helpers.js';

/** What `petstore-kit <args>` prints, in the process. */
async function run(args: readonly string[]): Promise<string> {
  const { out, err } = await runCliWith(args);
  return out + err;
}

describe("the commands' declared options", () => {
  it('name each option as commander names its value, so that the declared type is what the action gets', () => {
    for (const [command, options] of Object.entries(COMMAND_OPTIONS))
      for (const [name, declared] of Object.entries(options))
        expect(new Option(declared.flag).attributeName(), `${command} ${declared.flag}`).toBe(name);
  });

  it("give every command's help its flags and their variables", async () => {
    for (const [command, options] of Object.entries(COMMAND_OPTIONS)) {
      const help = (await run([...command.split(' '), '--help'])).replace(/\s+/g, ' ');
      for (const declared of Object.values(options)) {
        expect(help, command).toContain(declared.flag);
        if (declared.env) expect(help, command).toContain(`env: ${declared.env}`);
      }
    }
  });

  it('read each value once, a repeatable one into a list, a default when none is given', () => {
    const options = {
      input: repeated('--input <name=value>', 'an input; repeatable'),
      budget: { flag: '--budget <count>', doc: 'bodies', default: 100, read: parseCount },
    } as const;
    const parse = (args: string[]): FlagsOf<typeof options> =>
      addCommandOptions(new Command('x').exitOverride(), options)
        .configureOutput({ writeErr: () => undefined })
        .parse(args, { from: 'user' })
        .opts();
    expect(parse(['--input', 'a=1', '--input', 'b=2'])).toEqual({
      input: ['a=1', 'b=2'],
      budget: 100,
    });
    expect(parse(['--budget', '7']).budget).toBe(7);
    expect(() => parse(['--budget', '-1'])).toThrow(
      /argument '-1' is invalid. it must be 0 or more/,
    );
  });
});
