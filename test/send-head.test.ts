// The head the sender writes: one object given to Node's writeHead must say exactly what
// setting the headers one by one said (the same names, values and order), whatever the answer.
import { createServer, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTurnBudget } from '../src/core/turn-budget.js';
import { createSender } from '../src/http/send.js';
import { CheckedJson, type CheckedAnswer } from '../src/vocabulary/answer.js';

const send = createSender(createTurnBudget(10));
const json = (text: string) => new CheckedJson(Buffer.from(text));

/** What each test path answers, and what is set on the response before the sender runs. */
const cases: Record<
  string,
  { answer: CheckedAnswer; varyOrigin?: boolean; before?: (res: ServerResponse) => void }
> = {
  '/plain': {
    answer: { status: 200, headers: { 'Content-Type': 'application/json' }, body: json('[1]') },
    varyOrigin: true,
  },
  '/own-vary': {
    answer: {
      status: 200,
      headers: { 'Content-Type': 'application/json', vary: 'Accept' },
      body: json('[1]'),
    },
    varyOrigin: true,
  },
  '/twice': {
    answer: {
      status: 201,
      headers: { 'Content-Type': 'text/plain', 'X-Id': '1', 'content-type': 'application/json' },
      body: json('{}'),
    },
  },
  '/set-before': {
    answer: { status: 200, headers: { 'X-Id': '2' }, body: json('{}') },
    varyOrigin: true,
    before: (res) => res.setHeader('Connection', 'close'),
  },
  '/empty-201': { answer: { status: 201, headers: { 'X-Id': '3' }, body: undefined } },
  '/empty-204': { answer: { status: 204, headers: { 'X-Id': '4' }, body: undefined } },
};

const server = createServer((req, res) => {
  const { answer, varyOrigin, before } = cases[req.url ?? ''] ?? cases['/plain']!;
  before?.(res);
  void send(req, res, answer, { varyOrigin: varyOrigin ?? false });
});

/** The head and body of one request's answer, as bytes on the wire (Date left out). */
function exchange(method: string, path: string): Promise<{ head: string[]; body: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString();
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = text.slice(0, end).split('\r\n');
      const length = Number(/^content-length: (\d+)$/im.exec(text.slice(0, end))?.[1] ?? 0);
      const bodyLength = method === 'HEAD' ? 0 : length;
      if (text.length < end + 4 + bodyLength) return;
      socket.destroy();
      resolve({
        head: head.filter((line) => !line.startsWith('Date: ')),
        body: text.slice(end + 4),
      });
    });
    socket.on('error', reject);
    socket.write(`${method} ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
  });
}

const keepAlive = ['Connection: keep-alive', 'Keep-Alive: timeout=5'];

describe("the head of the mock's answers", () => {
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is Vary (when CORS adds it), the answer’s headers, then Content-Length', async () => {
    expect(await exchange('GET', '/plain')).toEqual({
      head: [
        'HTTP/1.1 200 OK',
        'Vary: Origin',
        'Content-Type: application/json',
        'Content-Length: 3',
        ...keepAlive,
      ],
      body: '[1]',
    });
  });

  it('gives a HEAD request the headers of GET and no body', async () => {
    const { head, body } = await exchange('HEAD', '/plain');
    expect(head).toContain('Content-Length: 3');
    expect(body).toBe('');
  });

  it('lets an answer’s own Vary replace the added one, in its place, as setHeader does', async () => {
    expect((await exchange('GET', '/own-vary')).head).toEqual([
      'HTTP/1.1 200 OK',
      'vary: Accept',
      'Content-Type: application/json',
      'Content-Length: 3',
      ...keepAlive,
    ]);
  });

  it('writes a header an answer names twice (in two cases) once, the later value in the earlier place', async () => {
    expect((await exchange('GET', '/twice')).head).toEqual([
      'HTTP/1.1 201 Created',
      'content-type: application/json',
      'X-Id: 1',
      'Content-Length: 2',
      ...keepAlive,
    ]);
  });

  it('keeps a header set before the answer, first', async () => {
    expect((await exchange('GET', '/set-before')).head).toEqual([
      'HTTP/1.1 200 OK',
      'Connection: close',
      'Vary: Origin',
      'X-Id: 2',
      'Content-Length: 2',
    ]);
  });

  it('gives an answer with no body a zero length (as Node does), and a 204 none', async () => {
    expect((await exchange('GET', '/empty-201')).head).toEqual([
      'HTTP/1.1 201 Created',
      'X-Id: 3',
      ...keepAlive,
      'Content-Length: 0',
    ]);
    expect((await exchange('GET', '/empty-204')).head).toEqual([
      'HTTP/1.1 204 No Content',
      'X-Id: 4',
      ...keepAlive,
    ]);
  });
});
