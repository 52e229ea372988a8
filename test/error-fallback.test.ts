// The one fallback error body: what a server with no mock behind it (a plain listener given to
// createMockServer) answers to what Node's layer refuses, as the catalogue writes it. A socket,
// since the refusal (HTTP/1.1 without Host) is the HTTP layer's.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockServer } from '../src/http/server.js';
import { errors } from '../src/vocabulary/error-catalogue.js';

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

/** The raw bytes a request gets back, to the connection's end. */
async function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

describe('the fallback error body', () => {
  it('is the catalogue’s error as JSON, from a server with no mock behind it', async () => {
    const { server, close } = createMockServer((_req, res) => res.end('not reached'));
    stop = close;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const raw = await exchange(port, 'GET /v1/categories HTTP/1.1\r\nConnection: close\r\n\r\n');
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toContain('content-type: application/json; charset=utf-8');
    expect(body).toBe(JSON.stringify(errors.missingHost().toBody()));
  });
});
