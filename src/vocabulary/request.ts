/**
 * A request as the mock core receives it: plain data and one function to pull the body, with
 * nothing of `node:http`. The HTTP adapter makes one from each incoming request; a test or
 * another server can make one too.
 */
export interface MockRequest {
  /** In upper case, e.g. `POST`. */
  method: string;
  /** The request target as sent: a path and query, or the absolute form. */
  target: string;
  /** Header values by lower-case name, as Node gives them (repeated ones joined or listed). */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Header names and values as they arrived, in pairs: shows a header sent twice. */
  rawHeaders: readonly string[];
  /**
   * The body's bytes, decompressed. The core calls it at most once, and only after the
   * credential and the Content-Type are accepted: a refused request's body is never read.
   */
  readBody(): Promise<Buffer>;
}
