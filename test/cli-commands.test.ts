// The commands are declared once (src/cli/cli.ts COMMANDS): the CLI is built from the
// declaration and docs/options.md lists it, so no command can be in one and not the other.
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_OPTIONS } from '../scripts/options-doc.js';
import { COMMANDS, createCli } from '../src/cli/cli.js';

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/** Every command of a program and of its commands, by its words: `workflow from-har`. */
function commandsOf(command: Command, prefix = ''): [string, Command][] {
  return command.commands.flatMap((sub) => {
    const name = `${prefix}${sub.name()}`;
    return [[name, sub] as [string, Command], ...commandsOf(sub, `${name} `)];
  });
}

describe('the one declaration of the commands', () => {
  it('is every command the CLI has, each with its declared description', () => {
    const built = commandsOf(createCli({ stdout: sink(), stderr: sink() }));
    expect(built.map(([name]) => name).sort()).toEqual(Object.keys(COMMANDS).sort());
    for (const [name, command] of built)
      expect(command.description(), name).toBe(COMMANDS[name as keyof typeof COMMANDS].description);
  });

  it("is what the options page lists: every command's declared options", () => {
    const declared = Object.entries(COMMANDS).filter(([, command]) => 'options' in command);
    expect(Object.keys(COMMAND_OPTIONS)).toEqual(declared.map(([name]) => name));
  });
});
