// raw-body behind a plain signature. The build bundles raw-body into this file
// (scripts/build-vendored.mjs): it needs 10 small packages, which a user's install would get.
import getRawBody from 'raw-body';

/**
 * A stream's bytes to its end, at most `limit`, exactly `length` when given (raw-body's
 * http-errors otherwise: 413 `entity.too.large`, 400 `request.size.invalid`, `request.aborted`).
 * @example const bytes = await readRawBody(req, { length: req.headers['content-length'], limit: 1024 });
 */
export function readRawBody(
  stream: NodeJS.ReadableStream,
  options: { length?: string | number | undefined; limit: number },
): Promise<Buffer> {
  return getRawBody(stream as never, options);
}
