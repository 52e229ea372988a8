// An undici Dispatcher that hands each request to a Node request listener (an Express app) in
// this process: the client still sends a method, a URL, headers and a body and reads a status,
// headers and a body, with no socket and no HTTP parsing at either end. For tests of what a
// client decides from the answers it gets; a test about connections keeps a real socket.
import { IncomingMessage, ServerResponse, type OutgoingHttpHeaders } from 'node:http';
import { Duplex } from 'node:stream';
import { Dispatcher, errors } from 'undici';

/** What a server answers with: `(req, res) => void`, as `http.createServer` takes (an Express app). */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** The handler undici's `request` gives a dispatcher (its callbacks before undici 7's controllers). */
interface Handler {
  onConnect?(abort: (reason?: Error) => void, context: object): void;
  onHeaders?(status: number, headers: Buffer[], resume: () => void, statusText: string): boolean;
  onData?(chunk: Buffer): boolean;
  onComplete?(trailers: Buffer[]): void;
  onError?(err: Error): void;
}

/** Statuses whose answer has no body, whatever the server writes (RFC 9110 §6.4.1). */
const NO_BODY = new Set([204, 304]);

/**
 * The connection a listener's request and response hold: what is written to it is dropped (the
 * response's bytes reach the client through `responseTo`), and destroying it is a dropped
 * connection, as a server's `req.socket.destroy()` is.
 */
function connection(): Duplex & { remoteAddress: string; remotePort: number } {
  // Readable, as an open connection is: body parsers read no request whose socket is not.
  const socket = new Duplex({ read: () => {}, write: (_chunk, _encoding, done) => done() });
  return Object.assign(socket, { remoteAddress: '127.0.0.1', remotePort: 0 });
}

/** Where a response's head and each chunk of its body go as they are written. */
interface Client {
  head(status: number, text: string, headers: OutgoingHttpHeaders): void;
  chunk(bytes: Buffer): void;
}

/**
 * A response that gives its head and each chunk of its body to `client` as they are written.
 * Its own methods, not a subclass's: an Express app gives every response a prototype of its own.
 */
function responseTo(req: IncomingMessage, client: Client): ServerResponse {
  const res = new ServerResponse(req);
  // Headers given to writeHead itself join the ones set before only once any was set: so that
  // getHeaders() holds every header sent, one is set and removed (as light-my-request does).
  res.setHeader('x-in-process', '1');
  res.removeHeader('x-in-process');
  const { writeHead, write, end } = res;
  const pass = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (req.method === 'HEAD' || NO_BODY.has(res.statusCode)) return;
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array);
    if (bytes.length > 0) client.chunk(bytes);
  };
  const untyped = res as unknown as Record<
    'writeHead' | 'write' | 'end',
    (...args: unknown[]) => unknown
  >;
  untyped.writeHead = (...args: unknown[]) => {
    (writeHead as (...args: unknown[]) => unknown).apply(res, args);
    client.head(res.statusCode, res.statusMessage, res.getHeaders());
    return res;
  };
  untyped.write = (chunk: unknown, encoding?: unknown, done?: unknown) => {
    if (!res.headersSent) res.writeHead(res.statusCode);
    pass(chunk, encoding);
    return (write as (...args: unknown[]) => boolean).call(res, chunk, encoding, done);
  };
  untyped.end = (chunk?: unknown, encoding?: unknown, done?: unknown) => {
    if (!res.headersSent) res.writeHead(res.statusCode);
    pass(chunk, encoding);
    return (end as (...args: unknown[]) => unknown).call(res, chunk, encoding, done);
  };
  return res;
}

/** The request's headers as Node's parser gives them: names lower-case, repeated ones joined. */
function headersOf(given: Dispatcher.DispatchOptions['headers']): [string, string][] {
  if (!given) return [];
  const pairs: [string, string][] = [];
  const add = (name: string, value: unknown) => {
    if (value === undefined || value === null) return;
    for (const each of Array.isArray(value) ? value : [value]) pairs.push([name, String(each)]);
  };
  if (Array.isArray(given))
    for (let at = 0; at < given.length; at += 2) add(String(given[at]), given[at + 1]);
  else if (Symbol.iterator in Object(given))
    for (const [name, value] of given as Iterable<[string, string]>) add(name, value);
  else for (const [name, value] of Object.entries(given)) add(name, value);
  return pairs;
}

/**
 * Answers every request with `listener`, in this process. Give it as the `dispatcher` of
 * undici's `request` (or a contract target's): the request's origin is its Host.
 * @example const res = await request('http://deployment.localhost/v1/categories', { dispatcher: new InProcessDispatcher(app) });
 */
export class InProcessDispatcher extends Dispatcher {
  /** The Host of each origin asked for, parsed once: a run sends hundreds of requests to one. */
  private readonly hosts = new Map<string, string>();

  constructor(private readonly listener: RequestListener) {
    super();
  }

  private hostOf(origin: string): string {
    let host = this.hosts.get(origin);
    if (host === undefined) {
      host = new URL(origin).host;
      this.hosts.set(origin, host);
    }
    return host;
  }

  override dispatch(
    options: Dispatcher.DispatchOptions,
    given: Dispatcher.DispatchHandler,
  ): boolean {
    const handler = given as Handler;
    const body = options.body;
    if (
      body !== undefined &&
      body !== null &&
      typeof body !== 'string' &&
      !(body instanceof Uint8Array)
    )
      throw new TypeError('InProcessDispatcher sends a body of text or bytes only');
    const bytes = body === undefined || body === null ? undefined : Buffer.from(body);

    const socket = connection();
    const req = new IncomingMessage(socket as never);
    req.method = options.method;
    req.url = options.path;
    req.httpVersion = '1.1';
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    const pairs = headersOf(options.headers);
    if (!pairs.some(([name]) => name.toLowerCase() === 'host') && options.origin)
      pairs.unshift(['host', this.hostOf(String(options.origin))]);
    if (bytes && !pairs.some(([name]) => name.toLowerCase() === 'content-length'))
      pairs.push(['content-length', String(bytes.length)]);
    req.rawHeaders = pairs.flat();
    for (const [name, value] of pairs) {
      const key = name.toLowerCase();
      const known = req.headers[key];
      req.headers[key] = known === undefined ? value : `${String(known)}, ${value}`;
    }
    if (bytes) req.push(bytes);
    req.push(null);
    req.complete = true;

    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      handler.onError?.(err);
    };
    const res = responseTo(req, {
      head: (status, text, headers) => {
        if (settled) return;
        // Names and values as text: undici reads each as text or as bytes, and Node's
        // setHeader already refused what a socket could not carry.
        const raw: string[] = [];
        for (const [name, value] of Object.entries(headers)) {
          if (value === undefined) continue;
          for (const each of Array.isArray(value) ? value : [value]) raw.push(name, String(each));
        }
        handler.onHeaders?.(status, raw as unknown as Buffer[], () => {}, text);
      },
      chunk: (chunk) => {
        if (!settled) handler.onData?.(chunk);
      },
    });
    res.assignSocket(socket as never);
    res.on('finish', () => {
      if (settled) return;
      settled = true;
      handler.onComplete?.([]);
    });
    // A connection the server drops before its answer ends is what undici reports for a socket.
    socket.on('close', () => fail(new errors.SocketError('other side closed')));

    handler.onConnect?.((reason) => {
      fail(reason ?? new errors.RequestAbortedError());
      // The server sees its client go away, as a closed socket shows it.
      res.destroy();
      req.destroy();
    }, {});
    // Answered in a later turn of the event loop, as a socket's request is: a run of requests
    // answered in process would otherwise hold the loop, and the timers and sockets of others wait.
    setImmediate(() => {
      if (settled) return;
      try {
        this.listener(req, res);
      } catch (err) {
        fail(err instanceof Error ? err : new Error(String(err)));
      }
    });
    return true;
  }

  override close(): Promise<void> {
    return Promise.resolve();
  }

  override destroy(): Promise<void> {
    return Promise.resolve();
  }
}
