import type { IncomingMessage } from 'node:http';

/**
 * Whether a header arrived more than once. Node keeps only the first of a repeated
 * Authorization or Content-Type, which would make an ambiguous request look plain.
 */
export function repeated(req: IncomingMessage, name: string): boolean {
  const raw = req.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.length === name.length && raw[i]?.toLowerCase() === name && ++seen > 1) return true;
  }
  return false;
}

/** Whether the request carries a body at all (RFC 9112: a length or a transfer coding). */
export function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}
