import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dereference } from '@apidevtools/json-schema-ref-parser';
// The validator's own document check, run at load time so that a broken spec stops
// start-up with one line instead of failing the first request (the validator itself
// loads the spec lazily). Internal module of an exactly pinned version.
import { OpenAPISchemaValidator } from 'express-openapi-validator/dist/framework/openapi.schema.validator.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { parse } from 'yaml';

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

/** The spec shipped with petstore-kit: the one source of truth of the interface. */
export const DEFAULT_SPEC_PATH = fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url));

/**
 * Reads, parses and checks an OpenAPI 3.1 document.
 * @throws {SpecError} when the file is missing, not YAML, not OpenAPI 3.1, invalid, or has a broken `$ref`.
 * @example const spec = await loadSpec(); // the bundled spec/openapi.yaml
 */
export async function loadSpec(path: string = DEFAULT_SPEC_PATH): Promise<LoadedSpec> {
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

  const { errors } = new OpenAPISchemaValidator({
    version: parsed.openapi,
    validateApiSpec: true,
  }).validate(parsed as never);
  const [first] = errors ?? [];
  if (first) {
    throw new SpecError(
      `${path} is not a valid OpenAPI document: ${first.instancePath || '/'} ${first.message}`,
    );
  }

  let resolved: OpenApiDocument;
  try {
    resolved = (await dereference(structuredClone(parsed) as never)) as OpenApiDocument;
  } catch (err) {
    throw new SpecError(`${path} has a $ref that cannot be resolved: ${firstLine(err)}`);
  }
  return { source: path, document: parsed, resolved };
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
