// The one table of options: the CLI's flags, the library's options, their one check and
// docs/options.md all come from it, so that a bad option reads the same wherever it is given.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { OPTIONS_DOC_PATH, renderOptionsDoc } from '../scripts/options-doc.js';
import { createApp, loadSpec, startMock, StartupError, type MockOptions } from '../src/index.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import { MOCK_OPTIONS, type OptionRow } from '../src/wiring/option-table.js';
import { resolveOptions, validateOptions } from '../src/wiring/options.js';
import type { RunningMock } from '../src/wiring/start-mock.js';
import { runCliWith } from './helpers.js';

/** What the CLI, run in process, prints and exits with for these arguments and variables. */
async function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; output: string }> {
  const { code, out, err } = await runCliWith(args, env);
  return { code, output: out + err };
}

/** The StartupError a library call gives for these options. */
async function refusal(options: Record<string, unknown>): Promise<StartupError> {
  const error: unknown = await startMock(options as MockOptions).then(
    async (mock) => {
      await mock.close();
      return undefined;
    },
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(StartupError);
  return error as StartupError;
}

const started: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

describe('a bad option, from the CLI or from a library call', () => {
  // Each pair says the same thing: the flag's text, and the value a library caller (in
  // JavaScript, unchecked by a compiler) would give.
  it.each([
    { args: ['--port', '70000'], options: { port: 70000 }, code: 'invalid_option' },
    { args: ['--port', 'abc'], options: { port: 'abc' }, code: 'invalid_option' },
    { args: ['--session-ttl', '-1'], options: { sessionTtlSeconds: -1 }, code: 'invalid_option' },
    {
      args: ['--fault-kinds', 'reset,boom'],
      options: { faultKinds: ['reset', 'boom'] },
      code: 'invalid_option',
    },
    { args: ['--stability', 'alpha'], options: { stability: 'alpha' }, code: 'invalid_option' },
    { args: ['--delay', '400-100'], options: { delayMs: '400-100' }, code: 'invalid_option' },
    { args: ['--body-limit', '1tb'], options: { bodyLimit: '1tb' }, code: 'invalid_option' },
    {
      args: ['--cors-origin', 'localhost:5173'],
      options: { cors: { origins: ['localhost:5173'] } },
      code: 'invalid_option',
    },
    {
      args: ['--data', 'mock.jsonl', '--redis', 'redis://127.0.0.1:1'],
      options: { data: 'mock.jsonl', redis: 'redis://127.0.0.1:1' },
      code: 'conflicting_options',
    },
  ])(
    '$args gives the same code and line as startMock($options)',
    async ({ args, options, code }) => {
      const error = await refusal(options);
      expect(error.code).toBe(code);
      const { code: exit, output } = await cli(['mock', '--port', '0', ...args]);
      expect(exit).toBe(1);
      expect(output).toBe(`petstore-kit: ${error.message} [${code}]\n`);
    },
  );

  it('names the option as both know it, and what it takes', async () => {
    const error = await refusal({ port: 70000 });
    expect(error.message).toBe('option port (--port, PORT): it must be from 0 to 65535, not 70000');
  });

  it('a variable is read as its flag', async () => {
    const error = await refusal({ port: 'abc' });
    const { code, output } = await cli(['mock'], { PORT: 'abc' });
    expect(code).toBe(1);
    expect(output).toBe(`petstore-kit: ${error.message} [invalid_option]\n`);
  });

  it('refuses a name it does not know, listing those it does', async () => {
    const error = await refusal({ sessionTTL: 60 });
    expect(error.code).toBe('unknown_option');
    expect(error.message).toMatch(/^unknown option sessionTTL: the options are spec, apiKeys, /);
    // A name every object has is no option either.
    expect((await refusal({ constructor: 1 })).code).toBe('unknown_option');
  });

  it('never quotes a secret back', async () => {
    const error = await refusal({ basic: ['alice-without-password'] });
    expect(error.code).toBe('invalid_option');
    expect(error.message).not.toContain('alice');
  });

  it('createApp checks its options as startMock does', async () => {
    const spec = await loadSpec();
    expect(() => createApp({ spec, seed: 1.5 })).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringMatching(/^option seed \(--seed\)/),
      }),
    );
  });
});

describe('storage', () => {
  it('is one of four kinds, the shorthands of the CLI folded into it', () => {
    expect(validateOptions({}).storage).toBeUndefined();
    expect(resolveOptions({}).storage).toEqual({ kind: 'memory' });
    expect(validateOptions({ data: 'x.jsonl' }).storage).toEqual({ kind: 'file', path: 'x.jsonl' });
    expect(resolveOptions({ redis: 'redis://127.0.0.1:6379', redisPrefix: 'a:' }).storage).toEqual({
      kind: 'redis',
      url: 'redis://127.0.0.1:6379',
      prefix: 'a:',
      reseed: false,
      allowEviction: false,
    });
  });

  it('refuses storage with a shorthand, and a storage that lacks what its kind needs', async () => {
    expect((await refusal({ storage: { kind: 'memory' }, data: 'x.jsonl' })).code).toBe(
      'conflicting_options',
    );
    expect(
      (await refusal({ storage: { kind: 'redis', url: 'redis://x' }, redisPrefix: 'a:' })).code,
    ).toBe('conflicting_options');
    const missing = await refusal({ storage: { kind: 'redis' } });
    expect(missing.code).toBe('invalid_option');
    expect(missing.message).toMatch(/^option storage: url: it must be text/);
  });

  it('is a discriminated union for the compiler too', () => {
    const file: MockOptions = { storage: { kind: 'file', path: 'x.jsonl' } };
    // @ts-expect-error a file storage has no url
    const wrong: MockOptions = { storage: { kind: 'file', path: 'x.jsonl', url: 'redis://x' } };
    // @ts-expect-error a redis storage needs its url
    const partial: MockOptions = { storage: { kind: 'redis' } };
    expect([file, wrong, partial]).toHaveLength(3);
  });

  it('serves from a store of yours given as storage', async () => {
    const store = createMemoryStore();
    const mock = await startMock({ storage: { kind: 'custom', store }, seedCount: 2 });
    started.push(mock);
    expect(mock.mock.store).toBe(store);
    expect(await store.count()).toBeGreaterThan(0);
  });
});

describe('units', () => {
  it('takes every duration in the unit its name ends in, converted once to milliseconds', () => {
    const resolved = resolveOptions({
      sessionTtlSeconds: 90,
      requestTimeoutSeconds: 0.5,
      faultTimeoutSeconds: 2,
      delayMs: { min: 100, max: 400 },
    });
    expect(resolved.sessionTtlMs).toBe(90_000);
    expect(resolved.requestTimeoutMs).toBe(500);
    expect(resolved.faultTimeoutMs).toBe(2000);
    expect(resolved.delayMs).toEqual({ min: 100, max: 400 });
  });

  it('names a unit for every duration in the table', () => {
    for (const [name, row] of Object.entries(MOCK_OPTIONS) as [string, OptionRow<unknown>][]) {
      if (row.unit === 'seconds') expect(name).toMatch(/Seconds$/);
      if (row.unit === 'milliseconds') expect(name).toMatch(/Ms$/);
      if (/Seconds$|Ms$|Timeout|Ttl/.test(name)) expect(row.unit, name).toBeDefined();
    }
  });
});

describe('the table', () => {
  it('gives docs/options.md (npm run docs:options writes it)', async () => {
    expect(await readFile(OPTIONS_DOC_PATH, 'utf8')).toBe(await renderOptionsDoc());
  });

  it("gives the mock's flags, each with its variable, and the proxy's shared ones", async () => {
    // Commander wraps long lines: read the help as one line.
    const flat = async (command: string) =>
      (await cli([command, '--help'])).output.replace(/\s+/g, ' ');
    const mock = { output: await flat('mock') };
    const proxy = { output: await flat('proxy') };
    for (const row of Object.values(MOCK_OPTIONS) as OptionRow<unknown>[]) {
      for (const flag of row.flags ?? []) {
        for (const command of flag.commands ?? ['mock']) {
          const help = command === 'mock' ? mock : proxy;
          expect(help.output).toContain(flag.flag);
          if (flag.env) expect(help.output).toContain(`env: ${flag.env}`);
        }
      }
    }
  });

  it('takes a key given as given, even the default one: options are resolved once, with no identity check', () => {
    const first = resolveOptions({});
    expect(first.defaultCredentials).toBe(true);
    expect(resolveOptions({ apiKeys: first.apiKeys }).defaultCredentials).toBe(false);
  });
});
