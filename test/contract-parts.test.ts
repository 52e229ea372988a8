// The contract suite's parts that need no deployment: the retry policy, the near-misses of a
// key, the generated bodies, the target's settings, GitHub's escaping, a connection that fails.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidBodyArbitrary, validBodyArbitrary } from '../contract-tests/arbitraries.js';
import { send } from '../contract-tests/http.js';
import { nearMisses } from '../contract-tests/near-misses.js';
import { githubCommand } from '../contract-tests/reporter.js';
import { RETRY_LIMITS, retryAfterMs, retryStep } from '../contract-tests/retry.js';
import { loadContractSpec, type ContractSpec } from '../contract-tests/spec.js';
import { TARGET_DEFAULTS, TargetError, targetFromEnv } from '../contract-tests/target.js';

describe('the retry policy', () => {
  const now = Date.parse('2026-11-22T00:00:00Z');
  const first = { tries: 1, waitedMs: 0 };

  it.each([
    { status: 200, retryAfter: undefined, step: { kind: 'judge' } },
    { status: 500, retryAfter: '1', step: { kind: 'judge' } },
    { status: 429, retryAfter: '2', step: { kind: 'wait', ms: 2000 } },
    { status: 503, retryAfter: '0', step: { kind: 'wait', ms: 0 } },
    {
      status: 429,
      retryAfter: 'Sun, 22 Nov 2026 00:00:03 GMT',
      step: { kind: 'wait', ms: 3000 },
    },
    // A 503 that does not say when to come back is an answer like any other.
    { status: 503, retryAfter: undefined, step: { kind: 'judge' } },
    { status: 503, retryAfter: 'soon', step: { kind: 'judge' } },
  ])('$status with Retry-After $retryAfter: $step.kind', ({ status, retryAfter, step }) => {
    expect(retryStep(status, retryAfter, first, now)).toEqual(step);
  });

  it('backs off, doubling, on a 429 without Retry-After, and says so as advice', () => {
    expect(retryStep(429, undefined, first, now)).toEqual({
      kind: 'wait',
      ms: RETRY_LIMITS.backoffMs,
      advice: expect.stringMatching(/429 answers carry no valid Retry-After/),
    });
    expect(retryStep(429, undefined, { tries: 2, waitedMs: 1000 }, now)).toMatchObject({
      ms: 2 * RETRY_LIMITS.backoffMs,
    });
  });

  it('gives up after its tries, or before waiting past its cap', () => {
    expect(retryStep(429, '1', { tries: RETRY_LIMITS.tries, waitedMs: 3000 }, now)).toEqual({
      kind: 'give-up',
      why: `still 429 after ${RETRY_LIMITS.tries} tries and 3 s of waiting`,
    });
    expect(retryStep(503, '120', first, now)).toEqual({
      kind: 'give-up',
      why: "503 asks to wait 120 s, past the suite's 30 s of waiting per request",
    });
  });

  it('reads Retry-After as seconds or an HTTP-date, and nothing else', () => {
    expect(retryAfterMs(' 5 ', now)).toBe(5000);
    expect(retryAfterMs('Sat, 21 Nov 2026 23:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('-1', now)).toBeUndefined();
    expect(retryAfterMs('1.5', now)).toBeUndefined();
  });
});

describe('the near-misses of a key', () => {
  const headers = (key: string) =>
    Object.fromEntries(
      nearMisses(key).map(({ what, probes }) => [what, probes.map((p) => p.header)]),
    );

  it('derives each kind from the key, none of them the key itself', () => {
    expect(headers('Key-1')).toEqual({
      'an empty bearer token': ['Bearer '],
      'the key with characters added before': ['Bearer 0Key-1'],
      'the key with characters added after': ['Bearer Key-10'],
      'a proper part of the key': ['Bearer Key-', 'Bearer ey-1'],
      'the key in other letter case': ['Bearer KEY-1', 'Bearer key-1', 'Bearer kEY-1'],
      'the key with whitespace inside it': [
        'Bearer Ke y-1',
        'Bearer Ke\ty-1',
        'Bearer Key-1\u00a0',
      ],
    });
  });

  it('leaves out the kinds a key cannot have', () => {
    expect(Object.keys(headers('1234'))).not.toContain('the key in other letter case');
    const single = Object.keys(headers('k'));
    expect(single).not.toContain('a proper part of the key');
    expect(single).not.toContain('the key with whitespace inside it');
  });
});

describe('the bodies generated from the spec', () => {
  let spec: ContractSpec;
  beforeAll(async () => {
    spec = await loadContractSpec();
  });
  const schema = () => spec.operation('createCategory').requestSchema ?? {};

  it('are valid for the schema, or invalid, as they claim', () => {
    fc.assert(
      fc.property(validBodyArbitrary(schema()), (body) =>
        spec.acceptsRequest('createCategory', body),
      ),
      { numRuns: 300, seed: 1 },
    );
    fc.assert(
      fc.property(
        invalidBodyArbitrary(schema()),
        (body) => !spec.acceptsRequest('createCategory', body),
      ),
      { numRuns: 300, seed: 1 },
    );
  });

  it('send what real clients send: long text, text outside the BMP, whitespace, unknown fields', () => {
    const bodies = fc.sample(validBodyArbitrary(schema()), { numRuns: 400, seed: 2 });
    const texts = bodies.flatMap((body) =>
      [body.name, body.description].filter((t): t is string => typeof t === 'string'),
    );
    expect(texts.some((text) => [...text].length >= 256)).toBe(true);
    expect(texts.some((text) => /[\u{10000}-\u{10FFFF}]/u.test(text))).toBe(true);
    expect(texts.some((text) => text !== text.trim())).toBe(true);
    expect(texts.some((text) => /[<>"']/.test(text))).toBe(true);
    expect(
      bodies.some((body) => Object.keys(body).some((k) => !['name', 'description'].includes(k))),
    ).toBe(true);
    // Never a lone surrogate nor a control character but tab and newline: no client sends them.
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const control = (c: string) => (c < ' ' && c !== '\t' && c !== '\n') || c === '\u007f';
    expect(texts.filter((text) => lone.test(text) || [...text].some(control))).toEqual([]);
  });
});

describe('the target', () => {
  const env = { BASE_URL: 'http://127.0.0.1:1/v1', API_KEY: 'k' };

  it('takes seed, budget and timeout from the environment, with defaults', () => {
    expect(
      targetFromEnv({ ...env, CONTRACT_SEED: '42', CONTRACT_BUDGET: '0', CONTRACT_TIMEOUT: '250' }),
    ).toMatchObject({
      seed: 42,
      budget: 0,
      timeoutMs: 250,
    });
    const defaults = targetFromEnv(env);
    expect(defaults).toMatchObject({
      budget: TARGET_DEFAULTS.budget,
      timeoutMs: TARGET_DEFAULTS.timeoutMs,
    });
    expect(Number.isInteger(defaults.seed)).toBe(true);
  });

  it.each([{ CONTRACT_SEED: '-1' }, { CONTRACT_BUDGET: 'many' }, { CONTRACT_TIMEOUT: '0' }])(
    'refuses %o with one line',
    (bad) => {
      expect(() => targetFromEnv({ ...env, ...bad })).toThrow(TargetError);
    },
  );
});

describe('GitHub annotations', () => {
  it("escape what GitHub's toolkit escapes", () => {
    expect(githubCommand('error', 'rule 3: a, b', '50% off\nnext line\r')).toBe(
      '::error title=rule 3%3A a%2C b::50%25 off%0Anext line%0D',
    );
  });
});

describe('a connection that fails', () => {
  let server: Server;
  let baseUrl: string;
  let received = 0;
  beforeAll(async () => {
    // Drops every connection without an answer, as a target that is down behind a proxy.
    server = createServer((req) => {
      received += 1;
      req.socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is tried once more, then the rule cannot be judged', async () => {
    const ctx = { target: { baseUrl, timeoutMs: 2000 }, advise: () => {} };
    const sent = send(ctx, { method: 'get', path: '/categories', headers: {} });
    await expect(sent).rejects.toMatchObject({
      name: 'TargetUnavailable',
      message: expect.stringMatching(/^GET http:\/\/127\.0\.0\.1:\d+\/v1\/categories: \S+, twice$/),
    });
    expect(received).toBe(2);
  });
});
