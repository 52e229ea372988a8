// The bounds of the HTTP layer apart from the server that keeps them: the options name them
// without loading node:http and node:net (petstore-kit/msw has no sockets).

/** The bounds of the HTTP layer, each with an option of the CLI. */
export interface ServerLimits {
  /**
   * The largest request head (request line and headers) in bytes; a larger one gets 431,
   * or 414 when the request line alone is too long.
   * @default 16384
   */
  maxHeaderSize: number;
  /**
   * A request must have arrived whole, body included, within this many milliseconds, else 408.
   * @default 30000
   */
  requestTimeout: number;
  /**
   * Its head must have arrived within this many milliseconds, else 408.
   * @default 10000
   */
  headersTimeout: number;
  /**
   * An idle keep-alive connection is closed after this many milliseconds.
   * @default 5000
   */
  keepAliveTimeout: number;
  /**
   * On shutdown, requests still being answered get this many milliseconds to finish.
   * @default 5000
   */
  shutdownTimeout: number;
  /**
   * A client that takes nothing of a large answer (over 64 KiB) for this many milliseconds is
   * dropped: its connection reset, what the mock and the kernel held for it freed.
   * @default 30000
   */
  sendTimeout: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  maxHeaderSize: 16 * 1024,
  requestTimeout: 30_000,
  headersTimeout: 10_000,
  keepAliveTimeout: 5_000,
  shutdownTimeout: 5_000,
  sendTimeout: 30_000,
};
