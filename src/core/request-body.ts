import { parse as parseContentType, type ContentType } from 'content-type';
import { isJsonMediaType, type RequestBody } from '../openapi/operations.js';
import { errors } from '../vocabulary/error-catalogue.js';
import type { MockRequest } from '../vocabulary/request.js';
import { readMultipart, readUrlEncoded } from './form-body.js';
import { hasBody, headerValue, repeated } from './headers.js';

/**
 * A request body as read: the media type of the spec it matched, and its value: parsed JSON,
 * a form as an object of strings, text, or the bytes of any other media type.
 */
export interface ReadBody {
  /** The media type of the spec it matched, e.g. `application/json`, or a range (`image/*`). */
  mediaType: string;
  /**
   * How it was read, which says how it is checked: `json` as it is, `form` and `text` (their
   * values are strings) converted to the schema's types first, `bytes` not at all.
   */
  kind: 'json' | 'form' | 'text' | 'bytes';
  value: unknown;
  /** What could not be read in it (a part that says JSON and is not), for the 400. */
  problems: string[];
  /** Its size in bytes, decoded. */
  bytes: number;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body of a request the way the operation's `requestBody` asks, refusing what is
 * ambiguous or undecodable with a clear Error: a repeated or unknown Content-Type (415), a
 * charset other than UTF-8 (415), bytes that are not UTF-8 or not JSON (400), a multipart body
 * that is not (400). JSON (`application/json`, `+json`), form-urlencoded, multipart and text
 * bodies are read into values, by the media type sent; any other is kept as bytes. The media
 * type is settled before a byte of the body is read.
 * @returns undefined when the request has no body.
 * @example const body = await readBody(request, operation.requestBody); body?.value // { name: 'Dog' }
 */
export async function readBody(
  request: MockRequest,
  body: RequestBody,
): Promise<ReadBody | undefined> {
  if (!hasBody(request)) return undefined;
  const { mediaType, sent, header } = acceptedType(request, body);
  const bytes = await request.readBody();
  const read = (kind: ReadBody['kind'], value: unknown, problems: string[] = []): ReadBody => ({
    mediaType,
    kind,
    value,
    problems,
    bytes: bytes.length,
  });
  const schema = body.content.get(mediaType) ?? {};
  const encodings = body.encodings.get(mediaType) ?? {};
  if (isJsonMediaType(sent)) return read('json', parseJson(bytes));
  if (sent === 'application/x-www-form-urlencoded') {
    const { values, problems } = readUrlEncoded(utf8(bytes), schema, encodings);
    return read('form', values, problems);
  }
  if (sent === 'multipart/form-data') {
    const { values, problems } = await readMultipart(bytes, header, schema, encodings);
    return read('form', values, problems);
  }
  if (sent.startsWith('text/')) return read('text', utf8(bytes));
  return read('bytes', bytes);
}

/**
 * The spec media type the request's Content-Type matches (the exact type first, then the
 * range of its type, such as `image/*`, then the range of every type), or a 415 that lists
 * them. Media types are compared without their parameters and case.
 */
function acceptedType(
  request: MockRequest,
  body: RequestBody,
): { mediaType: string; sent: string; header: string } {
  const accepted = [...body.content.keys()];
  const list = accepted.join(', ');
  if (repeated(request, 'content-type')) throw errors.ambiguousContentType();
  const header = headerValue(request, 'content-type');
  if (header === undefined) throw errors.noContentType(list);
  let parsed: ContentType;
  try {
    parsed = parseContentType(header);
  } catch {
    throw errors.notAMediaType(header, list);
  }
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(parsed.type)) throw errors.notAMediaType(header, list);
  const charset = parsed.parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
    throw errors.unsupportedCharset(charset);
  const sent = parsed.type;
  const range = `${sent.slice(0, sent.indexOf('/'))}/*`;
  const mediaType = [sent, range, '*/*'].find((candidate) => body.content.has(candidate));
  if (mediaType === undefined) throw errors.unacceptedMediaType(list, sent);
  return { mediaType, sent, header };
}

function utf8(bytes: Buffer): string {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    throw errors.invalidUtf8();
  }
}

function parseJson(bytes: Buffer): unknown {
  const text = utf8(bytes);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw errors.malformedJson(err instanceof Error ? err.message : 'it does not parse');
  }
}
