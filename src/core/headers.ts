import type { MockRequest } from '../vocabulary/request.js';

/**
 * Whether a header arrived more than once. Node keeps only the first of a repeated
 * Authorization or Content-Type, which would make an ambiguous request look plain.
 */
export function repeated(request: Pick<MockRequest, 'rawHeaders'>, name: string): boolean {
  const raw = request.rawHeaders;
  if (raw === undefined) return false;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.length === name.length && raw[i]?.toLowerCase() === name && ++seen > 1) return true;
  }
  return false;
}

/** Whether the request carries a body at all (RFC 9112: a length or a transfer coding). */
export function hasBody(request: Pick<MockRequest, 'headers'>): boolean {
  if (request.headers['transfer-encoding'] !== undefined) return true;
  const length = request.headers['content-length'];
  return length !== undefined && length !== '0';
}

/** A header's value as one string: repeated values joined as HTTP joins list headers. */
export function headerValue(
  request: Pick<MockRequest, 'headers'>,
  name: string,
): string | undefined {
  const value = request.headers[name];
  return value === undefined || typeof value === 'string' ? value : value.join(', ');
}
