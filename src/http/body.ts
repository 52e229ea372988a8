import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseContentType, type ContentType } from 'content-type';
import { isJsonMediaType, type RequestBody } from '../openapi/operations.js';
import { hasBody, repeated } from './headers.js';
import { ApiError } from '../vocabulary/errors.js';

/** A request body as read: its media type, and its value (parsed JSON, or the raw bytes). */
export interface ReadBody {
  /** The media type of the spec it matched, e.g. `application/json`. */
  mediaType: string;
  /** Parsed JSON for a JSON media type, else the bytes. */
  value: unknown;
  /** Its size in bytes, decoded. */
  bytes: number;
}

export interface BodyReaderOptions {
  /** The largest body in bytes, after decompression. */
  limit: number;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body of a request the way the operation's `requestBody` asks, refusing what is
 * ambiguous or undecodable with a clear Error: a repeated or unknown Content-Type (415),
 * an encoding other than gzip, deflate or br (415), a body over the limit (413, before a
 * single byte is read when Content-Length says so), bytes that are not UTF-8 or not JSON
 * (400). A client that sent `Expect: 100-continue` is told to continue only here, after
 * authentication, so a bad credential gets its 401 before the body is sent.
 * @returns undefined when the request has no body.
 * @example const body = await readBody(req, res, operation.requestBody); body?.value // { name: 'Dog' }
 */
export function createBodyReader(
  options: BodyReaderOptions,
): (req: IncomingMessage, res: ServerResponse, spec: RequestBody) => Promise<ReadBody | undefined> {
  // Loaded on the first body, not at start-up (a quarter of a second of modules), and
  // warmed in the background meanwhile so that first body does not wait for it.
  let reader: Promise<(req: never, res: never, next: (err?: unknown) => void) => void> | undefined;
  const readRaw = () =>
    (reader ??= import('body-parser').then(({ default: bodyParser }) =>
      bodyParser.raw({ type: () => true, limit: options.limit, inflate: true }),
    ));
  setImmediate(() => void readRaw().catch(() => undefined));

  return async function readBody(req, res, spec) {
    if (!hasBody(req)) return undefined;
    const mediaType = acceptedType(req, spec);
    const declared = Number(req.headers['content-length']);
    if (declared > options.limit && !req.headers['content-encoding']) {
      throw new ApiError(
        413,
        'payload_too_large',
        `The body is larger than the limit of ${options.limit} bytes`,
      );
    }
    // Node sends 100 Continue itself unless the server listens for `checkContinue`, which
    // the mock's does; in-process (supertest) it has already been sent.
    if (req.headers.expect !== undefined && !(res as { _sent100?: boolean })._sent100)
      res.writeContinue();
    const read = await readRaw();
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      read(req as never, res as never, (err?: unknown) =>
        err ? reject(err as Error) : resolve((req as { body?: unknown }).body as Buffer),
      );
    });
    if (!isJsonMediaType(mediaType)) return { mediaType, value: bytes, bytes: bytes.length };
    return { mediaType, value: parseJson(bytes), bytes: bytes.length };
  };
}

/** The spec media type the request's Content-Type matches, or a 415 that lists them. */
function acceptedType(req: IncomingMessage, spec: RequestBody): string {
  const accepted = [...spec.content.keys()];
  const list = accepted.join(', ');
  if (repeated(req, 'content-type')) {
    throw new ApiError(
      400,
      'ambiguous_request',
      'The request has more than one Content-Type header: send exactly one',
    );
  }
  const header = req.headers['content-type'];
  if (header === undefined) {
    throw new ApiError(
      415,
      'unsupported_media_type',
      `The body has no Content-Type header: send it as ${list}`,
    );
  }
  const parsed: ContentType = parseContentType(header);
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(parsed.type)) {
    throw new ApiError(
      415,
      'unsupported_media_type',
      `The Content-Type "${header}" is not a media type: send ${list}`,
    );
  }
  const charset = parsed.parameters.charset?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError(
      415,
      'unsupported_media_type',
      `The charset "${charset}" is not supported: send UTF-8`,
    );
  }
  const match = accepted.find((type) => matches(type, parsed.type));
  if (match === undefined) {
    throw new ApiError(
      415,
      'unsupported_media_type',
      `This operation accepts ${list}, not ${parsed.type}`,
    );
  }
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
    throw new ApiError(400, 'invalid_utf8', 'The body is not valid UTF-8 text');
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : 'it does not parse';
    throw new ApiError(400, 'malformed_json', `The body is not valid JSON: ${reason}`);
  }
}
