/**
 * A request as the mock core receives it: plain data, with nothing of `node:http`. A test or
 * another runtime gives the body as bytes or text; the Node adapter gives a function that
 * reads it off the socket, so that a request refused before its body (a bad credential, a
 * Content-Type the operation does not take) never has it read, and `100 Continue` is sent
 * only when the body is wanted. The core reads it once, either way.
 * @example { method: 'POST', target: '/v1/categories', headers: { 'content-type': 'application/json' }, body: '{"name":"Dog"}' }
 */
export interface MockRequest {
  /** In upper case, e.g. `POST`. */
  method: string;
  /** The request target as sent: a path and query, or the absolute form. */
  target: string;
  /** Header values by lower-case name, as Node gives them (repeated ones joined or listed). */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * Header names and values as they arrived, in pairs: shows a header sent twice.
   * @default none: each header of `headers` counts as sent once
   */
  rawHeaders?: readonly string[];
  /**
   * The body: its bytes or text, or a function that reads its bytes (decompressed) when the
   * core asks, at most once. None: no body.
   */
  body?: Uint8Array | string | BodySource;
}

/** Reads a body's bytes when the core first asks for them (see MockRequest.body). */
type BodySource = () => Promise<Buffer>;
