import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dereference } from '@apidevtools/json-schema-ref-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { parse } from 'yaml';
import { DEFAULT_SPEC_PATH } from '../defaults.js';

export type OpenApiDocument = OpenAPIV3_1.Document;
export type OperationObject = OpenAPIV3_1.OperationObject;
export type SchemaObject = OpenAPIV3_1.SchemaObject;

/** A spec that cannot drive the mock; its message is one line, fit for a CLI. */
export class SpecError extends Error {
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

export { DEFAULT_SPEC_PATH };

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
   * and of the validator's version: the check compiles the OpenAPI meta-schema, a fifth of a
   * second at every start. Only passes are remembered, so a changed document is checked
   * again. `false` checks every time.
   * @default DEFAULT_CHECK_CACHE
   */
  checkCache?: string | false;
}

/**
 * Reads, parses and checks an OpenAPI 3.1 document.
 * @throws {SpecError} when the file is missing, not YAML, not OpenAPI 3.1, invalid, or has a broken `$ref`.
 * @example const spec = await loadSpec(); // the bundled spec/openapi.yaml
 */
export async function loadSpec(
  path: string = DEFAULT_SPEC_PATH,
  options: LoadSpecOptions = {},
): Promise<LoadedSpec> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new SpecError(`cannot read the spec at ${path} (${errorCode(err)})`);
  }

  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (err) {
    throw new SpecError(`${path} is not valid YAML: ${firstLine(err)}`);
  }
  if (!isOpenApi31(parsed)) {
    throw new SpecError(`${path} is not an OpenAPI 3.1 document (it needs "openapi: 3.1.x")`);
  }

  await checkDocument(parsed, text, path, options.checkCache ?? DEFAULT_CHECK_CACHE);

  let resolved: OpenApiDocument;
  try {
    // A recursive schema would make the resolved document a cycle, which the schema
    // compiler and the data generator cannot walk: refused at start-up, by name.
    resolved = (await dereference(structuredClone(parsed) as never, {
      dereference: { circular: false },
    })) as OpenApiDocument;
  } catch (err) {
    if (/circular/i.test(firstLine(err)))
      throw new SpecError(
        `${path} has a recursive schema, which the mock does not serve yet: ${firstLine(err)}`,
      );
    throw new SpecError(`${path} has a $ref that cannot be resolved: ${firstLine(err)}`);
  }
  return { source: path, document: parsed, resolved };
}

async function checkDocument(
  document: OpenApiDocument,
  text: string,
  path: string,
  cache: string | false,
): Promise<void> {
  const passed =
    cache &&
    join(
      cache,
      `passed-${createHash('sha256').update(`${VALIDATOR_VERSION}\0${text}`).digest('hex')}`,
    );
  if (passed && existsSync(passed)) return;
  // Loaded only when the cache misses: it compiles the OpenAPI meta-schema, a fifth of a second.
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
  if (passed) {
    // A read-only install checks every time instead.
    await mkdir(cache, { recursive: true })
      .then(() => writeFile(passed, ''))
      .catch(() => undefined);
  }
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
