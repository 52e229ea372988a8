// supertest's way of writing a request (`request(app).post(path).set(AUTH).send(body)`) and of
// reading its answer (`status`, `headers`, `body`, `text`), answered by the app's `mock.fetch`
// with no port: supertest starts a server for every request, which is no test's point here.
import type { Mock } from '../src/core/create-mock.js';
import { AUTH } from './helpers.js';
import { IN_PROCESS_ORIGIN } from './in-process.js';

/** An answer as supertest gives one. */
export interface InProcessAnswer {
  status: number;
  /** Every header, its name lower-case. */
  headers: Record<string, string>;
  /** The JSON body parsed, or `{}` for a body that is not JSON (as supertest gives). */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers of every shape, read by the tests as supertest's are
  /** The body as text; undefined for a body that is not text, and for HEAD. */
  text: string | undefined;
}

/** A request being written: a promise of its answer, sent when awaited. */
export interface InProcessRequest extends PromiseLike<InProcessAnswer> {
  /** Sets a header, or every header of a record. */
  set(name: string | Record<string, string | undefined>, value?: string): this;
  /** Takes a header off, one supertest would have set. */
  unset(name: string): this;
  /** The body: an object or array is sent as JSON, text as a form unless a type is set. */
  send(body: string | Buffer | Uint8Array | object): this;
  /** A field of a multipart/form-data body. */
  field(name: string, value: string): this;
  /** A file of a multipart/form-data body. */
  attach(name: string, bytes: Uint8Array, file: { filename: string; contentType: string }): this;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';

/**
 * Requests to `app.mock`, written as supertest's.
 * @example const res = await request(app).get('/v1/categories').set(AUTH); res.status // 200
 */
export function request(app: {
  mock: Pick<Mock, 'fetch'>;
}): Record<Method, (path: string) => InProcessRequest> {
  const method = (name: Method) => (path: string) => requestTo(app.mock, name.toUpperCase(), path);
  return {
    get: method('get'),
    post: method('post'),
    put: method('put'),
    patch: method('patch'),
    delete: method('delete'),
    head: method('head'),
    options: method('options'),
  };
}

function requestTo(mock: Pick<Mock, 'fetch'>, method: string, path: string): InProcessRequest {
  const headers = new Headers();
  let body: string | Uint8Array | FormData | undefined;
  let answer: Promise<InProcessAnswer> | undefined;
  const pending: InProcessRequest = {
    set(name, value) {
      if (typeof name === 'string') headers.set(name, value ?? '');
      else
        for (const [key, each] of Object.entries(name))
          if (each !== undefined) headers.set(key, each);
      return pending;
    },
    unset(name) {
      headers.delete(name);
      return pending;
    },
    field(name, value) {
      if (!(body instanceof FormData)) body = new FormData();
      body.append(name, value);
      return pending;
    },
    attach(name, bytes, { filename, contentType }) {
      if (!(body instanceof FormData)) body = new FormData();
      body.append(name, new Blob([bytes], { type: contentType }), filename);
      return pending;
    },
    send(sent) {
      if (typeof sent === 'string') {
        body = sent;
        if (!headers.has('content-type'))
          headers.set('content-type', 'application/x-www-form-urlencoded');
      } else if (sent instanceof Uint8Array) body = sent;
      else {
        body = JSON.stringify(sent);
        if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      }
      return pending;
    },
    then(resolve, reject) {
      answer ??= send(mock, method, path, headers, body);
      return answer.then(resolve, reject);
    },
  };
  return pending;
}

async function send(
  mock: Pick<Mock, 'fetch'>,
  method: string,
  path: string,
  headers: Headers,
  body: string | Uint8Array | FormData | undefined,
): Promise<InProcessAnswer> {
  const response = await mock.fetch(
    new Request(`${IN_PROCESS_ORIGIN}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: body instanceof FormData ? body : Buffer.from(body) }),
    }),
  );
  // Response.error() is how the mock says the connection failed; supertest rejects for that.
  if (response.type === 'error') throw new Error('socket hang up');
  const answered: Record<string, string> = {};
  response.headers.forEach((value, name) => (answered[name] = value));
  const type = response.headers.get('content-type') ?? '';
  const bytes = Buffer.from(await response.arrayBuffer());
  const textual = /^text\/|[/+](json|xml)\b|^application\/x-www-form-urlencoded/.test(type);
  const text =
    method === 'HEAD' ? undefined : textual || type === '' ? bytes.toString() : undefined;
  let parsed: unknown = {};
  if (/[/+]json\b/.test(type) && text !== undefined && text !== '') parsed = JSON.parse(text);
  return { status: response.status, headers: answered, body: parsed, text };
}

/**
 * `call(method, target, body?)`: a JSON request with the tests' key to the app's mock (the app
 * read when called, so one made in `beforeAll` serves), its status and its body parsed
 * (undefined when empty).
 * @example const call = jsonCaller(() => app); const { status, body } = await call('POST', '/tickets', { summary: 'x' });
 */
export function jsonCaller(app: () => { mock: Pick<Mock, 'fetch'> }) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of every shape, read as the tests need
  type Body = any;
  return async (
    method: string,
    target: string,
    body?: unknown,
  ): Promise<{ status: number; body: Body }> => {
    const response = await app().mock.fetch(
      new Request(`${IN_PROCESS_ORIGIN}${target}`, {
        method,
        headers: { ...AUTH, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}
