// Generated requests over a real socket: whatever arrives, the mock answers the spec's Error
// JSON (or a valid success), with `status` equal to the HTTP status, shows no internals,
// pollutes nothing, and still answers afterwards. Reproduce a run with FUZZ_SEED=<seed>.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../src/store/memory-store.js';
import { KEY } from './helpers.js';
import { closeAll, raw, serve, type Served } from './server-helpers.js';

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

let served: Served;
const seen = new Map<number, number>();

beforeAll(async () => {
  served = await serve(
    { store: createMemoryStore({ limits: { maxRecords: 200 } }), bodyLimit: 64 * 1024 },
    { maxHeaderSize: 8192, headersTimeout: 2000, requestTimeout: 4000 },
  );
});

afterAll(async () => {
  await closeAll();
  const counts = [...seen].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
  console.log(`fuzz: seed ${SEED}, ${RUNS} requests, statuses ${counts.join(' ')}`);
});

const token = fc.stringMatching(/^[A-Za-z0-9._~-]{0,12}$/);
const weird = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  '%2e%2e',
  '..',
  '%00',
  '%',
  '%zz',
  '%E0%A4%A',
  '😀',
  'a b',
  '',
);
const segment = fc.oneof(token, weird);

const path = fc.oneof(
  { weight: 2, arbitrary: fc.constant('/v1/categories') },
  fc.constantFrom(
    '/v1/categories',
    '/v1/categories/',
    '/v1/pets/10',
    '/v1/store/orders',
    '/__mock/requests',
    '/v1',
    '/',
    '*',
  ),
  fc.array(segment, { maxLength: 4 }).map((segments) => `/v1/${segments.join('/')}`),
  fc.array(segment, { maxLength: 3 }).map((segments) => `/${segments.join('/')}`),
  fc.tuple(token, segment).map(([host, rest]) => `http://${host || 'h'}/v1/categories/${rest}`),
);

const query = fc.oneof(
  fc.constant(''),
  fc
    .array(fc.tuple(segment, segment), { maxLength: 3 })
    .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  fc.constantFrom('?limit=5', '?limit=abc', '?__proto__[x]=1', '?&&=', '?a=1&a=2'),
);

const method = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'),
  },
  fc.stringMatching(/^[A-Z]{1,8}$/),
);

/** A JSON value, nested and sometimes large, with the keys attackers like. */
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string(),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), weird), tie('value'), { maxKeys: 5 }),
  ),
})).value;

const body = fc.oneof(
  fc.constant(undefined),
  { weight: 2, arbitrary: fc.constant(Buffer.from('{"name":"Fuzzed","description":"ok"}')) },
  jsonValue.map((value) => Buffer.from(JSON.stringify(value) ?? 'null')),
  fc
    .record({ name: fc.oneof(fc.string(), fc.integer()), description: fc.option(fc.string()) })
    .map((value) => Buffer.from(JSON.stringify(value))),
  fc
    .constantFrom(
      '{"name":"x","__proto__":{"polluted":true}}',
      '{"name":"x","constructor":{"prototype":{"polluted":true}}}',
      '{"name":',
      '',
      'null',
      `{"name":"${'x'.repeat(70 * 1024)}"}`,
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
    )
    .map((text) => Buffer.from(text)),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);

/** Mostly the plain valid form, so that requests get past the first checks too. */
function mostly(valid: string, ...others: string[]): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(valid) }, fc.constantFrom(...others));
}

const headers = fc.record({
  auth: mostly(
    `Authorization: Bearer ${KEY}`,
    `Authorization: Bearer ${KEY}\r\nAuthorization: Bearer ${KEY}`,
    'Authorization: Bearer ',
    'Authorization: Basic eDp5',
    `Authorization: bearer ${KEY.toUpperCase()}`,
    '',
  ),
  contentType: mostly(
    'Content-Type: application/json',
    'Content-Type: application/json; charset=latin1',
    'Content-Type: application/json\r\nContent-Type: text/plain',
    'Content-Type: text/plain',
    'Content-Type: ;;;',
    '',
  ),
  encoding: fc.constantFrom(
    '',
    'Content-Encoding: gzip',
    'Content-Encoding: br',
    'Content-Encoding: x',
  ),
  extra: mostly(
    '',
    'Expect: 100-continue',
    'Expect: nonsense',
    'Origin: http://localhost:5173',
    'Access-Control-Request-Method: POST',
    `X-Large: ${'a'.repeat(9000)}`,
    'Transfer-Encoding: chunked',
  ),
});

function requestText(
  m: string,
  target: string,
  h: { auth: string; contentType: string; encoding: string; extra: string },
  bytes: Buffer | undefined,
): Buffer {
  const lines = [`${m} ${target} HTTP/1.1`, 'Host: fuzz', 'Connection: close'];
  for (const header of [h.auth, h.contentType, h.encoding, h.extra]) if (header) lines.push(header);
  const chunked = h.extra.startsWith('Transfer-Encoding');
  if (bytes && !chunked) lines.push(`Content-Length: ${bytes.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);
  if (!bytes) return chunked ? Buffer.concat([head, Buffer.from('0\r\n\r\n')]) : head;
  const payload = chunked
    ? Buffer.concat([
        Buffer.from(`${bytes.length.toString(16)}\r\n`),
        bytes,
        Buffer.from('\r\n0\r\n\r\n'),
      ])
    : bytes;
  return Buffer.concat([head, payload]);
}

describe(`fuzz (seed ${SEED})`, () => {
  it('answers every generated request with a valid success or the Error shape of its status', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, headers, body, async (m, p, q, h, b) => {
        const answer = await raw(served.port, requestText(m, `${p}${q}`, h, b), 8000);
        seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
        expect(answer.status, `no answer to ${m} ${p}${q}`).toBeGreaterThanOrEqual(200);
        expect(answer.status).toBeLessThan(600);
        expect(answer.body).not.toMatch(/\bat .*\.(js|ts):\d+|node_modules|\/work\/|<html/i);
        if (m === 'HEAD' && answer.body !== '') {
          // A HEAD answer has no body, unless the request did not parse as HEAD at all
          // (Node's parser refused its line), which closes the connection.
          expect(answer.headers.connection).toBe('close');
          expect(answer.status).toBeGreaterThanOrEqual(400);
        }
        if (m === 'HEAD') {
          expect(answer.body === '' || answer.json !== undefined).toBe(true);
        } else if (answer.status >= 400) {
          expect(answer.headers['content-type']).toMatch(/^application\/json/);
          expect(answer.json).toEqual({
            code: expect.any(String),
            message: expect.any(String),
            status: answer.status,
          });
        } else if (answer.body !== '') {
          expect(answer.json, answer.body.slice(0, 200)).not.toBeUndefined();
        }
      }),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: 60_000 },
    );
  });

  it('still answers afterwards, and nothing was polluted', async () => {
    const res = await fetch(`${served.origin}/v1/categories`, {
      headers: { Authorization: `Bearer ${KEY}` },
    });
    expect(res.status).toBe(200);
    expect(Array.isArray(await res.json())).toBe(true);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});
