import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import type { OpenAPIV3_1 } from 'openapi-types';
import { StartupError } from '../vocabulary/errors.js';
import { BUNDLED_SPEC_PATH } from './bundled.js';

export type OpenApiDocument = OpenAPIV3_1.Document;
export type OperationObject = OpenAPIV3_1.OperationObject;
export type SchemaObject = OpenAPIV3_1.SchemaObject;

/** A spec that cannot drive the mock; its message is one line, fit for a CLI. */
export class SpecError extends StartupError {
  override name = 'SpecError';
}

export interface LoadedSpec {
  /** Where the spec was read from, for messages. */
  readonly source: string;
  /** The document as written, `$ref`s included: what the validator is given. */
  readonly document: OpenApiDocument;
  /** The same document with every `$ref` replaced by its target, for reading schemas and examples. */
  readonly resolved: OpenApiDocument;
}

/** Where documents that passed the check are remembered, by hash (find-cache-dir's place). */
export const DEFAULT_CHECK_CACHE = fileURLToPath(
  new URL('../../node_modules/.cache/petstore-kit/', import.meta.url),
);

const VALIDATOR_VERSION = (
  createRequire(import.meta.url)('@seriousme/openapi-schema-validator/package.json') as {
    version: string;
  }
).version;

export interface LoadSpecOptions {
  /**
   * A folder remembering documents that passed the OpenAPI check, by a hash of their text
   * and of the versions that read them, with what was read of them: the check compiles the
   * OpenAPI meta-schema, and parsing and resolving load two libraries, together most of a
   * start-up. Only passes are remembered, so a changed document is read and checked again;
   * a document with `$ref`s to other files is never remembered (they could change alone).
   * `false` reads and checks every time.
   * @default DEFAULT_CHECK_CACHE
   */
  checkCache?: string | false;
}

/** Bumped when what loadSpec makes of a document changes: remembered loads then expire. */
const LOAD_FORMAT = 2;

/**
 * Reads, parses and checks an OpenAPI 3.1 document.
 * @throws {SpecError} when the file is missing, not YAML, not OpenAPI 3.1, invalid, or has a broken `$ref`.
 * @example const spec = await loadSpec(); // the bundled spec/openapi.yaml
 */
export async function loadSpec(
  path: string = BUNDLED_SPEC_PATH,
  options: LoadSpecOptions = {},
): Promise<LoadedSpec> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new SpecError(`cannot read the spec at ${path} (${errorCode(err)})`);
  }

  const cache = options.checkCache ?? DEFAULT_CHECK_CACHE;
  const remembered =
    cache && !hasExternalRefs(text) ? join(cache, `loaded-${hashOf(text)}`) : undefined;
  if (remembered) {
    // v8's format keeps what JSON would lose: one object for the target of many $refs.
    const loaded = await readFile(remembered).then(deserialize, () => undefined);
    if (loaded) return { source: path, ...(loaded as Omit<LoadedSpec, 'source'>) };
  }

  const { document, resolved } = await readDocument(text, path);
  if (remembered && cache) {
    // A read-only install reads and checks every time instead.
    await mkdir(cache, { recursive: true })
      .then(() => writeFile(remembered, serialize({ document, resolved })))
      .catch(() => undefined);
  }
  return { source: path, document, resolved };
}

/** Parses, checks and resolves a document: the libraries are loaded only when needed. */
async function readDocument(
  text: string,
  path: string,
): Promise<{ document: OpenApiDocument; resolved: OpenApiDocument }> {
  const [{ parse }, { dereference }] = await Promise.all([
    import('yaml'),
    import('@apidevtools/json-schema-ref-parser'),
  ]);
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (err) {
    throw new SpecError(`${path} is not valid YAML: ${firstLine(err)}`);
  }
  if (!isOpenApi31(parsed)) {
    throw new SpecError(`${path} is not an OpenAPI 3.1 document (it needs "openapi: 3.1.x")`);
  }
  await checkDocument(parsed, path);

  let resolved: OpenApiDocument;
  try {
    // A recursive schema would make the resolved document a cycle, which the schema
    // compiler and the data generator cannot walk: refused at start-up, by name.
    resolved = (await dereference(structuredClone(parsed) as never, {
      dereference: { circular: false },
      resolve: { external: true },
    })) as OpenApiDocument;
  } catch (err) {
    if (/circular/i.test(firstLine(err)))
      throw new SpecError(
        `${path} has a recursive schema, which the mock does not serve yet: ${firstLine(err)}`,
      );
    throw new SpecError(`${path} has a $ref that cannot be resolved: ${firstLine(err)}`);
  }
  return { document: parsed, resolved };
}

async function checkDocument(document: OpenApiDocument, path: string): Promise<void> {
  const { Validator } = await import('@seriousme/openapi-schema-validator');
  const { errors } = await new Validator().validate(structuredClone(document) as never);
  const [first] = Array.isArray(errors)
    ? (errors as { instancePath: string; message?: string }[])
    : [];
  if (first) {
    throw new SpecError(
      `${path} is not a valid OpenAPI document: ${first.instancePath || '/'} ${first.message}`,
    );
  }
}

function hashOf(text: string): string {
  return createHash('sha256')
    .update(`${LOAD_FORMAT}\0${VALIDATOR_VERSION}\0${process.version}\0${text}`)
    .digest('hex');
}

/** Whether the document refers to other files (or URLs), whose changes its hash cannot see. */
function hasExternalRefs(text: string): boolean {
  return /\$ref["']?\s*:\s*["']?(?!#)[^\s"']/.test(text);
}

function isOpenApi31(value: unknown): value is OpenApiDocument {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { openapi?: unknown }).openapi === 'string' &&
    (value as { openapi: string }).openapi.startsWith('3.1.')
  );
}

function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? firstLine(err);
}

function firstLine(err: unknown): string {
  return String(err instanceof Error ? err.message : err).split('\n')[0] ?? '';
}
