import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { errors } from '../vocabulary/error-catalogue.js';
import { ApiError } from '../vocabulary/errors.js';

/**
 * A body's bytes decoded from its Content-Encoding (gzip, deflate, br, in the order they were
 * applied), for the proxy to read what it passes on as it is. Decoding stops at `limit` bytes.
 * @throws {ApiError} 413 past `limit`, 415 for a coding it cannot read, 400 for bytes that do
 * not decode.
 * @example decodeBody(gzipSync('{}'), 'gzip', 1024).toString() // '{}'
 */
export function decodeBody(bytes: Buffer, encoding: string | undefined, limit: number): Buffer {
  const codings = (encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  let decoded = bytes;
  for (const coding of codings.reverse()) {
    const options = { maxOutputLength: limit };
    try {
      if (coding === 'gzip' || coding === 'x-gzip') decoded = gunzipSync(decoded, options);
      else if (coding === 'br') decoded = brotliDecompressSync(decoded, options);
      else if (coding === 'deflate') decoded = inflated(decoded, options);
      else throw errors.unsupportedEncoding(`The Content-Encoding "${coding}" is not supported`);
    } catch (err) {
      if (err instanceof RangeError) throw errors.payloadTooLarge(limit);
      if (err instanceof ApiError) throw err;
      throw errors.undecodableBody();
    }
  }
  return decoded;
}

/** `deflate` is zlib's format by the RFC, and raw deflate as some servers send it. */
function inflated(bytes: Buffer, options: { maxOutputLength: number }): Buffer {
  try {
    return inflateSync(bytes, options);
  } catch (err) {
    if (err instanceof RangeError) throw err;
    return inflateRawSync(bytes, options);
  }
}
