import { parse as parseContentType, type ContentType } from 'content-type';
import { isJsonMediaType, type RequestBody } from '../openapi/operations.js';
import { errors } from '../vocabulary/error-catalogue.js';
import type { MockRequest } from '../vocabulary/request.js';
import { hasBody, headerValue, repeated } from './headers.js';

/** A request body as read: its media type, and its value (parsed JSON, or the raw bytes). */
export interface ReadBody {
  /** The media type of the spec it matched, e.g. `application/json`. */
  mediaType: string;
  /** Parsed JSON for a JSON media type, else the bytes. */
  value: unknown;
  /** Its size in bytes, decoded. */
  bytes: number;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body of a request the way the operation's `requestBody` asks, refusing what is
 * ambiguous or undecodable with a clear Error: a repeated or unknown Content-Type (415), a
 * charset other than UTF-8 (415), bytes that are not UTF-8 or not JSON (400). The media type
 * is settled before a byte of the body is read.
 * @returns undefined when the request has no body.
 * @example const body = await readBody(request, operation.requestBody); body?.value // { name: 'Dog' }
 */
export async function readBody(
  request: MockRequest,
  body: RequestBody,
): Promise<ReadBody | undefined> {
  if (!hasBody(request)) return undefined;
  const mediaType = acceptedType(request, body);
  const bytes = await request.readBody();
  const value = isJsonMediaType(mediaType) ? parseJson(bytes) : bytes;
  return { mediaType, value, bytes: bytes.length };
}

/** The spec media type the request's Content-Type matches, or a 415 that lists them. */
function acceptedType(request: MockRequest, body: RequestBody): string {
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
  const match = accepted.find((type) => matches(type, parsed.type));
  if (match === undefined) throw errors.unacceptedMediaType(list, parsed.type);
  return match;
}

function matches(range: string, type: string): boolean {
  if (range === type || range === '*/*') return true;
  const [rangeType, rangeSub] = range.split('/');
  return rangeSub === '*' && type.startsWith(`${rangeType}/`);
}

function parseJson(bytes: Buffer): unknown {
  let text: string;
  try {
    text = fatalUtf8.decode(bytes);
  } catch {
    throw errors.invalidUtf8();
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw errors.malformedJson(err instanceof Error ? err.message : 'it does not parse');
  }
}
