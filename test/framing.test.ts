// HTTP framing the parser refuses or Node answers on its own: each gets the spec's error, with
// the right status, and a request answered before the bad bytes keeps its answer (issue 18).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBodyReader } from '../src/http/body.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import { CATEGORIES, KEY } from './helpers.js';
import { closeAll, parseAnswer, raw, readAll, open, serve, type Served } from './server-helpers.js';

let served: Served;
const store = createMemoryStore();

beforeAll(async () => {
  served = await serve({ store });
});

afterAll(closeAll);

const HEAD = `Host: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\n`;

function expectError(answer: Awaited<ReturnType<typeof raw>>, status: number, message: RegExp) {
  expect(answer.status).toBe(status);
  expect(answer.headers.connection).toBe('close');
  expect(answer.json).toEqual({ code: expect.any(String), message: expect.any(String), status });
  expect((answer.json as { message: string }).message).toMatch(message);
}

describe('HTTP framing', () => {
  it('Content-Length with Transfer-Encoding: chunked is a 400, and closes (RFC 9112 §6.1)', async () => {
    const answer = await raw(
      served.port,
      `POST /v1/categories HTTP/1.1\r\n${HEAD}Content-Length: 15\r\nTransfer-Encoding: chunked\r\n\r\n` +
        'f\r\n{"name":"Dog1"}\r\n0\r\n\r\n',
    );
    expectError(answer, 400, /both Content-Length and Transfer-Encoding/);
  });

  it('two different Content-Length headers are a 400 that says so', async () => {
    const answer = await raw(
      served.port,
      `POST /v1/categories HTTP/1.1\r\n${HEAD}Content-Length: 15\r\nContent-Length: 16\r\n\r\n{"name":"Dog1"}`,
    );
    expectError(answer, 400, /more than one Content-Length/);
  });

  it('HTTP/1.1 without Host gets an Error body, not Node bare 400', async () => {
    const answer = await raw(
      served.port,
      `GET /v1/categories HTTP/1.1\r\nAuthorization: Bearer ${KEY}\r\n\r\n`,
    );
    expectError(answer, 400, /Host/);
  });

  it('HTTP/1.0 without Host is served', async () => {
    const answer = await raw(
      served.port,
      `GET /v1/categories HTTP/1.0\r\nAuthorization: Bearer ${KEY}\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
  });

  it('CONNECT is answered (501, the mock is not a proxy), not dropped', async () => {
    const answer = await raw(
      served.port,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    );
    expectError(answer, 501, /not a proxy/);
  });

  it('a create followed by garbage on the same connection gets its own answer first', async () => {
    const before = (await store.collection(CATEGORIES).list()).length;
    const socket = await open(served.port);
    const reading = readAll(socket);
    socket.write(
      `POST /v1/categories HTTP/1.1\r\n${HEAD}Content-Length: 16\r\n\r\n{"name":"Piped"}GARBAGE\r\n\r\n`,
    );
    const text = await reading;
    const first = parseAnswer(text);
    expect(first.status).toBe(201);
    expect(text).toContain('"name":"Piped"');
    // Then the garbage's own error, and the connection closes.
    const second = parseAnswer(text.slice(text.indexOf('HTTP/1.1', 4)));
    expect(second.status).toBe(501);
    expect((await store.collection(CATEGORIES).list()).length).toBe(before + 1);
  });
});

describe('request bodies on the wire', () => {
  let small: Served;
  beforeAll(async () => {
    small = await serve({ store: createMemoryStore(), bodyLimit: 64 });
  });

  const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

  it('a chunked body within the limit is read whole; one past it is a 413 that closes', async () => {
    const made = await raw(
      small.port,
      `POST /v1/categories HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
        chunk('{"name":') +
        chunk('"Chunked"}') +
        '0\r\n\r\n',
    );
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ name: 'Chunked' });

    // No Content-Length to refuse it by: the limit is found while reading.
    const socket = await open(small.port);
    const reading = readAll(socket);
    socket.write(`POST /v1/categories HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\n\r\n`);
    for (let i = 0; i < 4; i++) socket.write(chunk(`{"name":"${'x'.repeat(40)}"}`));
    const answer = parseAnswer(await reading);
    expectError(answer, 413, /64/);
  });

  it('a client that stops half-way through its body gets no record made, and the mock serves on', async () => {
    const before = (await store.collection(CATEGORIES).list()).length;
    const socket = await open(served.port);
    socket.write(`POST /v1/categories HTTP/1.1\r\n${HEAD}Content-Length: 40\r\n\r\n{"name":"Ha`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = await raw(
      served.port,
      `GET /v1/categories HTTP/1.1\r\n${HEAD}Connection: close\r\n\r\n`,
    );
    expect(after.status).toBe(200);
    expect((after.json as unknown[]).length).toBe(before);
  });

  it('bodies that come with their heads are read, and the connection kept, pipelined or not', async () => {
    const create = (name: string, last = false) => {
      const body = JSON.stringify({ name });
      return `POST /v1/categories HTTP/1.1\r\n${HEAD}Content-Length: ${Buffer.byteLength(body)}\r\n${last ? 'Connection: close\r\n' : ''}\r\n${body}`;
    };
    const socket = await open(served.port);
    const reading = readAll(socket);
    // Each head with its body in one packet; then two in one packet: no byte of the next
    // request is taken as the body of the one before.
    socket.write(create('First'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.write(create('Second') + create('Third', true));
    const text = await reading;
    const answers = text.split(/(?=HTTP\/1\.1 )/).map(parseAnswer);
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(answers.map((answer) => (answer.json as { name: string }).name)).toEqual([
      'First',
      'Second',
      'Third',
    ]);
    expect(answers.map((answer) => answer.headers.connection)).toEqual([
      'keep-alive',
      'keep-alive',
      'close',
    ]);
  });

  it('a body that comes after its head, in pieces, is read whole', async () => {
    const body = '{"name":"In pieces"}';
    const socket = await open(served.port);
    const reading = readAll(socket);
    socket.write(
      `POST /v1/categories HTTP/1.1\r\n${HEAD}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    for (const piece of [body.slice(0, 5), body.slice(5, 12), body.slice(12)]) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      socket.write(piece);
    }
    const answer = parseAnswer(await reading);
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ name: 'In pieces' });
  });

  it('a request whose body was read ends and closes, as middleware around the mock expects', async () => {
    const read = createBodyReader({ limit: 1024 });
    const events: string[] = [];
    const server = createServer((req, res) => {
      req.on('end', () => events.push('end'));
      req.on('close', () => events.push('close'));
      void read(req, res).then((bytes) => res.end(bytes));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await raw(
        port,
        `POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{"a":"bcd"}`,
      );
      expect(answer.body).toBe('{"a":"bcd"}');
      await vi.waitFor(() => expect(events).toEqual(['end', 'close']), { timeout: 10_000 });
    } finally {
      server.close();
    }
  });

  it('a gzip body is inflated and read', async () => {
    const body = gzipSync(Buffer.from('{"name":"Zipped"}'));
    const answer = await raw(
      small.port,
      Buffer.concat([
        Buffer.from(
          `POST /v1/categories HTTP/1.1\r\n${HEAD}Content-Encoding: gzip\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
        ),
        body,
      ]),
    );
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ name: 'Zipped' });
  });
});
