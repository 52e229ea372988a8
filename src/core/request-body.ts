import { isUtf8 } from 'node:buffer';
import { parse as parseContentType, type ContentType } from 'content-type';
import { isJsonMediaType, isXmlMediaType } from '../openapi/media-types.js';
import { type RequestBody } from '../openapi/operations.js';
import { errors } from '../vocabulary/error-catalogue.js';
import type { MockRequest } from '../vocabulary/request.js';
import { readMultipart, readUrlEncoded } from './form-body.js';
import { describesXmlStructure, readXml } from './xml-body.js';
import { hasBody, headerValue, repeated } from './headers.js';

/**
 * A request body as read: the media type of the spec it matched, and its value: parsed JSON,
 * a form as an object of strings, text, or the bytes of any other media type.
 */
export interface ReadBody {
  /** The media type of the spec it matched, e.g. `application/json`, or a range (`image/*`). */
  mediaType: string;
  /**
   * How it was read, which says how it is checked: `json` as it is, `xml` as the value its
   * elements and attributes were read into (see readXml), `form` and `text` (their
   * values are strings) converted to the schema's types first, `bytes` not at all.
   */
  kind: 'json' | 'xml' | 'form' | 'text' | 'bytes';
  value: unknown;
  /** What could not be read in it (a part that says JSON and is not), for the 400. */
  problems: string[];
  /** Its size in bytes, decoded. */
  bytes: number;
}

/** What a Content-Type header accepted for a request body matched: the same on every request that sends it. */
interface AcceptedType {
  mediaType: string;
  sent: string;
  header: string;
}

/** Headers kept per body: a client sending a new one each time makes no unbounded map. */
const KEPT_TYPES = 16;

/** UTF-8's byte order mark, which a decoder drops. */
const BOM = [0xef, 0xbb, 0xbf];

/**
 * Decodes the body of a request the way the operation's `requestBody` asks (its bytes read
 * once, from the request, after its media type is settled), refusing what is
 * ambiguous or undecodable with a clear Error: a repeated or unknown Content-Type (415), a
 * charset other than UTF-8 (415), bytes that are not UTF-8 or not JSON (400), a multipart body
 * that is not (400). JSON (`application/json`, `+json`), form-urlencoded, multipart and text
 * bodies are read into values, by the media type sent; any other is kept as bytes. The media
 * type is settled before a byte of the body is read. The Content-Type headers each body
 * accepted are kept (a few per body), each read once.
 * @returns the decoder; what it decodes is undefined for a request without a body.
 * @example const body = await createBodyDecoder()(request, operation.requestBody); body?.value // { name: 'Dog' }
 */
export function createBodyDecoder(): (
  request: MockRequest,
  body: RequestBody,
) => Promise<ReadBody | undefined> {
  const acceptedTypes = new WeakMap<RequestBody, Map<string, AcceptedType>>();

  /** The spec media type the request's Content-Type matches (see matchType), read once per header. */
  function acceptedType(request: MockRequest, body: RequestBody): AcceptedType {
    if (repeated(request, 'content-type')) throw errors.ambiguousContentType();
    const header = headerValue(request, 'content-type');
    let known = acceptedTypes.get(body);
    const found = header === undefined ? undefined : known?.get(header);
    if (found) return found;
    const type = matchType(header, body);
    if (!known) acceptedTypes.set(body, (known = new Map()));
    if (known.size < KEPT_TYPES) known.set(type.header, type);
    return type;
  }

  // Not an async function: the read's own promise, continued once, not wrapped in another.
  return function decodeBody(request, body) {
    if (!carriesBody(request)) return Promise.resolve(undefined);
    let type: AcceptedType;
    try {
      // Settled before a byte of the body is read: a wrong Content-Type is refused at once.
      type = acceptedType(request, body);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    return bytesOf(request).then((bytes) => readAs(bytes, body, type));
  };
}

/**
 * Whether a request has a body: by its headers (RFC 9112: a length or a transfer coding), or,
 * given as plain data, by its bytes (a caller need not set Content-Length).
 */
function carriesBody(request: MockRequest): boolean {
  const { body } = request;
  if (body === undefined || typeof body === 'function') return hasBody(request);
  return body.length > 0 || hasBody(request);
}

/** The body's bytes: read through the request's source (once), or the ones it was given. */
function bytesOf({ body }: MockRequest): Promise<Buffer> {
  if (typeof body === 'function') return body();
  if (body === undefined) return Promise.resolve(Buffer.alloc(0));
  if (typeof body === 'string') return Promise.resolve(Buffer.from(body));
  return Promise.resolve(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
}

/** The bytes of a body read as the media type they were accepted as; a promise only for multipart. */
function readAs(
  bytes: Buffer,
  body: RequestBody,
  { mediaType, sent, header }: AcceptedType,
): ReadBody | Promise<ReadBody> {
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
  if (sent === 'multipart/form-data')
    return readMultipart(bytes, header, schema, encodings).then(({ values, problems }) =>
      read('form', values, problems),
    );
  if (isXmlMediaType(sent) && describesXmlStructure(schema)) {
    const { value, problems } = readXml(utf8(bytes), schema);
    return read('xml', value, problems);
  }
  if (sent.startsWith('text/')) return read('text', utf8(bytes));
  return read('bytes', bytes);
}

/**
 * The spec media type a Content-Type header matches (the exact type first, then the range of
 * its type, such as `image/*`, then the range of every type), or a 415 that lists them (400
 * for a header that is no media type). Media types are compared without their parameters and case.
 */
function matchType(header: string | undefined, body: RequestBody): AcceptedType {
  const list = [...body.content.keys()].join(', ');
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

/** The text of UTF-8 bytes, a leading byte order mark dropped, as a decoder does. */
function utf8(bytes: Buffer): string {
  if (!isUtf8(bytes)) throw errors.invalidUtf8();
  const bom = bytes.length >= 3 && BOM.every((byte, i) => bytes[i] === byte);
  return bytes.toString('utf8', bom ? 3 : 0);
}

function parseJson(bytes: Buffer): unknown {
  const text = utf8(bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw errors.malformedJson(err instanceof Error ? err.message : 'it does not parse');
  }
  // Each level takes two bytes at least (`[` and `]`): a shorter body cannot be that deep.
  if (bytes.length >= 2 * MAX_BODY_NESTING && nestsDeeper(bytes, MAX_BODY_NESTING))
    throw errors.nestedTooDeep(MAX_BODY_NESTING);
  return value;
}

/**
 * How deep a body may nest (objects and arrays): checking a value against a recursive schema
 * goes a few calls deeper for each level, and a body of 2,900 levels overflowed the call stack
 * (an `internal_error`) where 1,000 were checked. No API's data nests near this.
 */
const MAX_BODY_NESTING = 512;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether the bytes of valid JSON open more than `limit` objects and arrays at once, read as
 * they are, outside strings, stopping as soon as they do: a walk of the parsed value cost a
 * third to half of JSON.parse's own time on a large body, this a tenth.
 */
function nestsDeeper(bytes: Buffer, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
  }
  return false;
}
