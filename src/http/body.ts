import type { IncomingMessage, ServerResponse } from 'node:http';
import { readRawBody } from './raw-body.js';
import { errors } from '../vocabulary/error-catalogue.js';
import { inflatedBody } from './inflate.js';

export interface BodyReaderOptions {
  /** The largest body in bytes, after decompression. */
  limit: number;
}

/**
 * Reads request bodies off the socket: decompressed (gzip, deflate, br), bounded (413 before a
 * single byte is read when Content-Length says the body is too large), and only when asked.
 * A client that sent `Expect: 100-continue` is told to continue only then, which the core does
 * after authentication, so a bad credential gets its 401 before the body is sent.
 * Errors are raw-body's and inflate.ts's (http-errors' shape: a status and a type), which the core maps.
 * @example const read = createBodyReader({ limit: 1024 }); const bytes = await read(req, res);
 */
export function createBodyReader(
  options: BodyReaderOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<Buffer> {
  // Not an async function: raw-body's own promise is returned as it is, not wrapped in another.
  return function readBody(req, res) {
    try {
      return startReading(req, res);
    } catch (err) {
      return Promise.reject(err as Error);
    }
  };

  /** The read of a body, begun; throws what is refused before a byte is read. */
  function startReading(req: IncomingMessage, res: ServerResponse): Promise<Buffer> {
    // Mounted in a framework's app (petstore-kit/express), a body parser in front of the mock
    // may have read the stream already; body-parser (the app's) marks that with `_body`.
    if ((req as { _body?: boolean })._body === true || req.readableEnded)
      throw errors.bodyAlreadyRead();
    const declared = Number(req.headers['content-length']);
    if (declared > options.limit && !req.headers['content-encoding'])
      throw errors.payloadTooLarge(options.limit);
    // Node sends 100 Continue itself unless the server listens for `checkContinue`, which
    // the mock's does; in-process (supertest) it has already been sent.
    if (req.headers.expect !== undefined && !(res as { _sent100?: boolean })._sent100)
      res.writeContinue();
    // A compressed body is decompressed as it arrives (inflate.ts). One sent as it is is taken
    // from the request's buffer once it has all arrived (takeArrived), else read by raw-body.
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity')
      return inflatedBody(req, options.limit) as Promise<Buffer>;
    const read = () =>
      readRawBody(req, { length: req.headers['content-length'], limit: options.limit });
    // Asked for while Node is still parsing the request: its bytes, when they came in the same
    // packet, are buffered once this turn's parse is over, a microtask later.
    if (declared > 0 && req.headers['transfer-encoding'] === undefined)
      return Promise.resolve().then(() => takeArrived(req, declared) ?? read());
    return read();
  }
}

/**
 * A body whose every declared byte has arrived (a small one nearly always has, with its head),
 * taken from the request's buffer at once: no reader, no listeners, no turn spent waiting for
 * the stream's end, a share of every create's CPU. Undefined when some is still on
 * its way, or the stream is being read already.
 */
function takeArrived(req: IncomingMessage, declared: number): Buffer | undefined {
  if (req.readableFlowing === true || req.readableLength !== declared) return undefined;
  // Paused, read() gives all that is buffered, as one buffer: Content-Length framing lets
  // no byte of the next request in.
  const bytes = req.read() as Buffer | null;
  if (bytes === null) return undefined;
  // Flowing, the stream ends (and closes) as any read request does, once Node has parsed its end.
  req.resume();
  return bytes;
}
