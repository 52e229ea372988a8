// The types `petstore-kit types` writes with no compiler API: every construct of the fixtures
// read by TypeScript 5 (in process) and TypeScript 7 (its binary) under `strict`, a typed
// openapi-fetch client over them, each generator option, and openapi-typescript as the oracle.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import type { CommanderError } from 'commander';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';
import { tempFolderSync } from './temp-folders.js';

const require = createRequire(import.meta.url);
const fixtures = join(import.meta.dirname, 'fixtures/types');
const folder = tempFolderSync('typegen');

/** openapi-fetch's types, found from this repository wherever the project lies. */
const openapiFetch = join(dirname(require.resolve('openapi-fetch')), 'index.d.mts');

/** The documents typed, by the module name their types are written to. */
const DOCUMENTS: Record<string, string> = {
  todos: join(fixtures, 'todos-31.yaml'),
  constructs: join(fixtures, 'constructs-31.yaml'),
  nullable: join(fixtures, 'nullable-30.yaml'),
  swagger2: join(import.meta.dirname, 'fixtures/specs/swagger2.yaml'),
  bundled: join(import.meta.dirname, '../spec/openapi.yaml'),
  split: join(import.meta.dirname, 'fixtures/specs/split/openapi.yaml'),
  streams32: join(import.meta.dirname, 'fixtures/specs/stream-items-32.yaml'),
  methods32: join(import.meta.dirname, 'fixtures/specs/openapi-32-methods.yaml'),
};

/** What a client writes against the types: each `@ts-expect-error` proves a wrong use is refused. */
const APPS: Record<string, string> = {
  // Issue 47, item 8: TS2741 "Property 'done' is missing" before.
  'todos-app.ts': `
import createClient from 'openapi-fetch';
import type { components, paths } from './todos.ts';
export const created: components['schemas']['NewTodo'] = { title: 'Write the test first' };
declare const todo: components['schemas']['Todo'];
// In an answer a property with a default is there (openapi-typescript's defaultNonNullable).
export const done: boolean = todo.done;
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010' });
export async function create(): Promise<number | undefined> {
  const { data } = await client.POST('/todos', { body: { title: 'No done given' } });
  // @ts-expect-error title is required
  await client.POST('/todos', { body: { done: true } });
  return data?.id;
}
`,
  'constructs-app.ts': `
import createClient from 'openapi-fetch';
import type { components, operations, paths, webhooks } from './constructs.ts';
type Schemas = components['schemas'];
export const created: Schemas['NewTodo'] = { title: 'x' };
// @ts-expect-error title is required
export const untitled: Schemas['NewTodo'] = { done: true };
declare const todo: Schemas['Todo'];
export const done: boolean = todo.done;
// @ts-expect-error id is readOnly
todo.id = 2;
export const kind: 'todo' = todo.kind;
export const note: string | null = todo.note;
export const parentTitle: string | undefined = todo.parent?.parent?.title;
export const label: string | undefined = todo.labels?.['any'];
export const meta: number | undefined = todo.meta?.['x-count'];
export const weird: string | undefined = todo['x-weird name'];
export const star: number | undefined = todo['*/*'];
export const priority: Schemas['Todo']['priority'][] = ['low', null, undefined];
// @ts-expect-error status is one of its enum
export const status: Schemas['Todo']['status'] = 'pending';
export const shape: Schemas['Shape'] = { kind: 'circle', radius: 1 };
// @ts-expect-error a circle has no side
export const wrongShape: Schemas['Shape'] = { kind: 'circle', side: 1 };
export const named: Schemas['Named'] = { kind: 'circle', radius: 1, name: 'c' };
// @ts-expect-error name is required by the allOf arm
export const unnamed: Schemas['Named'] = { kind: 'circle', radius: 1 };
// A discriminator's value, by the mapping or by the schema's name.
export const cat: Schemas['Cat'] = { petType: 'cat', name: 'Tom', purrs: true };
export const dog: Schemas['Dog'] = { petType: 'Dog', name: 'Rex' };
// @ts-expect-error a cat's petType is cat
export const notCat: Schemas['Cat'] = { petType: 'Dog', name: 'Tom' };
export const adopted: Schemas['Adopted'] = { id: 1 };
// @ts-expect-error the parent's required makes the named schema's id required
export const unadopted: Schemas['Adopted'] = { nick: 'n' };
export const either: Schemas['Either'][] = ['a', 1];
// @ts-expect-error neither a string nor an integer
export const neither: Schemas['Either'] = true;
export const tree: Schemas['Tree'] = { children: [{ children: [] }] };
export const pair: Schemas['Pair'] = ['a', 1];
// @ts-expect-error a pair is a string then an integer
export const badPair: Schemas['Pair'] = [1, 'a'];
export const anything: Schemas['Anything'] = { whatever: 1 };
export const nothing: Schemas['Nothing'][] = [];
// @ts-expect-error no other property than a
export const closed: Schemas['Closed'] = { a: 'a', b: 1 };
type ListParameters = operations['listTodos']['parameters'];
export const parameters: ListParameters = {
  query: { limit: 5, cursor: 'c' },
  header: { 'X-Trace': 't' },
  cookie: { session: 's' },
};
// @ts-expect-error the session cookie is required
export const noCookie: ListParameters = { query: {} };
type PatchParameters = paths['/todos/{todoId}']['patch']['parameters'];
export const patchParameters: PatchParameters = { path: { todoId: 1 } };
// @ts-expect-error todoId is a number
export const badPatchParameters: PatchParameters = { path: { todoId: 'one' } };
type Page = operations['listTodos']['responses'][200];
declare const page: Page;
export const total: number = page.headers['X-Total'];
export const rate: number = page.headers['X-Rate'];
export const first: string | undefined = page.content['application/json'][0]?.title;
declare const problem: operations['listTodos']['responses']['default'];
export const title: string = problem.content['application/problem+json'].title;
export const form: operations['createTodo']['requestBody']['content']['multipart/form-data'] = {
  file: 'bytes',
};
export const event: NonNullable<
  webhooks['todoDone']['post']['requestBody']
>['content']['application/json'] = { id: 1 };
export const pong: paths['/ping']['get']['responses'][200]['content'] = undefined;
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010' });
export async function calls(): Promise<void> {
  const { data } = await client.GET('/todos', {
    params: { query: { limit: 1 }, cookie: { session: 's' } },
  });
  const titles: string[] | undefined = data?.map((each) => each.title);
  await client.POST('/todos', { body: { title: String(titles) } });
  await client.PATCH('/todos/{todoId}', { params: { path: { todoId: 1 } }, body: { done: true } });
  // @ts-expect-error todoId is a number
  await client.PATCH('/todos/{todoId}', { params: { path: { todoId: 'x' } }, body: {} });
  await client.DELETE('/todos/{todoId}', { params: { path: { todoId: 1 } } });
}
`,
  'nullable-app.ts': `
import type { components } from './nullable.ts';
export const thing: components['schemas']['Thing'] = { name: null, owner: null, size: null };
export const owned: components['schemas']['Thing'] = { name: 'a', owner: { id: 1 }, size: 2 };
// @ts-expect-error size is 1 or 2
export const big: components['schemas']['Thing'] = { name: 'a', owner: null, size: 3 };
`,
  'bundled-app.ts': `
import createClient from 'openapi-fetch';
import type { components, paths } from './bundled.ts';
type Listed = paths['/categories']['get']['responses'][200]['content']['application/json'];
export const listed: Listed = [{ id: 1, name: 'Dog' }];
export const sent: components['schemas']['NewCategory'] = { name: 'Axolotls' };
// @ts-expect-error a name is a string
export const wrong: components['schemas']['NewCategory'] = { name: 3 };
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/v1' });
export async function names(): Promise<string[]> {
  const { data } = await client.GET('/categories');
  await client.POST('/categories', { body: { name: 'Axolotls' } });
  return (data ?? []).map((category) => category.name);
}
`,
  // Schemas in other files, written where they are used.
  'split-app.ts': `
import type { operations } from './split.ts';
type NewPet = operations['createPet']['requestBody']['content']['application/json'];
export const pet: NewPet = { id: 1, name: 'Rex', tag: null };
// @ts-expect-error a pet has a name
export const unnamed: NewPet = { id: 1 };
`,
  // OpenAPI 3.2: a stream's item type from its itemSchema, and a QUERY operation.
  'streams32-app.ts': `
import type { paths } from './streams32.ts';
import type { paths as methods } from './methods32.ts';
type Tick = paths['/ticks']['get']['responses'][200]['content']['text/event-stream'];
export const tick: Tick = { event: 'tick', data: { n: 1 } };
// @ts-expect-error an event is a tick or done
export const tock: Tick = { event: 'tock', data: { n: 1 } };
type Progress = paths['/jobs/progress']['get']['responses'][200]['content']['application/jsonl'];
export const progress: Progress = { percent: 50 };
// @ts-expect-error the percentage is a number
export const unknown: Progress = { percent: 'half' };
type Search = methods['/pets/search']['query']['requestBody'];
export const search: Search['content']['application/json'] = { name: 'Rex' };
`,
  'swagger2-app.ts': `
import type { paths } from './swagger2.ts';
export type Everything = paths[keyof paths];
`,
};

const COMPILER_OPTIONS = {
  strict: true,
  noEmit: true,
  module: 'nodenext',
  moduleResolution: 'nodenext',
  target: 'es2022',
  lib: ['es2022', 'dom'],
  allowImportingTsExtensions: true,
  skipLibCheck: true,
  types: [],
  paths: { 'openapi-fetch': [openapiFetch] },
};

/** The folder of a project: the types of every document, the apps, a tsconfig.json. */
async function project(name: string, ...flags: string[]): Promise<string> {
  const root = join(folder, name);
  mkdirSync(root, { recursive: true });
  for (const [module, spec] of Object.entries(DOCUMENTS)) {
    const { code, err } = await runCli(
      'types',
      '--spec',
      spec,
      '-o',
      join(root, `${module}.ts`),
      ...flags,
    );
    expect(code, err).toBe(0);
  }
  for (const [file, text] of Object.entries(APPS)) writeFileSync(join(root, file), text);
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: ['*.ts'] }),
  );
  return root;
}

/**
 * The installed declarations (lib.dom.d.ts alone is 1.5 MB), parsed once for the five compiles
 * of this file rather than once each: they do not change, and every compile takes them alike.
 */
const installed = new Map<string, ts.SourceFile | undefined>();

/** A compiler host that takes each file under node_modules from `installed`. */
function hostOf(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version, onError, create) => {
    if (!fileName.includes('/node_modules/')) return read(fileName, version, onError, create);
    // The options it is parsed with (language version, module format) are part of the key.
    const key = `${fileName} ${JSON.stringify(version)}`;
    if (!installed.has(key)) installed.set(key, read(fileName, version, onError, create));
    return installed.get(key);
  };
  return host;
}

/** What TypeScript 5 says of a project, one line per error. */
function compileWith5(root: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  );
  if (!config) throw new Error(`cannot read ${root}/tsconfig.json`);
  const program = ts.createProgram(config.fileNames, config.options, hostOf(config.options));
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (diagnostic) =>
        `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
    );
}

/** What TypeScript 7's `tsc -p` says of a project. */
async function compileWith7(root: string): Promise<{ code: number; out: string }> {
  const tsc7 = join(dirname(require.resolve('typescript7/package.json')), 'bin/tsc');
  return promisify(execFile)(process.execPath, [tsc7, '-p', root]).then(
    () => ({ code: 0, out: '' }),
    (err: { code: number; stdout: string }) => ({ code: err.code, out: err.stdout }),
  );
}

describe('the types of every construct, read by TypeScript 5 and 7 under strict', () => {
  let root = '';
  beforeAll(async () => {
    root = await project('default');
  }, 120_000);

  it('compile with TypeScript 5, every wrong use refused', () => {
    expect(compileWith5(root)).toEqual([]);
    // Two compiles by TypeScript on a busy machine.
  }, 120_000);

  it('compile with TypeScript 7, every wrong use refused', async () => {
    expect(await compileWith7(root)).toEqual({ code: 0, out: '' });
  }, 120_000);

  it('refuse what the spec refuses: a wrong shape is an error, not an unused expect-error', () => {
    writeFileSync(
      join(root, 'wrong.ts'),
      "import type { components } from './todos.ts';\nexport const t: components['schemas']['NewTodo'] = { done: false };\n",
    );
    try {
      expect(compileWith5(root).join('\n')).toMatch(/Property 'title' is missing/);
    } finally {
      rmSync(join(root, 'wrong.ts'));
    }
  }, 120_000);
});

describe('the generator options', () => {
  /** The types of the constructs fixture with flags. */
  async function constructs(...flags: string[]): Promise<string> {
    const { code, out, err } = await runCli('types', '--spec', DOCUMENTS.constructs!, ...flags);
    expect(code, err).toBe(0);
    return out;
  }

  it('keeps a property with a default optional in a request body, present in an answer, and optional everywhere with --no-default-non-nullable', async () => {
    const text = await constructs();
    expect(block(text, 'NewTodo')).toContain('done?: boolean;');
    expect(block(text, 'Todo')).toContain('done: boolean;');
    expect(block(text, 'TodoPatch')).toContain('done?: boolean;');
    expect(block(await constructs('--no-default-non-nullable'), 'Todo')).toContain(
      'done?: boolean;',
    );
  });

  it.each([
    { flags: ['--immutable'], says: 'readonly title: string;' },
    {
      flags: ['--immutable'],
      says: 'readonly children: readonly components["schemas"]["Tree"][];',
    },
    { flags: ['--export-type'], says: 'export type paths = {' },
    {
      flags: ['--root-types'],
      says: 'export type SchemaNewTodo = components["schemas"]["NewTodo"];',
    },
    {
      flags: ['--root-types'],
      says: 'export type RequestBodyTodoPatch = components["requestBodies"]["TodoPatch"];',
    },
    { flags: ['--additional-properties'], says: '[key: string]: unknown;' },
    { flags: ['--empty-objects-unknown'], says: 'Free: Record<string, unknown>;' },
    { flags: ['--path-params-as-types'], says: '[path: `/todos/${number}`]: {' },
    { flags: ['--exclude-deprecated'], says: 'delete?: never;\n        options?: never;' },
  ])('$flags writes $says', async ({ flags, says }) => {
    expect(await constructs(...flags)).toContain(says);
  });

  it('--exclude-deprecated leaves out a deprecated property and operation', async () => {
    const text = await constructs('--exclude-deprecated');
    expect(block(text, 'Todo')).not.toContain('created');
    expect(text).not.toContain('deleteTodo');
    expect(block(await constructs(), 'Todo')).toContain('created?: string;');
  });

  it('--alphabetize sorts the properties', async () => {
    expect(block(await constructs('--alphabetize'), 'NewTodo')).toMatch(
      /done\?[\s\S]*tags\?[\s\S]*title:/,
    );
  });

  it('--array-length writes a bounded array as tuples', async () => {
    const spec = join(folder, 'bounded.yaml');
    writeFileSync(
      spec,
      [
        'openapi: 3.1.0',
        'info: { title: Bounded, version: 1.0.0 }',
        'paths: {}',
        'components:',
        '  schemas:',
        '    Point: { type: array, items: { type: number }, minItems: 2, maxItems: 3 }',
        '    Some: { type: array, items: { type: string }, minItems: 1 }',
      ].join('\n'),
    );
    const { out } = await runCli('types', '--spec', spec, '--array-length');
    expect(out).toContain('Point: [number, number] | [number, number, number];');
    expect(out).toContain('Some: [string, ...string[]];');
    expect((await runCli('types', '--spec', spec)).out).toContain('Point: number[];');
  });

  it('refuses an unknown option in one line that lists the valid ones, exit code 2', async () => {
    const { createCli } = await import('../src/cli/cli.js');
    let said = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        said += chunk.toString();
        done();
      },
    });
    const cli = createCli({ stdout: sink, stderr: sink });
    // Thrown, not exited, so the test sees the code.
    cli.commands.find((command) => command.name() === 'types')?.exitOverride();
    const thrown = await cli.parseAsync(['node', 'petstore-kit', 'types', '--enum']).then(
      () => undefined,
      (error: unknown) => error as CommanderError,
    );
    expect(thrown?.exitCode).toBe(2);
    expect(said).toBe(
      "petstore-kit types: unknown option '--enum': the options are --spec, --output, --default-non-nullable, --no-default-non-nullable, --export-type, --immutable, --alphabetize, --additional-properties, --empty-objects-unknown, --path-params-as-types, --root-types, --exclude-deprecated, --array-length\n",
    );
  });
});

/** The lines of one named member's type, from its name to the line that closes it. */
function block(text: string, name: string): string {
  const start = text.search(new RegExp(`^ *${name}: \\{$`, 'm'));
  expect(start, `${name} in the types`).toBeGreaterThanOrEqual(0);
  const indent = /^ */.exec(text.slice(start))?.[0] ?? '';
  const end = text.indexOf(`\n${indent}};`, start);
  return text.slice(start, end);
}

describe('openapi-typescript as the oracle', () => {
  /** Types equal both ways, for each root. */
  const SAME = [
    "import type * as Ours from './ours.ts';",
    "import type * as Theirs from './theirs.ts';",
    'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
    'export const paths: Same<Ours.paths, Theirs.paths> = true;',
    'export const webhooks: Same<Ours.webhooks, Theirs.webhooks> = true;',
    'export const components: Same<Ours.components, Theirs.components> = true;',
    'export const operations: Same<Ours.operations, Theirs.operations> = true;',
  ].join('\n');

  it.each(['bundled', 'nullable', 'swagger2'])(
    'writes the types openapi-typescript writes of %s',
    async (name) => {
      const spec = DOCUMENTS[name]!;
      const root = join(folder, `oracle-${name}`);
      mkdirSync(root, { recursive: true });
      expect((await runCli('types', '--spec', spec, '-o', join(root, 'ours.ts'))).code).toBe(0);
      const { default: openapiTS, astToString } = await import('openapi-typescript');
      const { loadSpec } = await import('../src/openapi/load.js');
      const { document } = await loadSpec(spec);
      writeFileSync(
        join(root, 'theirs.ts'),
        astToString(await openapiTS(document as never, { silent: true })),
      );
      writeFileSync(join(root, 'same.ts'), SAME);
      writeFileSync(
        join(root, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: ['*.ts'] }),
      );
      expect(compileWith5(root)).toEqual([]);
      expect(readFileSync(join(root, 'ours.ts'), 'utf8')).toContain('export interface paths {');
    },
    120_000,
  );
});
