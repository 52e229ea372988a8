// Form bodies as objects a schema can check: `application/x-www-form-urlencoded` read as a
// query string by the properties' encodings, `multipart/form-data` read by busboy.
import busboy from 'busboy';
import type { SchemaObject } from '../openapi/load.js';
import { isJsonMediaType } from '../openapi/media-types.js';
import {
  type Parameter,
  type ParameterStyle,
  type PropertyEncoding,
} from '../openapi/operations.js';
import { propertiesOf, typesOf } from '../openapi/schema-parts.js';
import { errors } from '../vocabulary/error-catalogue.js';
import { ApiError } from '../vocabulary/errors.js';
import { readQuery, type ReadValues } from './parameter-styles.js';

/**
 * Reads a form-urlencoded body as an object: each property as its encoding writes it (`form`,
 * repeated keys for a list, by default); an object property, which OpenAPI leaves to the
 * encoding, as `deepObject` by default (`address[city]=Paris`), since that is what form
 * libraries send. Keys the schema does not name are kept, for its `additionalProperties`.
 * @example readUrlEncoded('name=Rex&tags=a&tags=b', schema, {}).values // { name: 'Rex', tags: ['a', 'b'] }
 */
export function readUrlEncoded(
  text: string,
  schema: SchemaObject,
  encodings: Readonly<Record<string, PropertyEncoding>>,
  where = '/body',
): ReadValues {
  const parameters = Object.entries(propertiesOf(schema)).map(([name, property]): Parameter => {
    const encoding = encodings[name] ?? {};
    const style: ParameterStyle =
      encoding.style ?? (isComplex(property) && !isList(property) ? 'deepObject' : 'form');
    return {
      name,
      in: 'query',
      required: false,
      schema: property,
      style,
      explode: encoding.explode ?? style === 'form',
      // An empty field is what a form sends for an empty input: the schema decides.
      allowEmptyValue: true,
      json: encoding.contentType !== undefined && isJsonMediaType(encoding.contentType),
      examples: [],
    };
  });
  return readQuery(text, parameters, { where });
}

/** The most parts a multipart body may have, to bound the work a small body can cause. */
const MAX_PARTS = 1000;

/**
 * Reads a multipart/form-data body as an object, by part name: a text part as its text (or
 * its JSON, when the part says `application/json`, its encoding does, or the property is an
 * object), a file part as the base64 of its bytes (what OpenAPI 3.1 calls a string with
 * `contentEncoding: base64`), a name sent more than once as a list.
 * @throws {ApiError} 400 `malformed_body` for a body that is not multipart as its header says.
 * @example await readMultipart(bytes, 'multipart/form-data; boundary=x', schema, {}) // { values: { name: 'Rex', photo: 'iVBORw0...' }, problems: [] }
 */
export async function readMultipart(
  bytes: Buffer,
  contentType: string,
  schema: SchemaObject,
  encodings: Readonly<Record<string, PropertyEncoding>>,
): Promise<ReadValues> {
  const properties = propertiesOf(schema);
  const parts = await splitParts(bytes, contentType);
  const values = Object.create(null) as Record<string, unknown>;
  const problems: string[] = [];
  const byName = new Map<string, unknown[]>();
  for (const part of parts) {
    const property = properties[part.name];
    const declared = encodings[part.name]?.contentType;
    let value: unknown = part.value;
    const json =
      part.kind === 'field' &&
      (isJsonMediaType(part.mediaType) ||
        (declared !== undefined && isJsonMediaType(declared)) ||
        (property !== undefined && isComplex(property)));
    if (json) {
      try {
        value = JSON.parse(part.value) as unknown;
      } catch {
        // A complex property sent as plain text stays text, for the schema to judge.
        if (isJsonMediaType(part.mediaType)) problems.push(`/body/${part.name} is not valid JSON`);
      }
    }
    const list = byName.get(part.name);
    if (list) list.push(value);
    else byName.set(part.name, [value]);
  }
  for (const [name, list] of byName) {
    const property = properties[name];
    values[name] = list.length > 1 || (property && isList(property)) ? list : list[0];
  }
  return { values, problems };
}

interface Part {
  kind: 'field' | 'file';
  name: string;
  /** The text of a field; the base64 of a file's bytes. */
  value: string;
  mediaType: string;
}

function splitParts(bytes: Buffer, contentType: string): Promise<Part[]> {
  return new Promise((resolve, reject) => {
    const malformed = (err: unknown) =>
      reject(errors.malformedMultipart(err instanceof Error ? err.message : String(err)));
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // The whole body is already bounded by the body limit: no part is cut short.
        limits: { fieldSize: bytes.length + 1, parts: MAX_PARTS },
        defParamCharset: 'utf8',
      });
    } catch (err) {
      // The browser bundle's stand-in for busboy refuses with its own answer (a 415).
      if (err instanceof ApiError) reject(err);
      else malformed(err);
      return;
    }
    const parts: Part[] = [];
    const pending: Promise<void>[] = [];
    parser.on('field', (name, value, info) => {
      parts.push({ kind: 'field', name, value, mediaType: info.mimeType });
    });
    parser.on('file', (name, stream, info) => {
      const part: Part = { kind: 'file', name, value: '', mediaType: info.mimeType };
      parts.push(part);
      const chunks: Buffer[] = [];
      pending.push(
        new Promise((done, fail) => {
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', fail);
          stream.on('end', () => {
            part.value = Buffer.concat(chunks).toString('base64');
            done();
          });
        }),
      );
    });
    parser.on('partsLimit', () => malformed(new Error(`it has more than ${MAX_PARTS} parts`)));
    parser.on('error', malformed);
    parser.on('close', () => {
      Promise.all(pending).then(() => resolve(parts), malformed);
    });
    try {
      parser.end(bytes);
    } catch (err) {
      malformed(err);
    }
  });
}

function isList(schema: SchemaObject): boolean {
  return typesOf(schema).includes('array');
}

/** An object, or a list of objects: OpenAPI sends such a property as JSON by default. */
function isComplex(schema: SchemaObject): boolean {
  const types = typesOf(schema);
  if (types.includes('object')) return true;
  if (!types.includes('array')) return types.length === 0 && Boolean(schema.properties);
  const items = (schema as { items?: SchemaObject }).items;
  return items !== undefined && typeof items === 'object' && typesOf(items).includes('object');
}
