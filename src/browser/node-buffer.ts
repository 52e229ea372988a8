// node:buffer in a browser: the `buffer` package's Buffer, and isUtf8 by a strict decoder.
export { Buffer } from 'buffer';

/** Whether the bytes are well-formed UTF-8, as node:buffer's isUtf8 says. */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
