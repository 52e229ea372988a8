// docs/options.md, written from the table of options (src/wiring/option-table.ts) and the
// declared options of the other commands (src/cli/contract-options.ts, command-tables.ts):
// `npm run docs:options` writes it, and test/options.test.ts holds the page equal to it.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format } from 'prettier';
import {
  defaultText,
  MOCK_OPTIONS,
  type OptionRow,
  type Surface,
} from '../src/wiring/option-table.js';

/** Each surface as the docs name it. */
const SURFACE_NAMES: Readonly<Record<Surface, string>> = {
  startMock: '`startMock`',
  createApp: '`createApp`',
  express: '`mockMiddleware`',
  msw: '`mockHandlers`',
  proxy: '`startProxy`',
};
const SURFACES = Object.keys(SURFACE_NAMES);
import { startupErrors } from '../src/vocabulary/error-catalogue.js';
import type { CommandOptions } from '../src/cli/command-options.js';
import { COMMANDS } from '../src/cli/cli.js';

/** The declared options of every command that declares its own, by command (src/cli/cli.ts COMMANDS). */
export const COMMAND_OPTIONS: Readonly<Record<string, CommandOptions>> = Object.fromEntries(
  Object.entries(COMMANDS).flatMap(([command, declared]) =>
    'options' in declared ? [[command, declared.options]] : [],
  ),
);

/** A command's section: its declared options, one row each. */
function commandSection(command: string, options: CommandOptions): string[] {
  return [
    `### \`petstore-kit ${command}\``,
    '',
    '| Flag | Variable | Default | What it does |',
    '| --- | --- | --- | --- |',
    ...Object.values(options).map((option) => {
      const shown =
        option.defaultText ?? (option.default === undefined ? '' : code(String(option.default)));
      const choices = option.choices ? ` (${option.choices.map(code).join(', ')})` : '';
      return `| ${[
        code(option.flag),
        code(option.env),
        cell(shown),
        cell(`${option.doc}${choices}${option.mandatory ? '; required' : ''}`),
      ].join(' | ')} |`;
    }),
    '',
  ];
}

/** Where the page lives. */
export const OPTIONS_DOC_PATH = fileURLToPath(new URL('../docs/options.md', import.meta.url));

/** A table cell: one line, its pipes escaped. */
function cell(text: string | undefined): string {
  return (text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function code(text: string | undefined): string {
  return text === undefined || text === '' ? '' : `\`${text}\``;
}

/** A value in code; words (`none`, `4010 (CLI), 0 (library)`) as they are. */
function shownDefault(row: OptionRow<unknown>): string {
  const text = defaultText(row);
  return text === undefined || /\s/.test(text) ? (text ?? '') : code(text);
}

function rowLine(name: string, row: OptionRow<unknown>): string {
  // A flag two commands take with their own help lines is one flag.
  const flags = [...new Set((row.flags ?? []).map((flag) => code(flag.flag)))].join(', ');
  const variables = [
    ...new Set((row.flags ?? []).flatMap((flag) => (flag.env ? [code(flag.env)] : []))),
  ];
  const type = row.unit && row.unit !== 'bytes' ? row.unit : row.kind.type;
  const doc = row.shorthandFor ? `${row.doc} Short for \`${row.shorthandFor}\`.` : row.doc;
  return `| ${[
    code(name),
    flags || (row.libraryOnly ? 'library only' : ''),
    variables.join(', '),
    cell(type),
    cell(shownDefault(row)),
    row.takenBy.length === SURFACES.length
      ? 'all'
      : row.takenBy.map((one) => SURFACE_NAMES[one]).join(', '),
    cell(doc),
  ].join(' | ')} |`;
}

/**
 * The page, as prettier writes it (the repository's format check reads docs/ too).
 * @example await renderOptionsDoc() // '# Options of the mock\n...'
 */
export async function renderOptionsDoc(): Promise<string> {
  const rows = Object.entries(MOCK_OPTIONS) as [string, OptionRow<unknown>][];
  const codes = Object.values(startupErrors).map((factory) => code(factory.code));
  const page = [
    '# Options of the mock',
    '',
    '<!-- Written by `npm run docs:options` from src/wiring/option-table.ts: change the table, not this page. -->',
    '',
    "Every option of `petstore-kit mock`, and of the library's `startMock`, `createApp`, `mockMiddleware` (`petstore-kit/express`) and `mockHandlers` (`petstore-kit/msw`), comes from one table: its flag, the variable the flag falls back to, its type, unit and default, and which of them take it (each one's options type is made of its rows: an option another takes is refused, `unknown_option`, never silently ignored). The proxy (`petstore-kit proxy`, `startProxy`) takes its flags from it too.",
    '',
    '```ts',
    '// test/start-mock.ts',
    "import { startMock } from 'petstore-kit';",
    '',
    "const mock = await startMock({ port: 4010, sessionTtlSeconds: 600, storage: { kind: 'file', path: 'mock-data.jsonl' } });",
    '// the same as: npx petstore-kit mock --port 4010 --session-ttl 600 --data mock-data.jsonl',
    'console.log(`serving at ${mock.url}`);',
    '```',
    '',
    '## Rules',
    '',
    '- **Units.** A duration is given in the unit its option name ends in, and its flag takes the same unit: `sessionTtlSeconds` and `--session-ttl 60` are seconds, `delayMs` and `--delay 200` milliseconds. Sizes are bytes; their flags (and the library) also take `512kb`, `1mb`, `2gb`.',
    '- **Variables.** A flag with a variable falls back to it; a repeatable flag\'s variable takes its values comma-separated (`API_KEYS=a,b`). An empty value is refused rather than read as "none given", which would leave the default (the public key, any origin) in force.',
    `- **Errors.** A bad option stops the mock before it serves, with one line that names the option as both the CLI and the library know it, the same for both: a \`StartupError\` whose \`code\` is one of ${codes.join(', ')}. The CLI prints it as \`petstore-kit: <message> [<code>]\` and exits 1, e.g. \`petstore-kit: option port (--port, PORT): it must be from 0 to 65535, not 70000 [invalid_option]\`.`,
    "- **Storage.** `storage` is one of `{ kind: 'memory' }`, `{ kind: 'file', path }`, `{ kind: 'redis', url, prefix?, reseed?, allowEviction? }` and `{ kind: 'custom', store, hasData? }`. The flags `--data` and `--redis` (and the library's `data`, `redis`, `store`) are short for it; two of them, or one with `storage`, are refused (`conflicting_options`).",
    "- **The CLI's own defaults.** The CLI listens on 4010 (the library: a free port) and logs a line per request (`--quiet` turns it off). It also takes `--log-format auto|pretty|json` (`pretty`, and `auto` on a terminal, need the optional peer `pino-pretty`: `npm i -D pino-pretty`; without it `auto` writes JSON), and `--log-level debug|info|warn|error` (`LOG_LEVEL`, default `info`): the admin API's own successful reads, which the inspector polls every second, are logged at `debug` only.",
    '',
    '## The table',
    '',
    '| Option | Flag | Variable | Type | Default | Taken by | What it does |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(([name, row]) => rowLine(name, row)),
    '',
    '## The options of the other commands',
    '',
    "Each command declares its own options once (src/cli/contract-options.ts, src/cli/command-tables.ts): its flags, its `--help`, its options type and this table are made from the declaration. `mock` takes the log flags beside the table above; `proxy` takes them too, and the table's rows it names.",
    '',
    ...Object.entries(COMMAND_OPTIONS).flatMap(([command, options]) =>
      commandSection(command, options),
    ),
    '',
  ].join('\n');
  return format(page, { parser: 'markdown', singleQuote: true, printWidth: 100 });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await writeFile(OPTIONS_DOC_PATH, await renderOptionsDoc());
  console.log(`wrote ${OPTIONS_DOC_PATH}`);
}
