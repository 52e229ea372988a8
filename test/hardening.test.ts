// What a long CI day sends a mock, over real sockets: every answer is the spec's Error JSON,
// Node's own HTTP layer included; ambiguous requests are refused; resources are bounded.
import { Agent, request } from 'node:http';
import * as zlib from 'node:zlib';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStore } from '../src/store/memory-store.js';
import { CATEGORIES, KEY, storedCategories } from './helpers.js';
import {
  closeAll,
  open,
  parseAnswer,
  raw,
  readAll,
  serve,
  type RawAnswer,
} from './server-helpers.js';
import { ownConnections } from './own-connections.js';

const { closeConnections } = ownConnections();

// The test's own keep-alive connections closed first: the stop has no idle grace to wait out.
afterEach(async () => {
  await closeConnections();
  await closeAll();
});

/** An Error body with this status, in JSON, and nothing a client should not see. */
function expectErrorAnswer(answer: RawAnswer, status: number, code?: string | RegExp): void {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.json).toEqual({
    code: code instanceof RegExp ? expect.stringMatching(code) : (code ?? expect.any(String)),
    message: expect.any(String),
    status,
  });
  expect(answer.body).not.toMatch(/\bat .*\.(js|ts):\d+|node_modules|<html/i);
}

function post(body: string | Buffer, headers: string[] = []): Buffer {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const head = [
    'POST /v1/categories HTTP/1.1',
    'Host: localhost',
    'Connection: close',
    `Content-Length: ${bytes.length}`,
    ...headers,
    '',
    '',
  ].join('\r\n');
  return Buffer.concat([Buffer.from(head), bytes]);
}

const AUTH = `Authorization: Bearer ${KEY}`;
const JSON_TYPE = 'Content-Type: application/json';

describe("Node's HTTP layer answers in the Error shape too", () => {
  it('headers over the limit -> 431 Error', async () => {
    const { port } = await serve({}, { maxHeaderSize: 4096 });
    const answer = await raw(
      port,
      `GET /v1/categories HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(5000)}\r\n\r\n`,
    );
    expectErrorAnswer(answer, 431, 'request_header_fields_too_large');
    expect(answer.headers.connection).toBe('close');
  });

  it('a request line over the limit -> 414 Error', async () => {
    const { port } = await serve({}, { maxHeaderSize: 4096 });
    const answer = await raw(
      port,
      `GET /v1/${'a'.repeat(6000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    );
    expectErrorAnswer(answer, 414, 'uri_too_long');
  });

  it.each([
    { what: 'garbage', request: 'HELLO\r\n\r\n' },
    { what: 'a bad header line', request: 'GET /v1/categories HTTP/1.1\r\nBad Header\r\n\r\n' },
    {
      what: 'both Content-Length and chunked',
      request:
        'POST /v1/categories HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    },
    {
      what: 'a bad chunk size',
      request: `${post('').toString().replace('Content-Length: 0', 'Transfer-Encoding: chunked')}zz\r\n`,
    },
  ])('a malformed request ($what) -> a 4xx/5xx Error', async ({ request }) => {
    const { port } = await serve();
    const answer = await raw(port, request);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expectErrorAnswer(answer, answer.status);
  });

  // Short timeouts: the head (and body) below never arrive whole, so no timeout can come early.
  it('a request whose head stalls -> 408 Error within the headers timeout', async () => {
    const { port } = await serve({}, { headersTimeout: 100, requestTimeout: 2000 });
    const socket = await open(port);
    const reading = readAll(socket);
    socket.write('GET /v1/categories HTTP/1.1\r\nHost: localhost\r\n');
    expectErrorAnswer(parseAnswer(await reading), 408, 'request_timeout');
  });

  it('a body shorter than its Content-Length -> 408 Error within the request timeout', async () => {
    const { port } = await serve({}, { headersTimeout: 100, requestTimeout: 300 });
    const socket = await open(port);
    const reading = readAll(socket);
    socket.write(
      `POST /v1/categories HTTP/1.1\r\nHost: localhost\r\n${AUTH}\r\n${JSON_TYPE}\r\nContent-Length: 100\r\n\r\n{"na`,
    );
    expectErrorAnswer(parseAnswer(await reading), 408, 'request_timeout');
  });

  it('an expectation other than 100-continue -> 417 Error', async () => {
    const { port } = await serve();
    const answer = await raw(
      port,
      `GET /v1/categories HTTP/1.1\r\nHost: localhost\r\n${AUTH}\r\nExpect: something\r\nConnection: close\r\n\r\n`,
    );
    expectErrorAnswer(answer, 417, 'expectation_failed');
  });

  it('the absolute form of a request target (as sent to proxies) is served', async () => {
    const { port } = await serve();
    const answer = await raw(
      port,
      `GET http://127.0.0.1:${port}/v1/categories HTTP/1.1\r\nHost: localhost\r\n${AUTH}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
  });
});

describe('Expect: 100-continue', () => {
  it('without a valid credential: the 401 comes before the body is asked for', async () => {
    const { port } = await serve();
    const socket = await open(port);
    const reading = readAll(socket);
    // The head only: a client that expects 100 waits for it before sending the body.
    socket.write(
      `POST /v1/categories HTTP/1.1\r\nHost: localhost\r\n${JSON_TYPE}\r\nContent-Length: 15\r\nExpect: 100-continue\r\n\r\n`,
    );
    const answer = parseAnswer(await reading);
    expect(answer.statuses).toEqual([401]);
    expectErrorAnswer(answer, 401, 'missing_credential');
  });

  it('with a valid credential: 100 Continue, then the answer', async () => {
    const { port } = await serve();
    const socket = await open(port);
    const reading = readAll(socket);
    socket.write(
      `POST /v1/categories HTTP/1.1\r\nHost: localhost\r\n${AUTH}\r\n${JSON_TYPE}\r\nContent-Length: 15\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
    socket.once('data', () => socket.write('{"name":"Yak"}\n'));
    const answer = parseAnswer(await reading);
    expect(answer.statuses).toEqual([100, 201]);
    expect(answer.json).toMatchObject({ name: 'Yak' });
  });

  it('a body over the limit gets 413 before it is asked for', async () => {
    const { port } = await serve({ bodyLimit: 10 });
    const socket = await open(port);
    const reading = readAll(socket);
    socket.write(
      `POST /v1/categories HTTP/1.1\r\nHost: localhost\r\n${AUTH}\r\n${JSON_TYPE}\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`,
    );
    const answer = parseAnswer(await reading);
    expect(answer.statuses).toEqual([413]);
  });
});

describe('ambiguous requests are refused', () => {
  it('two Authorization headers, a valid one first -> 401', async () => {
    const { port } = await serve();
    const answer = await raw(
      port,
      post('{"name":"Dog"}', [AUTH, 'Authorization: Bearer other', JSON_TYPE]),
    );
    expectErrorAnswer(answer, 401, 'invalid_credential');
    expect((answer.json as { message: string }).message).toMatch(/more than one Authorization/);
  });

  it('two Content-Type headers -> 400', async () => {
    const { port } = await serve();
    const answer = await raw(
      port,
      post('{"name":"Dog"}', [AUTH, JSON_TYPE, 'Content-Type: text/plain']),
    );
    expectErrorAnswer(answer, 400, 'ambiguous_request');
  });

  it('a JSON body that is not UTF-8 -> 400, and nothing stored', async () => {
    const store = createMemoryStore();
    const { port } = await serve({ store });
    const bytes = Buffer.concat([
      Buffer.from('{"name":"Caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}'),
    ]);
    const answer = await raw(port, post(bytes, [AUTH, JSON_TYPE]));
    expectErrorAnswer(answer, 400, 'invalid_utf8');
    expect(await storedCategories(store)).toEqual([]);
  });

  it('UTF-8 beyond ASCII is kept exactly', async () => {
    const { port } = await serve();
    const answer = await raw(port, post(JSON.stringify({ name: 'Café 🐈 猫' }), [AUTH, JSON_TYPE]));
    expect(answer.status).toBe(201);
    expect((answer.json as { name: string }).name).toBe('Café 🐈 猫');
  });
});

describe('compressed bodies', () => {
  it('a gzip body is read', async () => {
    const { port } = await serve();
    const answer = await raw(
      port,
      post(gzipSync('{"name":"Zipped"}'), [AUTH, JSON_TYPE, 'Content-Encoding: gzip']),
    );
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ name: 'Zipped' });
  });

  /** zstd where this Node has it (22.15, 23.8 and later), as the mock then reads it too. */
  const zstdSync = (zlib as { zstdCompressSync?: (data: string) => Buffer }).zstdCompressSync;
  const packers: [string, (data: string) => Buffer][] = [
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ...(zstdSync ? [['ZSTD', zstdSync] as [string, (data: string) => Buffer]] : []),
  ];
  it.each(packers)('a %s body is read, the encoding in any case', async (encoding, compress) => {
    const { port } = await serve();
    const answer = await raw(
      port,
      post(compress('{"name":"Packed"}'), [AUTH, JSON_TYPE, `Content-Encoding: ${encoding}`]),
    );
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ name: 'Packed' });
  });

  it('a body over the limit once decompressed -> 413', async () => {
    const { port } = await serve({ bodyLimit: 1000 });
    const name = 'x'.repeat(5000);
    const answer = await raw(
      port,
      post(gzipSync(JSON.stringify({ name })), [AUTH, JSON_TYPE, 'Content-Encoding: gzip']),
    );
    expectErrorAnswer(answer, 413, 'payload_too_large');
  });

  it.each(['gzip', 'deflate', 'br'])('a body labelled %s that is not -> 400', async (encoding) => {
    const { port } = await serve();
    const answer = await raw(
      port,
      post('{"name":"Plain"}', [AUTH, JSON_TYPE, `Content-Encoding: ${encoding}`]),
    );
    expectErrorAnswer(answer, 400, 'malformed_body');
  });

  it('an encoding the mock cannot decode -> 415', async () => {
    const { port } = await serve();
    const answer = await raw(
      port,
      post('{"name":"Plain"}', [AUTH, JSON_TYPE, 'Content-Encoding: compress']),
    );
    expectErrorAnswer(answer, 415, 'unsupported_encoding');
  });
});

describe('messages say what is wrong', () => {
  it.each([
    {
      what: 'an empty Bearer token',
      headers: ['Authorization: Bearer ', JSON_TYPE],
      body: '{"name":"x"}',
      message: /credential is empty/,
    },
    {
      what: 'no Content-Type',
      headers: [AUTH],
      body: '{"name":"x"}',
      message: /no Content-Type header: send it as application\/json/,
    },
    {
      what: 'null',
      headers: [AUTH, JSON_TYPE],
      body: 'null',
      message: /^\/body must be an object$/,
    },
    { what: '42', headers: [AUTH, JSON_TYPE], body: '42', message: /^\/body must be an object$/ },
    { what: '"x"', headers: [AUTH, JSON_TYPE], body: '"x"', message: /^\/body must be an object$/ },
  ])('$what', async ({ headers, body, message }) => {
    const { port } = await serve();
    const answer = await raw(port, post(body, headers));
    expect((answer.json as { message: string }).message).toMatch(message);
    expect((answer.json as { message: string }).message).not.toMatch(/undefined|not valid JSON/);
  });
});

describe('the store is bounded', () => {
  it('past its record limit a create gets 507, and nothing stored is lost', async () => {
    const store = createMemoryStore({ limits: { maxRecords: 3 } });
    const { port } = await serve({ store });
    const statuses: number[] = [];
    for (const name of ['A', 'B', 'C', 'D'])
      statuses.push((await raw(port, post(JSON.stringify({ name }), [AUTH, JSON_TYPE]))).status);
    expect(statuses).toEqual([201, 201, 201, 507]);
    const full = await raw(port, post('{"name":"E"}', [AUTH, JSON_TYPE]));
    expectErrorAnswer(full, 507, 'insufficient_storage');
    expect((await storedCategories(store)).map((c) => c.name)).toEqual(['A', 'B', 'C']);
  });

  it('past its size limit too', async () => {
    const store = createMemoryStore({ limits: { maxBytes: 100 } });
    const { port } = await serve({ store });
    const answer = await raw(
      port,
      post(JSON.stringify({ name: 'x'.repeat(200) }), [AUTH, JSON_TYPE]),
    );
    expectErrorAnswer(answer, 507, 'insufficient_storage');
  });
});

describe('large lists', () => {
  it('a list larger than one write is sent whole and exact, and a create meanwhile is served', async () => {
    const initial = Array.from({ length: 3000 }, (_, i) => ({
      id: i + 1,
      name: `Kind ${i + 1}`,
      description: 'd'.repeat(100),
    }));
    const store = createMemoryStore({ initial: { categories: initial } });
    const { origin } = await serve({ store });
    const headers = { Authorization: `Bearer ${KEY}` };
    const [list, created] = await Promise.all([
      fetch(`${origin}/v1/categories`, { headers }),
      fetch(`${origin}/v1/categories`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: '{"name":"During"}',
      }),
    ]);
    expect(created.status).toBe(201);
    // Its length is known before the first byte: summed from the records' cached JSON.
    const text = await list.text();
    expect(list.headers.get('transfer-encoding')).toBeNull();
    expect(Number(list.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    const body = JSON.parse(text) as { id: number }[];
    expect(body.slice(0, 3000)).toEqual(initial);
    expect(await store.collection(CATEGORIES).list()).toHaveLength(3001);
  });

  it('a list of records each larger than a write is sent whole and exact', async () => {
    const initial = Array.from({ length: 12 }, (_, i) => ({
      id: i + 1,
      name: `Big ${i + 1}`,
      // Every other record is larger than the 64 KiB the list is written in.
      description: (i % 2 ? 'b' : 'é').repeat(i % 2 ? 100_000 : 40_000),
    }));
    const store = createMemoryStore({ initial: { categories: initial } });
    const { origin } = await serve({ store });
    const list = await fetch(`${origin}/v1/categories`, {
      headers: { Authorization: `Bearer ${KEY}` },
    });
    const text = await list.text();
    expect(Number(list.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text)).toEqual(initial);
  });

  it('HEAD of a list sends the headers of GET and no body', async () => {
    const { port } = await serve();
    const answer = await raw(
      port,
      `HEAD /v1/categories HTTP/1.1\r\nHost: localhost\r\n${AUTH}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toBe('');
  });
});

describe('shutdown', () => {
  it('answers what is in flight with Connection: close, then stops', async () => {
    const served = await serve();
    const socket = await open(served.port);
    const reading = readAll(socket);
    // Keep-alive request, body still to come when the shutdown starts.
    socket.write(
      `POST /v1/categories HTTP/1.1\r\nHost: localhost\r\n${AUTH}\r\n${JSON_TYPE}\r\nContent-Length: 14\r\n\r\n{"name"`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closing = served.close();
    socket.write(':"Owl"}');
    const answer = parseAnswer(await reading);
    await closing;
    expect(answer.status).toBe(201);
    expect(answer.headers.connection).toBe('close');
    expect(served.server.listening).toBe(false);
  });

  it('under load, keep-alive clients are told to close, never reset', async () => {
    const served = await serve();
    const agent = new Agent({ keepAlive: true, maxSockets: 20 });
    const seen = { answered: 0, toldToClose: 0, reset: 0 };
    let stop = false;
    const one = () =>
      new Promise<void>((resolve) => {
        const req = request(
          {
            port: served.port,
            host: '127.0.0.1',
            path: '/v1/categories',
            agent,
            headers: { Authorization: `Bearer ${KEY}` },
          },
          (res) => {
            res.resume();
            res.on('end', () => {
              seen.answered += 1;
              if (res.headers.connection === 'close') seen.toldToClose += 1;
              resolve();
            });
          },
        );
        req.on('error', (err: NodeJS.ErrnoException) => {
          // A reset of a kept-alive connection is what shutdown must never do. A new
          // connection still in the kernel's accept queue when the mock stops listening is
          // reset by the kernel instead of refused: that is a refusal, as it should be.
          if ((err.code === 'ECONNRESET' || err.code === 'EPIPE') && req.reusedSocket)
            seen.reset += 1;
          stop = true; // refused: the mock no longer accepts, as it should
          resolve();
        });
        req.end();
      });
    const clients = Array.from({ length: 20 }, async () => {
      while (!stop) await one();
    });
    // Under way, on kept-alive connections: each client answered twice or so. Counted, not a
    // fixed 300 ms, which a busy machine can fill with fewer than 20 answers.
    await vi.waitFor(() => expect(seen.answered).toBeGreaterThan(40), { timeout: 15_000 });
    await served.close();
    stop = true;
    await Promise.all(clients);
    agent.destroy();
    expect(seen.reset).toBe(0);
    expect(seen.toldToClose).toBeGreaterThan(0);
    expect(seen.answered).toBeGreaterThan(20);
  });

  it('stops within the shutdown timeout even if a client never finishes', async () => {
    const served = await serve({}, { shutdownTimeout: 200 });
    const socket = await open(served.port);
    socket.write(
      `POST /v1/categories HTTP/1.1\r\nHost: localhost\r\n${AUTH}\r\n${JSON_TYPE}\r\nContent-Length: 100\r\n\r\n{`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await served.close();
    expect(served.server.listening).toBe(false);
    socket.destroy();
  });
});
