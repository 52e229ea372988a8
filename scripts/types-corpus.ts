// `npm run types:corpus`: the types `petstore-kit types` writes of many documents, each read
// by TypeScript 5 and TypeScript 7 under `strict`, with a typed call over its `paths` (an
// openapi-fetch client and a hand-written generic), and one line per document.
//
//   npm run types:corpus                                   # the repository's corpora (test/fixtures/corpus*)
//   npm run types:corpus -- /work/shared/corpus/realspecs  # every document in some folders or files
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { loadSpec } from '../src/openapi/load.js';
import { typeOptions, typesModule } from '../src/openapi/typegen/index.js';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** What became of one document. */
export interface TypedDocument {
  readonly file: string;
  readonly bytes: number;
  /** How long writing the types took, loading the document aside. */
  readonly generateMs: number;
  readonly typeBytes: number;
  /** The errors each compiler found in its types or its probe, one line each. */
  readonly ts5: string[];
  readonly ts7: string[];
}

/**
 * Writes the types of each document into a folder with a probe of its `paths`, compiles the
 * folder once with each compiler, and says what each found of each document.
 */
export async function typeDocuments(files: readonly string[]): Promise<TypedDocument[]> {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-kit-types-corpus-'));
  try {
    const written: Omit<TypedDocument, 'ts5' | 'ts7'>[] = [];
    for (const [i, file] of files.entries()) {
      const loaded = await loadSpec(file, { checkCache: false });
      const started = performance.now();
      const text = typesModule(loaded, typeOptions());
      const generateMs = performance.now() - started;
      writeFileSync(join(folder, `doc${i}.ts`), text);
      writeFileSync(join(folder, `doc${i}-probe.ts`), probe(`./doc${i}.ts`, loaded.document));
      written.push({ file, bytes: loaded.bytes, generateMs, typeBytes: Buffer.byteLength(text) });
    }
    writeFileSync(
      join(folder, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: ['*.ts'] }),
    );
    const ts5 = compileWith5(folder);
    const ts7 = await compileWith7(folder);
    return written.map((document, i) => ({
      ...document,
      ts5: ts5.filter((line) => line.startsWith(`doc${i}.ts`) || line.startsWith(`doc${i}-`)),
      ts7: ts7.filter((line) => line.startsWith(`doc${i}.ts`) || line.startsWith(`doc${i}-`)),
    }));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

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
  paths: { 'openapi-fetch': [join(dirname(require.resolve('openapi-fetch')), 'index.d.mts')] },
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** A module that types calls over a document's `paths`, as a client would. */
function probe(types: string, document: object): string {
  const paths = (document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  const first = Object.entries(paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item && typeof item[method] === 'object').map((method) => ({
      path,
      method,
    })),
  )[0];
  const lines = [
    "import createClient from 'openapi-fetch';",
    `import type { paths } from '${types}';`,
    "type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';",
    'type Answer<O> = O extends { responses: infer R }',
    '  ? { [S in keyof R]: R[S] extends { content: infer C } ? C[keyof C] : never }[keyof R]',
    '  : never;',
    'type Body<O> = O extends { requestBody?: { content: infer C } } ? C[keyof C] : never;',
    'declare function call<P extends keyof paths, M extends Method & keyof paths[P]>(',
    '  path: P,',
    '  method: M,',
    '  body?: Body<paths[P][M]>,',
    '): Promise<Answer<paths[P][M]>>;',
    "const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010' });",
    'export type Gettable = Parameters<typeof client.GET>[0];',
    'export const gettable: Gettable[] = [];',
  ];
  if (first)
    lines.push(`export const answer = call(${JSON.stringify(first.path)}, '${first.method}');`);
  return `${lines.join('\n')}\n`;
}

function compileWith5(folder: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(folder, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  );
  if (!config) throw new Error(`cannot read ${folder}/tsconfig.json`);
  const program = ts.createProgram(config.fileNames, config.options);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const file = diagnostic.file ? basename(diagnostic.file.fileName) : '';
    return `${file}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
  });
}

async function compileWith7(folder: string): Promise<string[]> {
  const tsc7 = join(dirname(require.resolve('typescript7/package.json')), 'bin/tsc');
  const out = await promisify(execFile)(
    process.execPath,
    [tsc7, '-p', folder, '--pretty', 'false'],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  ).then(
    () => '',
    (err: { stdout: string }) => err.stdout,
  );
  return out
    .split('\n')
    .filter((line) => /^\S.*\(\d+,\d+\): error/.test(line))
    .map((line) => line.replace(/^.*[\\/]/, '').replace(/\(\d+,\d+\)/, ''));
}

/** The documents the repository's corpus manifests list. */
export async function repositoryCorpus(): Promise<string[]> {
  const files: string[] = [];
  for (const folder of ['test/fixtures/corpus', 'test/fixtures/corpus-large']) {
    const manifest = JSON.parse(await readFile(join(ROOT, folder, 'manifest.json'), 'utf8')) as {
      file: string;
    }[];
    files.push(...manifest.map((entry) => join(ROOT, folder, entry.file)));
  }
  return files;
}

/** The YAML and JSON files of folders (not their subfolders), and files given as they are. */
function documentsIn(given: readonly string[]): string[] {
  return given.flatMap((path) =>
    statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((name) => /\.(ya?ml|json)$/.test(name))
          .sort()
          .map((name) => join(path, name))
      : [resolve(path)],
  );
}

async function main(): Promise<void> {
  const given = process.argv.slice(2);
  const files = given.length > 0 ? documentsIn(given) : await repositoryCorpus();
  const typed = await typeDocuments(files);
  let failed = 0;
  for (const document of typed) {
    const errors = document.ts5.length + document.ts7.length;
    if (errors > 0) failed++;
    process.stdout.write(
      `${errors === 0 ? 'ok  ' : 'FAIL'} ${basename(document.file)}: ${Math.round(document.bytes / 1024)} KiB -> ${Math.round(document.typeBytes / 1024)} KiB of types in ${Math.round(document.generateMs)} ms; TypeScript 5: ${document.ts5.length} errors, 7: ${document.ts7.length}\n`,
    );
    for (const line of [...document.ts5, ...document.ts7].slice(0, 5))
      process.stdout.write(`     ${line}\n`);
  }
  process.stdout.write(
    `${typed.length - failed} of ${typed.length} documents typed and compiled\n`,
  );
  process.exitCode = failed === 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
