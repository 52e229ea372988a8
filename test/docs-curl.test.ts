// The curl commands of the README and of the docs pages that call the bundled spec, sent as
// written to the mock of `npm start` (the bundled spec, the default key), and their answers
// held to what the pages say: the status and body in a command's `# 200 ...` comment, the
// status, error code and message of each row of docs/mock.md's table of errors.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../src/index.js';
import { ownConnections } from './own-connections.js';
import { ROOT } from './recipes/frontend-project.js';

let mock: RunningMock;
let variables: Record<string, string>;
const { closeConnections } = ownConnections();

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  // The pages' own variables, with the mock's port.
  variables = { B: mock.url, K: 'Authorization: Bearer petstore-kit-dev-key' };
}, 60_000);

afterAll(async () => {
  await closeConnections();
  await mock?.close();
});

const page = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The words of a shell command: quotes removed, `$B` and `$K` expanded (but in single quotes). */
function wordsOf(command: string, vars: Record<string, string>): string[] {
  const words: string[] = [];
  for (const [, single, double, bare] of command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) {
    const expand = (text: string) =>
      text.replace(/\$(\w+)/g, (_, name: string) => vars[name] ?? '');
    words.push(single ?? expand(double ?? bare!));
  }
  return words;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** Sends a `curl` command's request (its -X, -H and -d) to `to` and reads the answer. */
async function curl(command: string, to = mock): Promise<Answer> {
  // The pages call the mock of `npm start`, on port 4010.
  const origin = new URL(to.url).origin;
  const at = command.replace(/(?:http:\/\/)?(?:localhost|127\.0\.0\.1):4010/g, origin);
  const words = wordsOf(at, variables);
  expect(words[0], command).toBe('curl');
  let url = '';
  let method: string | undefined;
  let body: string | undefined;
  const headers = new Headers();
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === '-s' || word === '-i') continue;
    else if (word === '-X') method = words[++i];
    else if (word === '-d') body = words[++i];
    else if (word === '-H') {
      const [name, ...value] = words[++i]!.split(':');
      headers.set(name!, value.join(':').trim());
    } else if (!word.startsWith('-')) url = word;
    else throw new Error(`${command}: this test does not know curl's ${word}`);
  }
  // curl sends a `-d` body as a form unless told otherwise.
  if (body !== undefined && !headers.has('content-type'))
    headers.set('content-type', 'application/x-www-form-urlencoded');
  const res = await fetch(url, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

interface Commented {
  command: string;
  status: number;
  body: string;
  /** The path of the `Location` a `# Location: /path/<key>...` line below the command gives. */
  location?: string;
}

/**
 * The `curl` commands of a page's `sh` blocks that say what they get: `# 201 {...}` after the
 * command, or on the lines below it with a `# Location: ...` line.
 */
function commentedCommands(markdown: string): Commented[] {
  const found: Commented[] = [];
  for (const [, block] of markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    let last: { command: string } | undefined;
    for (const line of block!.replace(/\\\n\s*/g, '').split('\n')) {
      const command = /^(curl .+?)(?:\s+# (\d{3}) ?(.*))?$/.exec(line);
      const below = /^# (\d{3}) ?(.*)$/.exec(line);
      const location = /^# Location: (.*\/)[^/]*$/.exec(line);
      if (command?.[2])
        found.push({ command: command[1]!, status: Number(command[2]), body: command[3]! });
      if (command) last = { command: command[1]! };
      else if (below && last) found.push({ ...last, status: Number(below[1]), body: below[2]! });
      else if (location && found.at(-1)?.command === last?.command)
        found.at(-1)!.location = location[1];
    }
  }
  return found;
}

/** The pages whose curl commands call the mock of `npm start`, in the order they are sent. */
const PAGES = ['README.md', 'docs/mock.md', 'docs/scenarios.md', 'docs/sessions.md'];

describe('the curl commands of the pages', () => {
  const commands = commentedCommands(page('README.md'));

  it('are found in the README (the check is not vacuous)', () => {
    expect(commands.map(({ status }) => status)).toEqual(
      expect.arrayContaining([200, 201, 204, 400, 401, 500]),
    );
  });

  it.each(PAGES)('%s: get the status and body their comment says, in order', async (path) => {
    const commands = commentedCommands(page(path));
    expect(commands.length, `${path} has no curl command with its status`).toBeGreaterThan(0);
    for (const { command, status, body } of commands) {
      const answer = await curl(command);
      expect(answer.status, `${command}\n${answer.text}`).toBe(status);
      // A body given whole is compared whole; one with `...` in it only by its status.
      if (!body.includes('...') && body.startsWith('{'))
        expect(JSON.parse(answer.text), command).toEqual(JSON.parse(body));
    }
  });

  it('create a category without a Location: the bundled spec has no item path (docs/state.md)', async () => {
    const create = commands.find(({ status }) => status === 201);
    const answer = await curl(create!.command);
    expect(answer.status).toBe(201);
    expect(answer.headers.get('location')).toBeNull();
  });
});

describe('docs/state.md’s library example', () => {
  const markdown = page('docs/state.md');
  const commands = commentedCommands(markdown);
  let library: RunningMock;

  beforeAll(async () => {
    // The spec the page starts its mock with.
    const spec = /^npx petstore-kit mock --spec (\S+)$/m.exec(markdown)?.[1];
    library = await startMock({ port: 0, spec: join(ROOT, spec!) });
  }, 60_000);

  afterAll(async () => {
    await closeConnections();
    await library?.close();
  });

  it('creates an author with a Location, and reads no book 999, as the page says', async () => {
    expect(commands.map(({ status }) => status)).toEqual([201, 404]);
    expect(commands[0]!.location).toBe('/api/authors/');
    for (const { command, status, body, location } of commands) {
      const answer = await curl(command, library);
      expect(answer.status, `${command}\n${answer.text}`).toBe(status);
      if (!body.includes('...')) expect(JSON.parse(answer.text), command).toEqual(JSON.parse(body));
      // The record's own key, below the path the page gives.
      if (location) {
        const { id } = JSON.parse(answer.text) as { id: string };
        expect(answer.headers.get('location'), command).toBe(`${location}${id}`);
      }
    }
  });
});

describe('docs/mock.md’s table of errors', () => {
  /** Rows whose request is a whole curl command: the command, the status, the code cell. */
  const rows = [
    ...page('docs/mock.md').matchAll(/^\| `(curl [^`]+)`.*?\| (\d{3})\s+\| (.+?)\s*\|$/gm),
  ].map(([, command, status, code]) => ({
    command: command!,
    status: Number(status),
    code: code!,
  }));

  it('has rows with whole commands (the check is not vacuous)', () => {
    expect(rows.length).toBeGreaterThanOrEqual(6);
  });

  it('answers each row’s status, code and, where it is given, message', async () => {
    for (const { command, status, code } of rows) {
      const answer = await curl(command);
      const error = JSON.parse(answer.text) as { code: string; message: string; status: number };
      expect(answer.status, command).toBe(status);
      expect(error.status, command).toBe(status);
      const [, name, message] = /^`(\w+)`(?: \(`(.+)`\))?/.exec(code) ?? [];
      expect(error.code, command).toBe(name);
      if (message) expect(error.message, command).toBe(message);
    }
  });
});

describe('wordsOf', () => {
  it('reads quotes as a shell does, and expands variables outside single quotes', () => {
    expect(wordsOf(`curl -s $B/x -H "$K" -d '{"a":"$K"}'`, { B: 'http://h', K: 'k: v' })).toEqual([
      'curl',
      '-s',
      'http://h/x',
      '-H',
      'k: v',
      '-d',
      '{"a":"$K"}',
    ]);
  });
});
