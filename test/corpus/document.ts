// Reads an API description of any version (Swagger 2.0, OpenAPI 3.x), JSON or YAML, one
// file or many, into plain data: what the corpus scripts and the corpus driver work on.
import { $RefParser } from '@apidevtools/json-schema-ref-parser';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { mendDanglingRefs } from '../../src/openapi/dangling-refs.js';
import { hideDataRefs } from '../../src/openapi/data-refs.js';
import type { DocumentFormat } from './manifest.js';

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export interface LoadedDocument {
  path: string;
  format: DocumentFormat;
  syntax: 'json' | 'yaml';
  /** The root file starts with a UTF-8 byte order mark. */
  bom: boolean;
  /** The root file as written, `$ref`s included. */
  raw: JsonObject;
  /**
   * Every `$ref` replaced by its target, other files' included; a `$ref` that would close a
   * cycle is left as it is (see `circular`), so the result is a tree that JSON can hold.
   */
  resolved: JsonObject;
  /** Some schema refers to itself, directly or through others. */
  circular: boolean;
  /** Files the document is made of, the root included. */
  files: string[];
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The version of the format, from the `swagger` or `openapi` field. */
export function formatOf(document: JsonObject): DocumentFormat {
  if (document.swagger === '2.0') return 'swagger-2.0';
  const version = typeof document.openapi === 'string' ? document.openapi : '';
  const match = /^3\.([0-2])\./.exec(version);
  if (!match) throw new Error(`not an OpenAPI 3.x or Swagger 2.0 document (openapi: ${version})`);
  return `openapi-3.${match[1]}` as DocumentFormat;
}

/**
 * Reads a description from a file, following `$ref`s into other files.
 * @throws when the file is not JSON/YAML, is of no known format, or has a broken `$ref`.
 */
export async function loadDocument(path: string): Promise<LoadedDocument> {
  const text = await readFile(path, 'utf8');
  const bom = text.startsWith('\uFEFF');
  const body = bom ? text.slice(1) : text;
  const syntax = /^\s*[{[]/.test(body) ? 'json' : 'yaml';
  const parsed: unknown = syntax === 'json' ? JSON.parse(body) : parse(body, { maxAliasCount: -1 });
  if (!isObject(parsed)) throw new Error(`${path} does not hold an object`);
  const format = formatOf(parsed);
  let parser = new $RefParser();
  // A `$ref` inside an example or a default is part of the value, as the mock reads it.
  const dereference = async (document: JsonObject) => {
    const copy = structuredClone(document);
    const restore = hideDataRefs(copy);
    const resolved = (await parser.dereference(path, copy, {
      dereference: { circular: 'ignore' },
      resolve: { external: true, http: false },
    })) as JsonObject;
    restore();
    return resolved;
  };
  const resolved = await dereference(parsed).catch(async (err: unknown) => {
    // A reference to nothing in the document itself (DocuSign's): read as any value, as the
    // mock reads it.
    if (!(err instanceof Error) || !/Missing \$ref pointer "#/.test(err.message)) throw err;
    const mended = structuredClone(parsed);
    if (mendDanglingRefs(mended).length === 0) throw err;
    parser = new $RefParser();
    return dereference(mended);
  });
  const files = parser.$refs.paths(['file']);
  return {
    path,
    format,
    syntax,
    bom,
    raw: parsed,
    resolved,
    circular: parser.$refs.circular,
    files: files.length > 0 ? files : [path],
  };
}
