// A spec whose errors are Problem Details (application/problem+json) gets them for every
// error the mock answers, those found before any operation is known included: a missing or
// wrong credential, a path the spec lacks, a method it lacks, and a request Node's HTTP parser
// refuses before the mock sees it.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { raw } from './server-helpers.js';
import { KEY } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';

const LIBRARY = fileURLToPath(new URL('./fixtures/specs/library.yaml', import.meta.url));

let mock: InProcessMock;

beforeAll(async () => {
  mock = await inProcessMock({ spec: LIBRARY, apiKeys: [KEY], seedCount: 2 });
});

afterAll(() => mock.close());

/** Asserts an answer is RFC 9457 Problem Details with this status, in its media type. */
function expectProblem(contentType: string | null | undefined, body: unknown, status: number) {
  expect(contentType).toMatch(/^application\/problem\+json/);
  expect(body).toEqual({
    type: expect.stringMatching(/^urn:petstore-kit:error:/),
    title: expect.any(String),
    status,
    detail: expect.any(String),
  });
}

async function call(path: string, init: RequestInit = {}) {
  const res = await mock.fetch(`${mock.url}${path}`, init);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
}

describe('a Problem Details spec', () => {
  it('answers a missing credential with Problem Details', async () => {
    const { status, type, body } = await call('/authors');
    expect(status).toBe(401);
    expectProblem(type, body, 401);
  });

  it('answers a wrong credential with Problem Details', async () => {
    const { status, type, body } = await call('/authors', {
      headers: { Authorization: 'Bearer not-the-key' },
    });
    expect(status).toBe(401);
    expectProblem(type, body, 401);
  });

  it('answers a path the spec lacks (404) with Problem Details, credential or not', async () => {
    for (const headers of [{ Authorization: `Bearer ${KEY}` }, {}] as Record<string, string>[]) {
      const { status, type, body } = await call('/no-such-things', { headers });
      expect(status).toBe(headers.Authorization ? 404 : 401);
      expectProblem(type, body, status);
    }
  });

  it('answers a method the path lacks (405) with Problem Details', async () => {
    const { status, type, body } = await call('/authors', {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${KEY}` },
    });
    expect(status).toBe(405);
    expectProblem(type, body, 405);
  });
});

// What Node's HTTP parser refuses never reaches the mock: a socket is the point here.
describe("a Problem Details spec, behind Node's HTTP layer", () => {
  let served: RunningMock;
  let port: number;

  beforeAll(async () => {
    served = await startMock({ spec: LIBRARY, apiKeys: [KEY], seedCount: 2 });
    port = Number(new URL(served.url).port);
  });

  afterAll(() => served.close());

  it('answers a request the HTTP parser refuses with Problem Details, and closes', async () => {
    const answer = await raw(
      port,
      'GET /api/authors HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n',
    );
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe('close');
    expectProblem(answer.headers['content-type'], answer.json, 400);
  });

  it('answers a head too large (431) with Problem Details', async () => {
    const answer = await raw(
      port,
      `GET /api/authors HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer.status).toBe(431);
    expectProblem(answer.headers['content-type'], answer.json, 431);
  });
});
