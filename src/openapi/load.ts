import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { OpenAPIV3_1 } from 'openapi-types';
import { ADMIN_SPEC_PATH, BUNDLED_SPEC_PATH } from './bundled.js';
import { readingCacheFolder } from './cache-folder.js';
import { hideDataRefsSeeing } from './data-refs.js';
import { lenientReadings } from './defects.js';
import { cutDeepNesting } from './deep-nesting.js';
import { resolvedLocally } from './local-refs.js';
import { orderedForResolving } from './resolve-order.js';
import { SpecError } from './spec-error.js';
import { specDefects } from './spec-check.js';
import {
  leftoverWarnings,
  readSchemasAs31,
  upgradeSwagger,
  versionOf,
  type SpecVersion,
} from './upgrade.js';

export type OpenApiDocument = OpenAPIV3_1.Document;
export type OperationObject = OpenAPIV3_1.OperationObject;
export type SchemaObject = OpenAPIV3_1.SchemaObject;
// Its own module, so that a browser bundle has it without this file's file reading.
export { SpecError } from './spec-error.js';

export interface LoadedSpec {
  /** Where the spec was read from, for messages. */
  readonly source: string;
  /** The OpenAPI version the document is written in; the mock reads every one as 3.1. */
  readonly version: SpecVersion;
  /**
   * The document as OpenAPI 3.1 reads it, `$ref`s included: Swagger 2.0 upgraded, 3.0
   * keywords read as 3.0 means them (see readSchemasAs31).
   */
  readonly document: OpenApiDocument;
  /**
   * The same document with every `$ref` replaced by its target, for reading schemas and
   * examples. The target of several `$ref`s is one object, and a recursive schema contains
   * itself: walk it with a set of the objects already seen.
   */
  readonly resolved: OpenApiDocument;
  /**
   * Defects the mock lives with, one line each: what the OpenAPI check refuses, keywords of
   * another version. Empty for a clean document.
   */
  readonly warnings: readonly string[];
  /** How large the document is, in bytes, its other files included. */
  readonly bytes: number;
}

/**
 * The versions of the mock and of the libraries that make what is remembered: a new one
 * reads again, so an upgrade is never served a reading its predecessor made. The Swagger
 * upgrader is bundled in this folder's swagger-upgrader.js, so the code id covers it.
 */
const READERS = [
  `petstore-kit@${ownVersion()}+${codeIdOf(new URL('.', import.meta.url))}`,
  ...[
    '@seriousme/openapi-schema-validator',
    '@apidevtools/json-schema-ref-parser',
    'yaml',
    'js-yaml',
  ].map((name) => `${name}@${versionOfPackage(name)}`),
].join(' ');

/**
 * What the code that makes a reading is, as a short hash of the modules of its folder: a
 * build of the mock that reads documents otherwise under the same version number (a fix
 * between two releases, a `git pull`) never meets a reading an earlier build remembered.
 * About a millisecond; 'unknown' where the folder cannot be read (a bundle).
 * @example codeIdOf(new URL('.', import.meta.url)) // '3f9a0c1d2e4b5a69'
 * @internal for its tests: no part of the package's surface
 */
export function codeIdOf(folder: URL): string {
  try {
    const hash = createHash('sha256');
    for (const name of readdirSync(folder).sort())
      if (/\.(js|ts)$/.test(name) && !name.endsWith('.d.ts'))
        hash.update(`${name}\0`).update(readFileSync(new URL(name, folder)));
    return hash.digest('hex').slice(0, 16);
  } catch {
    return 'unknown';
  }
}

/** The mock's own version, from the package.json two folders up (of src/ and of dist/ alike). */
export function ownVersion(): string {
  try {
    const manifest = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as { version?: string };
    return manifest.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** A package's version, from the package.json above its entry point (some do not export it). */
function versionOfPackage(name: string): string {
  const require = createRequire(import.meta.url);
  let folder = dirname(require.resolve(name));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === name && manifest.version) return manifest.version;
    } catch {
      // No package.json here: further up.
    }
    const parent = dirname(folder);
    if (parent === folder) return 'unknown';
    folder = parent;
  }
}

export interface LoadSpecOptions {
  /**
   * A folder remembering what was read of documents, by a hash of their text, of the files
   * their `$ref`s name and of the versions that read them: the check compiles the OpenAPI
   * meta-schema, and parsing, upgrading and resolving take most of a start-up. A changed
   * document, or a changed file it refers to, is read again; a document with `$ref`s to URLs
   * is never remembered (they could change unseen). `false` reads every time. The folder keeps
   * the KEPT_READINGS readings used last.
   * @default readingCacheFolder(): `petstore-kit/readings` in the user's cache folder
   * (`~/.cache` on Linux), or the folder PETSTORE_KIT_CACHE_DIR names
   * @example { checkCache: '.ci-cache/petstore-kit' }
   */
  checkCache?: string | false;
}

/**
 * How many readings a cache folder keeps: one shared by every project and version of the mock
 * would otherwise only grow (a reading of a large description is tens of MB). The ones used
 * last are kept.
 */
const KEPT_READINGS = 32;

/** Bumped when what loadSpec makes of a document changes: remembered loads then expire. */
const LOAD_FORMAT = 6;

/**
 * The documents shipped with the package, which its tests check against the OpenAPI check
 * (test/cold-reading.test.ts): their reading skips it, whose 3.1 schema compiles at start-up.
 */
const OWN_DOCUMENTS = new Set([BUNDLED_SPEC_PATH, ADMIN_SPEC_PATH].map((path) => resolve(path)));

/** How long a `$ref` to a URL may take to answer. */
const URL_TIMEOUT_MS = 10_000;

/** What is remembered of a document: everything loadSpec returns but where it was read. */
interface Remembered extends Omit<LoadedSpec, 'source'> {
  /** The other files its `$ref`s read, with the hash of each, to see when one changes. */
  files: readonly OtherFile[];
}

interface OtherFile {
  path: string;
  hash: string;
  bytes: number;
}

/**
 * Reads, parses, checks, upgrades and resolves an OpenAPI document: Swagger 2.0, OpenAPI 3.0,
 * 3.1 or 3.2, YAML or JSON, in one file or several (`$ref`s are read from the document's own
 * folder). Defects the mock can live with are `warnings`; what it cannot serve is refused.
 * @throws {SpecError} in one line, when the file is missing, not YAML or JSON, not an OpenAPI
 * document, or has a `$ref` that cannot be resolved.
 * @example const spec = await loadSpec('openapi.yaml'); spec.warnings // []
 */
export async function loadSpec(
  path: string = BUNDLED_SPEC_PATH,
  options: LoadSpecOptions = {},
): Promise<LoadedSpec> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw new SpecError(`cannot read the spec at ${path} (${errorCode(err)})`);
  }

  const cache = options.checkCache ?? readingCacheFolder();
  // Hashed as bytes, not as a string: cheaper on a large document's cold start (decision 033).
  const remembered = cache ? join(cache, `loaded-${hashOf(bytes)}`) : undefined;
  if (remembered) {
    // v8's format keeps what JSON would lose: one object for the target of many $refs, cycles.
    const loaded = await readFile(remembered).then(deserialize, () => undefined);
    if (loaded && (await unchanged((loaded as Remembered).files))) {
      // Used now: the last to go when the folder is pruned.
      const now = new Date();
      await utimes(remembered, now, now).catch(() => undefined);
      const { version, document, resolved, warnings, bytes } = loaded as Remembered;
      return { source: path, version, document, resolved, warnings, bytes };
    }
  }

  const { files, ...spec } = await readDocument(bytes.toString('utf8'), bytes.length, path).catch(
    (err: unknown) => {
      // The last guard: a reader that still recurses past the stack (a file a `$ref` names,
      // which is not cut to MAX_NESTING) refuses the document in one line, never a crash.
      if (err instanceof RangeError)
        throw new SpecError(`${path} nests too deeply to be read: ${err.message}`);
      throw err;
    },
  );
  if (cache && remembered && files) {
    // A read-only install reads every time instead.
    const entry: Remembered = { ...spec, files };
    await mkdir(cache, { recursive: true })
      .then(() => writeFile(remembered, serialize(entry)))
      .then(() => pruneReadings(cache))
      .catch(() => undefined);
  }
  return { source: path, ...spec };
}

/** Deletes all but the KEPT_READINGS readings of a folder used last. */
async function pruneReadings(folder: string): Promise<void> {
  const names = (await readdir(folder)).filter((name) => name.startsWith('loaded-'));
  if (names.length <= KEPT_READINGS) return;
  const used = await Promise.all(
    names.map(async (name) => ({
      name,
      at: await stat(join(folder, name)).then(
        (found) => found.mtimeMs,
        () => 0,
      ),
    })),
  );
  used.sort((a, b) => b.at - a.at);
  await Promise.all(
    used.slice(KEPT_READINGS).map(({ name }) => rm(join(folder, name), { force: true })),
  );
}

/**
 * Parses, checks, upgrades and resolves a document; `files` is undefined when it refers to
 * URLs. The libraries are loaded only when needed.
 */
async function readDocument(
  text: string,
  size: number,
  path: string,
): Promise<Omit<LoadedSpec, 'source'> & { files: Remembered['files'] | undefined }> {
  const warnings: string[] = [];
  const parsed = await parse(text, path, warnings);
  const deep = cutDeepNesting(parsed);
  if (deep) warnings.push(deep);
  const version = versionOf(parsed);
  if (!version) {
    throw new SpecError(
      `${path} is not an OpenAPI document (it needs "openapi: 3.x.y" or "swagger: '2.0'")`,
    );
  }
  const document = parsed as Record<string, unknown>;
  if (typeof document.swagger === 'number') {
    // `swagger: 2.0` unquoted is a YAML number, which neither the check nor the upgrade reads.
    warnings.push('swagger: 2.0 is a number here, where it must be the string "2.0": read as one');
    document.swagger = '2.0';
  }
  if (!OWN_DOCUMENTS.has(resolve(path))) warnings.push(...(await specDefects(document)));
  if (typeof document.paths !== 'object' && typeof document.webhooks !== 'object') {
    throw new SpecError(`${path} has no paths: there is nothing to serve`);
  }

  const upgraded = upgradeSwagger(document, version);
  const leftovers = readSchemasAs31(upgraded, version);
  const { resolved, files } = await resolveCopy(upgraded, path).catch(async (err: unknown) => {
    // A reference to nothing in the document itself: read as any value, with a warning.
    if (!(err instanceof SpecError) || !/Missing \$ref pointer "#/.test(err.message)) throw err;
    const { mendDanglingRefs } = await import('./dangling-refs.js');
    const mended = mendDanglingRefs(upgraded);
    if (mended.length === 0) throw err;
    warnings.push(...mended);
    return resolveCopy(upgraded, path);
  });
  // Schemas from other files were not read as 3.1 yet.
  if (files === undefined || files.length > 0) readSchemasAs31(resolved, version, leftovers);
  warnings.push(...leftoverWarnings(leftovers, version), ...lenientReadings(resolved));
  return {
    version,
    document: upgraded as unknown as OpenApiDocument,
    resolved: resolved as unknown as OpenApiDocument,
    warnings,
    bytes: size + (files ?? []).reduce((sum, file) => sum + file.bytes, 0),
    files,
  };
}

/** YAML or JSON; a duplicate key (which YAML refuses) is a warning, the last one counting. */
async function parse(text: string, path: string, warnings: string[]): Promise<unknown> {
  const body = text.replace(/^\uFEFF/, '');
  // JSON.parse reads a large JSON document a hundred times faster than a YAML parser.
  if (/^\s*[{[]/.test(body)) {
    try {
      return JSON.parse(body);
    } catch {
      // YAML in flow style, or broken JSON: the YAML parser says where.
    }
  }
  // Ten times faster on a large document, and read the same; `yaml` reads what it gives way on.
  const { fastYaml } = await import('./fast-yaml.js');
  const fast = fastYaml(body);
  if (fast) return fast;
  const { parseDocument } = await import('yaml');
  let yaml = parseDocument(body);
  const duplicate = yaml.errors.find((error) => error.code === 'DUPLICATE_KEY');
  if (duplicate) {
    warnings.push(`a duplicate key, the last value is used: ${firstLine(duplicate)}`);
    yaml = parseDocument(body, { uniqueKeys: false });
  }
  const [error] = yaml.errors;
  if (error) throw new SpecError(`${path} is not valid YAML or JSON: ${firstLine(error)}`);
  return yaml.toJS();
}

/**
 * A copy of the document with every `$ref` resolved: in one walk (resolvedLocally) when every
 * reference points into the document plainly, else by the resolver (resolveRefs). The resolver
 * follows a reference into its target at once, recursively, unless that target was resolved
 * before: a chain of thousands of named schemas met at its head overflows the call stack, and
 * is then resolved again with each named schema after those it refers to (orderedForResolving,
 * whose walk of every schema is spent only then).
 */
async function resolveCopy(
  document: Record<string, unknown>,
  path: string,
): ReturnType<typeof resolveRefs> {
  const local = resolvedLocally(document);
  if (local) return { resolved: local, files: [] };
  return resolveRefs(structuredClone(document), path).catch((err: unknown) => {
    if (!(err instanceof SpecError) || !err.message.endsWith('Maximum call stack size exceeded'))
      throw err;
    return resolveRefs(orderedForResolving(structuredClone(document)), path);
  });
}

/**
 * Every `$ref` replaced by its target, read from the document's folder; the files it read
 * (with their hashes), or undefined when it read a URL.
 */
async function resolveRefs(
  document: object,
  path: string,
): Promise<{ resolved: Record<string, unknown>; files: Remembered['files'] | undefined }> {
  const { $RefParser } = await import('@apidevtools/json-schema-ref-parser');
  const parser = new $RefParser();
  const root = resolve(path);
  // A `$ref` inside an example or a default is part of the value, never fetched.
  const { restore, external } = hideDataRefsSeeing(document);
  let resolved: Record<string, unknown>;
  try {
    // A recursive schema becomes a cycle of objects: one object per target, as for every $ref.
    resolved = (await parser.dereference(root, document as never, {
      dereference: { circular: true },
      resolve: { external, http: { timeout: URL_TIMEOUT_MS } },
    })) as Record<string, unknown>;
  } catch (err) {
    throw new SpecError(`${path} has a $ref that cannot be resolved: ${refFailure(err, root)}`);
  }
  restore();
  const others = parser.$refs.paths().filter((file) => resolve(file) !== root);
  if (others.some((file) => /^https?:/i.test(file))) return { resolved, files: undefined };
  const files = await Promise.all(
    others.map(async (file): Promise<OtherFile> => {
      const text = await readFile(file, 'utf8');
      return { path: file, hash: hashOf(text), bytes: Buffer.byteLength(text) };
    }),
  );
  return { resolved, files };
}

/** Whether the other files a remembered document read are as they were. */
async function unchanged(files: Remembered['files']): Promise<boolean> {
  for (const file of files) {
    const text = await readFile(file.path, 'utf8').catch(() => undefined);
    if (text === undefined || hashOf(text) !== file.hash) return false;
  }
  return true;
}

/** The resolver's message, in one line, with the paths it names relative to the document. */
function refFailure(err: unknown, root: string): string {
  const folder = root.slice(0, root.lastIndexOf('/') + 1);
  const code = (err as { code?: string }).code;
  const line = firstLine(err).replaceAll(folder, '');
  return code === 'ERESOLVER' && !/ENOENT|not found|timed out/i.test(line)
    ? `${line} (it could not be fetched)`
    : line;
}

function hashOf(content: string | Buffer): string {
  return createHash('sha256')
    .update(`${LOAD_FORMAT}\0${READERS}\0${process.version}\0`)
    .update(content)
    .digest('hex');
}

function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? firstLine(err);
}

function firstLine(err: unknown): string {
  return String(err instanceof Error ? err.message : err).split('\n')[0] ?? '';
}
