// A compressed request body, decompressed as it arrives and bounded after decompression: what
// body-parser's raw parser did for the mock, with Node's zlib and raw-body, and its errors.
import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream';
import * as zlib from 'node:zlib';
import { readRawBody } from './raw-body.js';

/** Node 22.15 and 23.8 have zstd; where Node has it, a zstd body is read too. */
const zstd = (zlib as { createZstdDecompress?: () => zlib.Zlib & NodeJS.ReadWriteStream })
  .createZstdDecompress;

/** The error of http-errors' shape, which error-mapping.ts maps by `status` and `type`. */
function httpError(status: number, message: string, fields: object): Error {
  return Object.assign(new Error(message), { status, statusCode: status, expose: true, ...fields });
}

/** The decompressing stream for a Content-Encoding (lower case); 415 for one not known. */
function decompressor(encoding: string): NodeJS.ReadWriteStream {
  switch (encoding) {
    case 'deflate':
      return zlib.createInflate();
    case 'gzip':
      return zlib.createGunzip();
    case 'br':
      return zlib.createBrotliDecompress();
    case 'zstd':
      if (zstd) return zstd();
  }
  throw httpError(415, `unsupported content encoding "${encoding}"`, {
    encoding,
    type: 'encoding.unsupported',
  });
}

/**
 * The body of a request sent with a Content-Encoding, decompressed, at most `limit` bytes once
 * decompressed. Undefined when the request has no body (no Content-Length, no
 * Transfer-Encoding). A failure is a 400 (zlib's error, its `code` kept) or raw-body's own
 * (413 `entity.too.large`, `request.aborted`), given once the request is read to its end.
 * @throws 415 `encoding.unsupported` for an encoding not known, before a byte is read.
 * @example const bytes = await inflatedBody(req, 1_000_000);
 */
export function inflatedBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined ||
    !Number.isNaN(Number.parseInt(req.headers['content-length'] ?? '', 10));
  if (!hasBody) return Promise.resolve(undefined);
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  const stream = decompressor(encoding);
  req.pipe(stream);
  return readRawBody(stream as never, { limit }).then(
    (body) => {
      // Detached once read: the finished decompressor would fail on anything after its end.
      req.unpipe();
      (stream as unknown as { destroy(): void }).destroy();
      return body;
    },
    (error: unknown) => {
      req.unpipe();
      (stream as unknown as { destroy(): void }).destroy();
      const failure = error as Error & { status?: number; statusCode?: number };
      if (typeof failure.status !== 'number')
        Object.assign(failure, { status: 400, statusCode: 400, expose: true });
      // The rest of the request read off, so that the answer is not sent mid-body.
      return new Promise<never>((_resolve, reject) => {
        if (req.readableEnded || req.destroyed) return reject(failure);
        finished(req, () => reject(failure));
        req.resume();
      });
    },
  );
}
