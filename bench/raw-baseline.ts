// The limit of one Node process here: a raw node:http server that serves the same bytes as the
// mock, with the same constant-time key check, and nothing else (no spec, no validation, no
// log). `tsx bench/raw-baseline.ts <count> <key>`.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createKeyChecker } from '../src/core/credentials.js';
import { animalKinds, seededFaker } from '../src/openapi/realistic.js';

const [count = '10', key = 'bench-key'] = process.argv.slice(2);
const isKey = createKeyChecker([key]);
const records: Record<string, unknown>[] = animalKinds(Number(count), seededFaker(1)).map(
  (category, i) => ({ id: i + 1, ...category }),
);
let lastId = records.length;
let listBytes: Buffer | undefined;
const JSON_TYPE = 'application/json; charset=utf-8';
const UNAUTHORIZED = Buffer.from('{"code":"unauthorized","message":"no key","status":401}');

function send(res: ServerResponse, status: number, body: Buffer): void {
  res.writeHead(status, { 'Content-Type': JSON_TYPE, 'Content-Length': body.length });
  res.end(body);
}

const server = createServer((req, res) => {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Bearer ') || !isKey(header.slice(7))) return send(res, 401, UNAUTHORIZED);
  if (req.url !== '/v1/categories') return send(res, 404, Buffer.from('{}'));
  if (req.method === 'GET') {
    listBytes ??= Buffer.from(JSON.stringify(records));
    return send(res, 200, listBytes);
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { name?: unknown };
    if (typeof body.name !== 'string') return send(res, 400, Buffer.from('{}'));
    const record = { ...body, id: ++lastId };
    records.push(record);
    listBytes = undefined;
    send(res, 201, Buffer.from(JSON.stringify(record)));
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`raw node:http listening on http://127.0.0.1:${port}/v1`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
