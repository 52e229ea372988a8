import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from '../src/wiring/create-app.js';
import { ADMIN_SPEC_PATH } from '../src/openapi/bundled.js';
import { createMockServer, type ServerLimits } from '../src/http/server.js';
import { loadSpec } from '../src/openapi/load.js';
import { KEY } from './helpers.js';

/** A mock listening on a free port, as the CLI runs it (Node's HTTP layer included). */
export interface Served {
  port: number;
  /** e.g. http://127.0.0.1:1234 (no base path). */
  origin: string;
  server: Server;
  close(): Promise<void>;
}

const running: Served[] = [];

/** Starts createApp behind createMockServer on port 0; `closeAll` stops them all. */
export async function serve(
  options: Partial<AppOptions> = {},
  limits: Partial<ServerLimits> = {},
): Promise<Served> {
  const app = createApp({
    spec: options.spec ?? (await loadSpec()),
    adminSpec: await loadSpec(ADMIN_SPEC_PATH),
    apiKeys: [KEY],
    ...options,
  });
  const { server, close } = createMockServer(app, limits);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const served = { port, origin: `http://127.0.0.1:${port}`, server, close };
  running.push(served);
  return served;
}

export async function closeAll(): Promise<void> {
  await Promise.all(running.splice(0).map((served) => served.close()));
}

/** A parsed raw HTTP answer. */
export interface RawAnswer {
  /** Every status line the server sent, interim ones (100 Continue) included. */
  statuses: number[];
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The JSON body, if it parses. */
  json: unknown;
}

/** Opens a socket to the port. */
export async function open(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** Everything the server sends on `socket` until it closes it (or `ms` pass). */
export function readAll(socket: Socket, ms = 10_000): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(text);
    }, ms);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.on('error', () => undefined);
  });
}

/** Sends raw bytes and reads the whole answer (ask for `Connection: close`, or the server times out). */
export async function raw(port: number, request: string | Buffer, ms?: number): Promise<RawAnswer> {
  const socket = await open(port);
  const reading = readAll(socket, ms);
  socket.write(request);
  return parseAnswer(await reading);
}

/** Splits what a server sent into its status lines, final headers and body. */
export function parseAnswer(text: string): RawAnswer {
  const statuses: number[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    const head = end === -1 ? rest : rest.slice(0, end);
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
    statuses.push(status);
    rest = end === -1 ? '' : rest.slice(end + 4);
    if (status >= 200 || status === 0 || end === -1) {
      const headers: Record<string, string> = {};
      for (const line of head.split('\r\n').slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = headers['transfer-encoding'] === 'chunked' ? dechunk(rest) : rest;
      let json: unknown;
      try {
        json = JSON.parse(Buffer.from(body, 'latin1').toString('utf8'));
      } catch {
        json = undefined;
      }
      return { statuses, status, headers, body, json };
    }
  }
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    if (lineEnd === -1) return out;
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}
