// The contract suite's parts that need no deployment: the retry policy, the near-misses of a
// key and the bad credentials of each scheme, the bodies built and generated from a spec,
// links, the target's settings, the report and its GitHub annotations, a connection that fails.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidBodyArbitrary, validBodyArbitrary } from '../contract-tests/arbitraries.js';
import { invalidBodies } from '../contract-tests/bodies.js';
import { invalidMediaBodies, validMediaBody } from '../contract-tests/media-bodies.js';
import { badCredentials, kindOf } from '../contract-tests/credentials.js';
import { send, type Exchange } from '../contract-tests/http.js';
import { nearMisses } from '../contract-tests/near-misses.js';
import { jsonRequestOf, type ContractPlan, type Schema } from '../contract-tests/plan.js';
import { RETRY_LIMITS, retryAfterMs, retryStep } from '../contract-tests/retry.js';
import { contractRules } from '../contract-tests/rules.js';
import { linkParameters } from '../contract-tests/rules/links.js';
import { sampleBody } from '../contract-tests/samples.js';
import { specOf, type ContractSpec } from '../contract-tests/spec.js';
import { parseBasic, TargetError, targetFromSettings } from '../contract-tests/target.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import {
  contractReport,
  floorShortfall,
  githubAnnotations,
  githubCommand,
} from '../src/cli/contract-report.js';
import { loadSpec } from '../src/openapi/load.js';

const LIBRARY = fileURLToPath(new URL('./fixtures/specs/library.yaml', import.meta.url));
const MEDIA = fileURLToPath(new URL('./fixtures/specs/media.yaml', import.meta.url));

describe('the retry policy', () => {
  const now = Date.parse('2026-11-22T00:00:00Z');
  const first = { tries: 1, waitedMs: 0 };

  it('waits out a 503 once only: still 503 after that, the target is unavailable', () => {
    expect(retryStep(503, '1', { tries: 2, waitedMs: 1000 }, now)).toEqual({
      kind: 'give-up',
      why: 'still 503 after waiting 1 s, as its Retry-After asked',
    });
  });

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
  const values = (key: string) =>
    Object.fromEntries(
      nearMisses(key).map(({ what, probes }) => [what, probes.map((p) => p.value)]),
    );

  it('derives each kind from the key, none of them the key itself', () => {
    expect(values('Key-1')).toEqual({
      'an empty bearer token': [''],
      'the key with characters added before': ['0Key-1'],
      'the key with characters added after': ['Key-10'],
      'a proper part of the key': ['Key-', 'ey-1'],
      'the key in other letter case': ['KEY-1', 'key-1', 'kEY-1'],
      'the key with whitespace inside it': ['Ke y-1', 'Ke\ty-1', 'Key-1\u00a0'],
    });
  });

  it('leaves out the kinds a key cannot have', () => {
    expect(Object.keys(values('1234'))).not.toContain('the key in other letter case');
    const single = Object.keys(values('k'));
    expect(single).not.toContain('a proper part of the key');
    expect(single).not.toContain('the key with whitespace inside it');
  });
});

describe('the bad credentials of each kind of scheme', () => {
  const shapes = (bad: ReturnType<typeof badCredentials>) =>
    Object.fromEntries(
      bad.map(({ what, probes }) => [
        what,
        probes.map(({ carrier }) => ({
          ...carrier.headers,
          ...Object.fromEntries(carrier.query.map(([n, v]) => [`?${n}`, v])),
          ...Object.fromEntries(carrier.cookies.map(([n, v]) => [`cookie ${n}`, v])),
        })),
      ]),
    );
  const none = new Set<string>();

  it('tells how each scheme takes its credential', () => {
    expect(kindOf({ type: 'http', scheme: 'bearer' })).toBe('bearer');
    expect(kindOf({ type: 'oauth2' })).toBe('bearer');
    expect(kindOf({ type: 'openIdConnect' })).toBe('bearer');
    expect(kindOf({ type: 'http', scheme: 'basic' })).toBe('basic');
    expect(kindOf({ type: 'apiKey', in: 'cookie', name: 'sid' })).toBe('api-key');
    expect(kindOf({ type: 'http', scheme: 'digest' })).toBe('unsupported');
    expect(kindOf({ type: 'mutualTLS' })).toBe('unsupported');
  });

  it('sends a bearer key under the wrong scheme, and in a query parameter, another header or a cookie', () => {
    const bad = shapes(
      badCredentials({ type: 'http', scheme: 'bearer' }, 'k3y', { label: 'x', taken: none }),
    );
    // Raw, as the user name (Stripe's `base64(key:)`), and as the password (`base64(:key)`).
    expect(bad['the valid key under the Basic scheme']).toEqual([
      { Authorization: 'Basic k3y' },
      { Authorization: `Basic ${Buffer.from('k3y:').toString('base64')}` },
      { Authorization: `Basic ${Buffer.from(':k3y').toString('base64')}` },
    ]);
    expect(bad['the valid key without the Bearer scheme']).toEqual([{ Authorization: 'k3y' }]);
    expect(bad['the valid key in a query parameter']).toContainEqual({ '?api_key': 'k3y' });
    expect(bad['the valid key in another header']).toContainEqual({ 'X-API-Key': 'k3y' });
    expect(bad['the valid key in a cookie']).toContainEqual({ 'cookie session': 'k3y' });
    expect(bad['the key with characters added after']).toEqual([{ Authorization: 'Bearer k3y0' }]);
  });

  it('puts an API key where the spec says, and tries it where it does not', () => {
    const bad = shapes(
      badCredentials({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'k3y', {
        label: 'x',
        taken: none,
      }),
    );
    expect(bad['an unknown API key']).toEqual([{ 'X-API-Key': 'x-not-a-key' }]);
    expect(bad['the key with characters added before']).toEqual([{ 'X-API-Key': '0k3y' }]);
    expect(bad['the valid key as a bearer token']).toEqual([{ Authorization: 'Bearer k3y' }]);
    expect(bad['the valid key as HTTP Basic credentials']).toEqual([
      { Authorization: 'Basic k3y' },
      { Authorization: `Basic ${Buffer.from('k3y:').toString('base64')}` },
      { Authorization: `Basic ${Buffer.from(':k3y').toString('base64')}` },
    ]);
    expect(bad['the valid key in a query parameter']).toContainEqual({ '?X-API-Key': 'k3y' });
    expect(bad['the valid key in another header']).not.toContainEqual({ 'X-API-Key': 'k3y' });
  });

  it('never calls wrong a place where another alternative of the operation takes a credential', () => {
    const taken = new Set(['query:access_token', 'header:authorization']);
    const bad = shapes(
      badCredentials({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'k3y', {
        label: 'x',
        taken,
      }),
    );
    expect(bad['the valid key as a bearer token']).toBeUndefined();
    expect(bad['the valid key as HTTP Basic credentials']).toBeUndefined();
    expect(bad['the valid key in a query parameter']).not.toContainEqual({
      '?access_token': 'k3y',
    });
  });

  it('derives near misses of a basic password, and sends the pair unencoded or under Bearer', () => {
    const encode = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
    const bad = shapes(
      badCredentials({ type: 'http', scheme: 'basic' }, 'ada:s3cret', { label: 'x', taken: none }),
    );
    expect(bad['an empty password']).toEqual([{ Authorization: encode('ada:') }]);
    expect(bad['the password with characters added after']).toEqual([
      { Authorization: encode('ada:s3cret0') },
    ]);
    expect(bad['the user name in other letter case']).toEqual([
      { Authorization: encode('ADA:s3cret') },
    ]);
    expect(bad['the valid user and password not base64-encoded']).toEqual([
      { Authorization: 'Basic ada:s3cret' },
    ]);
    expect(parseBasic('ada:s3:cret')).toEqual({ user: 'ada', password: 's3:cret' });
  });
});

describe('the bodies built and generated from a spec', () => {
  let categories: ContractSpec;
  let library: ContractSpec;
  beforeAll(async () => {
    categories = specOf(buildContractPlan((await loadSpec()).resolved));
    library = specOf(buildContractPlan((await loadSpec(LIBRARY)).resolved));
  });
  const writes = (spec: ContractSpec) => spec.plan.operations.filter((op) => jsonRequestOf(op));

  it('build a valid body for every write, formats, patterns, enums and bounds honoured', () => {
    for (const spec of [categories, library])
      for (const operation of writes(spec)) {
        const schema = jsonRequestOf(operation)!.schema;
        for (const which of ['all', 'required'] as const)
          expect(
            spec.acceptsRequest(operation, sampleBody(schema, 'contract-abc label', which)),
            `${operation.operationId} (${which})`,
          ).toBe(true);
      }
  });

  it('derive bodies each write refuses: a required field missing, a wrong type, format, enum, bound, pattern, item, an undeclared field', () => {
    const addBook = library.operation('addBook');
    const valid = sampleBody(jsonRequestOf(addBook)!.schema, 'x') as Record<string, unknown>;
    const bodies = invalidBodies(jsonRequestOf(addBook)!.schema, valid, {
      label: 'x',
      bodyRequired: true,
      breaks: (body) => !library.acceptsRequest(addBook, body),
    });
    const whats = bodies.map((body) => body.what);
    expect(whats).toEqual(
      expect.arrayContaining([
        'a body without `isbn`',
        '`pages` given a fractional number',
        '`isbn` given a string that breaks its pattern',
        '`status` given a value outside its enum',
        '`pages` above its maximum (5000)',
        '`tags` with more items than its maxItems (5)',
        '`tags` with an item repeated (uniqueItems)',
        '`authorId` given a string that is not a UUID',
        'an empty body',
        'a body that is malformed JSON',
      ]),
    );
    for (const body of bodies.filter((b) => b.text !== '' && !b.text.endsWith(': ')))
      expect(library.acceptsRequest(addBook, JSON.parse(body.text)), body.what).toBe(false);
    const createAuthor = library.operation('createAuthor');
    const closed = invalidBodies(
      jsonRequestOf(createAuthor)!.schema,
      { email: 'a@example.org' },
      {
        label: 'x',
        bodyRequired: true,
        breaks: (body) => !library.acceptsRequest(createAuthor, body),
      },
    );
    expect(closed.map((body) => body.what)).toContain(
      'a body with a property the schema does not declare (it allows none)',
    );
  });

  it('generate valid bodies and invalid ones, as they claim', () => {
    for (const spec of [categories, library])
      for (const operation of writes(spec).filter((op) => op.method === 'post')) {
        const schema = jsonRequestOf(operation)!.schema;
        // Mostly valid already: the filter that keeps the valid ones does not starve.
        const valid = fc.sample(validBodyArbitrary(schema), { numRuns: 200, seed: 1 });
        expect(
          valid.filter((b) => spec.acceptsRequest(operation, b)).length,
          operation.operationId,
        ).toBeGreaterThan(150);
        const invalid = fc.sample(invalidBodyArbitrary(schema), { numRuns: 200, seed: 1 });
        expect(
          invalid.filter((b) => spec.acceptsRequest(operation, b)),
          operation.operationId,
        ).toEqual([]);
      }
    const create = categories.operation('createCategory');
    const schema = jsonRequestOf(create)!.schema;
    fc.assert(
      fc.property(validBodyArbitrary(schema), (body) => categories.acceptsRequest(create, body)),
      {
        numRuns: 300,
        seed: 1,
      },
    );
    fc.assert(
      fc.property(invalidBodyArbitrary(schema), (body) => !categories.acceptsRequest(create, body)),
      { numRuns: 300, seed: 1 },
    );
  });

  it('send what real clients send: long text, text outside the BMP, whitespace, unknown fields', () => {
    const schema = jsonRequestOf(categories.operation('createCategory'))!.schema;
    const bodies = fc.sample(validBodyArbitrary(schema), { numRuns: 400, seed: 2 });
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

describe('the bodies of plain text, XML and bytes', () => {
  let media: ContractSpec;
  beforeAll(async () => {
    media = specOf(buildContractPlan((await loadSpec(MEDIA)).resolved));
  });
  const cases = (mediaType: string, schema: Schema, bodyRequired = true) =>
    invalidMediaBodies(mediaType, schema, {
      bodyRequired,
      label: 'contract-abc',
      validate: (part, value) => media.validate(part, value, 'request'),
    });

  it('break a text as its schema allows, and send it empty only where the schema refuses the empty string', () => {
    expect(
      cases('text/plain', { type: 'string', minLength: 1, maxLength: 5 }).map((c) => [
        c.what,
        c.body,
      ]),
    ).toEqual([
      ['a text/plain body over its maxLength (5)', 'xxxxxx'],
      ['a text/plain body that is empty, where the body is required', ''],
    ]);
    // Any text is a string: nothing to break, not even with an empty body.
    expect(cases('text/plain; charset=utf-8', { type: 'string' })).toEqual([]);
    expect(cases('text/csv', { type: 'integer', maximum: 9 }).map((c) => c.body)).toEqual([
      'abc',
      '10',
      '',
    ]);
  });

  it('break an XML element: a required element left out, letters in a number, text too long, not well-formed, empty', () => {
    const create = media.operation('createPet');
    const found = cases('application/xml', create.requestBody!.content['application/xml']!);
    expect(found.map((c) => c.what)).toEqual([
      'an application/xml body without `name`',
      'an application/xml body with `name` over its maxLength (20)',
      'an application/xml body with letters in `age`',
      'an application/xml body with letters in `ownerId`',
      'an application/xml body that is not well-formed (its root element left open)',
      'an application/xml body that is empty, where the body is required',
    ]);
    expect(found[2]?.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?><pet><name>.+<\/name><age>abc<\/age>.*<\/pet>$/,
    );
    expect(found[4]?.body).not.toMatch(/<\/pet>$/);
    expect(cases('application/vnd.pets+xml', { type: 'object' }, false).map((c) => c.what)).toEqual(
      ['an application/vnd.pets+xml body that is not well-formed (its root element left open)'],
    );
  });

  it('send bytes empty where a body is required, and nothing to a media type range', () => {
    expect(cases('application/octet-stream', { type: 'string', format: 'binary' })).toEqual([
      {
        what: 'an application/octet-stream body that is empty, where the body is required',
        body: '',
        contentType: 'application/octet-stream',
      },
    ]);
    expect(cases('application/octet-stream', {}, false)).toEqual([]);
    expect(cases('image/*', {})).toEqual([]);
  });

  it('make a valid body of each, confirmed against its schema', () => {
    const validate = (part: Schema, value: unknown) => media.validate(part, value, 'request');
    expect(
      validMediaBody(
        'text/plain',
        { type: 'string', maxLength: 40 },
        'contract-abc note',
        validate,
      ),
    ).toEqual({
      body: 'contract-abc note',
      contentType: 'text/plain',
    });
    const pet = media.operation('createPet').requestBody!.content['application/xml']!;
    expect(validMediaBody('application/xml', pet, 'contract-abc', validate)?.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?><pet><name>[^<]+<\/name><age>\d+<\/age><ownerId>\d+<\/ownerId><\/pet>$/,
    );
    expect(validMediaBody('*/*', {}, 'contract-abc', validate)?.contentType).toBe(
      'application/octet-stream',
    );
    expect(validMediaBody('image/*', {}, 'contract-abc', validate)).toBeUndefined();
  });
});

describe('a scheme the user gave no credential for', () => {
  it('skips, with a note naming the option, the rules that need it, and fails none', async () => {
    const plan: ContractPlan = structuredClone(
      buildContractPlan((await loadSpec(LIBRARY)).resolved),
    );
    plan.securitySchemes.basicAuth = { type: 'http', scheme: 'basic' };
    const health = plan.operations.find((op) => op.operationId === 'health')!;
    health.security = [{ basicAuth: [] }];
    const target = targetFromSettings({
      baseUrl: 'http://127.0.0.1:9/api',
      token: 'k',
      seed: 1,
      budget: 0,
      timeoutMs: 100,
      replay: '',
    });
    const rules = contractRules(plan, target);
    const ctx = { target, advise: () => {}, circuit: {}, memo: new Map() };
    const answers = rules.find(
      (rule) => rule.name === 'health: answers 200 with a body that fits its schema',
    )!;
    await expect(answers.check(ctx)).rejects.toMatchObject({
      name: 'RuleSkipped',
      message:
        'health needs HTTP basic (basicAuth), and no credential was given for it: give --basic user:password (BASIC_AUTH)',
    });
    const probes = rules.find(
      (rule) => rule.name === 'basicAuth: wrong and near-miss credentials get 401',
    )!;
    await expect(probes.check(ctx)).rejects.toMatchObject({
      name: 'RuleSkipped',
      message: expect.stringMatching(/give --basic user:password/),
    });
  });
});

describe('links', () => {
  const exchange = (json: unknown): Exchange => ({
    request: {
      method: 'post',
      path: '/authors/7/books',
      url: 'http://h/api/authors/7/books?draft=yes',
      headers: { 'X-Trace': 't1' },
      body: '{"title":"T"}',
    },
    status: 201,
    headers: { location: '/api/books/12' },
    text: JSON.stringify(json),
    json,
    retries: [],
  });

  it("read their parameters from the exchange's runtime expressions", () => {
    const params = linkParameters(
      {
        operationId: 'getBook',
        parameters: {
          'path.bookNumber': '$response.body#/number',
          authorId: '$request.path.authorId',
          draft: '$request.query.draft',
          title: '$request.body#/title',
          trace: '$request.header.x-trace',
          location: '$response.header.Location',
          status: '$statusCode',
          fixed: 'constant',
        },
      },
      exchange({ number: 12 }),
      { path: '/authors/{authorId}/books' },
    );
    expect(params).toEqual({
      bookNumber: 12,
      authorId: '7',
      draft: 'yes',
      title: 'T',
      trace: 't1',
      location: '/api/books/12',
      status: 201,
      fixed: 'constant',
    });
  });
});

describe('the target', () => {
  const settings = {
    baseUrl: 'http://127.0.0.1:1/v1/',
    token: 'k',
    seed: 42,
    budget: 0,
    timeoutMs: 250,
    replay: 'r',
  };

  it('takes the settings the CLI checked, the base URL without its trailing slash', () => {
    expect(targetFromSettings(settings)).toMatchObject({
      baseUrl: 'http://127.0.0.1:1/v1',
      credentials: { token: 'k' },
      seed: 42,
      budget: 0,
      timeoutMs: 250,
      readOnly: false,
    });
    expect(targetFromSettings({ ...settings, basic: 'ada:pw' }).credentials.basic).toEqual({
      user: 'ada',
      password: 'pw',
    });
  });

  it.each([{ baseUrl: 'staging' }, { baseUrl: 'ftp://h/v1' }, { basic: 'no-colon' }])(
    'refuses %o with one line',
    (bad) => {
      expect(() => targetFromSettings({ ...settings, ...bad })).toThrow(TargetError);
    },
  );
});

describe('the report', () => {
  const facts = {
    baseUrl: 'http://h/v1',
    replay: 'petstore-kit contract --base-url http://h/v1 --seed 7 --budget 100',
    credentialsFrom: 'API_KEY',
    timing: 'start-up 1.0 s, rules 1.0 s',
  };
  const failure = (name: string, summary: string) => ({
    name,
    state: 'failed' as const,
    message: `${summary}\ndetail of ${name}\n\nRequest:  GET http://h/v1/x`,
  });
  const passed = (name: string) => ({ name, state: 'passed' as const });

  it('opens with the verdict saying what is wrong in one sentence, groups alike failures, then how to replay', () => {
    const outcomes = [
      ...Array.from({ length: 12 }, (_, i) =>
        failure(`rule ${i}`, '401 answers that do not fit the Error schema'),
      ),
      ...Array.from({ length: 49 }, (_, i) => passed(`ok ${i}`)),
    ];
    const report = contractReport(outcomes, facts);
    expect(report.lines[0]).toBe(
      'petstore-kit contract: does NOT conform: 12 of 61 rules fail; all of them: 401 answers that do not fit the Error schema',
    );
    expect(report.verdict).toBe(report.lines[0]);
    expect(report.lines[1]).toBe(
      '49 rules passed, 12 failed, 0 skipped against http://h/v1 (start-up 1.0 s, rules 1.0 s)',
    );
    expect(report.lines.filter((line) => line.startsWith('FAIL'))).toEqual([
      'FAIL  12 rules: 401 answers that do not fit the Error schema',
    ]);
    expect(report.lines).toContain('      ... and 4 more');
    expect(report.lines).toContain('      The first of them, rule 0:');
    expect(report.lines.at(-1)).toBe(
      `Replay: ${facts.replay}   (credentials from API_KEY, as in this run)`,
    );
    expect(report.exitCode).toBe(1);
  });

  it('names the commonest failure when there are several, and one failure alone', () => {
    const several = contractReport(
      [failure('a', 'x'), failure('b', 'y'), failure('c', 'y'), passed('d')],
      facts,
    );
    expect(several.lines[0]).toBe(
      'petstore-kit contract: does NOT conform: 3 of 4 rules fail, in 2 ways; the commonest (2 rules): y',
    );
    const one = contractReport([failure('a', 'x'), passed('d')], facts);
    expect(one.lines[0]).toBe('petstore-kit contract: does NOT conform: 1 of 2 rules fails: x');
  });

  it('exits 2 when rules could not be judged and none failed, 0 when all that ran passed', () => {
    const unjudged = contractReport(
      [
        passed('a'),
        { name: 'b', state: 'unjudged', message: 'GET http://h/v1/x: still 503 after waiting 1 s' },
      ],
      facts,
    );
    expect(unjudged.exitCode).toBe(2);
    expect(unjudged.lines[0]).toBe(
      'petstore-kit contract: could not judge 1 of 2 rules: GET http://h/v1/x: still 503 after waiting 1 s',
    );
    const skipped = contractReport(
      [passed('a'), { name: 'b', state: 'skipped', note: 'needs --basic' }],
      facts,
    );
    expect(skipped.exitCode).toBe(0);
    expect(skipped.lines).toContain('SKIPPED  1 rule: needs --basic');
    expect(contractReport([], facts).exitCode).toBe(2);
  });

  const coverage = {
    covered: 1,
    total: 2,
    percent: 50,
    schemesCovered: 0,
    schemesTotal: 0,
    operations: [
      {
        method: 'GET',
        path: '/v1/x',
        operationId: 'getX',
        statuses: [
          { status: '200', documented: true, hits: 3 },
          { status: '404', documented: true, hits: 0 },
        ],
        schemes: [],
      },
    ],
  };

  it('ends with the advisories, once each, after the coverage table and the replay command', () => {
    const report = contractReport(
      [
        { ...failure('a', 'x'), advisories: ['no WWW-Authenticate'] },
        { ...passed('b'), advisories: ['no WWW-Authenticate'] },
      ],
      { ...facts, coverage },
    );
    const at = (start: string) => report.lines.findIndex((line) => line.startsWith(start));
    expect(at('coverage: 50% (1 of 2 documented statuses)')).toBeGreaterThan(at('FAIL'));
    expect(report.lines).toContain('  GET /v1/x  404  missed');
    expect(at('Replay:')).toBeGreaterThan(at('coverage:'));
    expect(report.lines.slice(-2)).toEqual([
      'Advisories: what HTTP recommends and the interface does not promise (not failures)',
      '  warning: no WWW-Authenticate (2 rules)',
    ]);
  });

  it('does not conform below --min-coverage, and conforms at or above it', () => {
    const below = contractReport([passed('a')], { ...facts, coverage, minCoverage: 75 });
    expect(below.exitCode).toBe(1);
    expect(below.lines[0]).toBe(
      'petstore-kit contract: does NOT conform: 50% of the documented statuses exercised (1 of 2), below --min-coverage 75%',
    );
    expect(below.lines).toContain('  GET /v1/x  404  missed');
    const above = contractReport([passed('a')], { ...facts, coverage, minCoverage: 50 });
    expect(above.exitCode).toBe(0);
    expect(above.lines[0]).toMatch(/^petstore-kit contract: conforms: 1 rules passed/);
  });

  it('does not conform when a security scheme pair is missed below the floor, every status exercised, and names the pair', () => {
    const row = (scheme: string, hits: number) => ({
      scheme,
      expected: scheme === 'basic' ? ('accepted' as const) : ('401' as const),
      documented: true,
      hits,
      got: hits > 0 ? [{ status: scheme === 'basic' ? '200' : '401', hits }] : [],
    });
    const schemes = {
      covered: 2,
      total: 2,
      percent: 100,
      schemesCovered: 2,
      schemesTotal: 3,
      operations: [
        {
          method: 'GET',
          path: '/v1/audit/{entryId}',
          operationId: 'getAuditEntry',
          statuses: [
            { status: '200', documented: true, hits: 1 },
            { status: '401', documented: true, hits: 2 },
          ],
          schemes: [row('basic', 0), row('apiKey', 1), row('none', 1)],
        },
      ],
    };
    const below = contractReport([passed('a')], { ...facts, coverage: schemes, minCoverage: 90 });
    expect(below.exitCode).toBe(1);
    expect(below.lines[0]).toBe(
      'petstore-kit contract: does NOT conform: 100% of the documented statuses exercised (2 of 2) but 66.7% of the documented (operation, scheme) pairs (2 of 3; missed: getAuditEntry basic), below --min-coverage 90%',
    );
    // The table says what was missed.
    expect(below.lines).toContain(
      '  GET /v1/audit/{entryId}  scheme basic  expected accepted  missed',
    );
    expect(
      contractReport([passed('a')], { ...facts, coverage: schemes, minCoverage: 66 }).exitCode,
    ).toBe(0);
    // Both measures short: the verdict gives both.
    const both = floorShortfall({ ...schemes, covered: 1, percent: 50 }, 90);
    expect(both).toBe(
      '50% of the documented statuses exercised (1 of 2) and 66.7% of the documented (operation, scheme) pairs (2 of 3; missed: getAuditEntry basic), below --min-coverage 90%',
    );
    // A spec without security schemes counts statuses alone.
    expect(floorShortfall(coverage, 50)).toBeUndefined();
  });

  it('lists the operations no valid request reached, with why', () => {
    const report = contractReport([passed('a')], {
      ...facts,
      unreached: [
        { operation: 'createTicket (POST /v1/projects/{projectId}/tickets)', why: 'no producer' },
      ],
    });
    expect(report.lines).toContain(
      'NOT REACHED  1 operation: no valid request of the run got a 2xx from them',
    );
    expect(report.lines).toContain(
      '      createTicket (POST /v1/projects/{projectId}/tickets): no producer',
    );
  });
});

describe('GitHub annotations', () => {
  it("escape what GitHub's toolkit escapes", () => {
    expect(githubCommand('error', 'rule 3: a, b', '50% off\nnext line\r')).toBe(
      '::error title=rule 3%3A a%2C b::50%25 off%0Anext line%0D',
    );
  });

  it('are one error per failed rule and one warning per advisory', () => {
    expect(
      githubAnnotations([
        { name: 'r1', state: 'failed', message: 'm1', advisories: ['w'] },
        { name: 'r2', state: 'passed', advisories: ['w'] },
      ]),
    ).toEqual(['::error title=r1::m1', '::warning title=contract advisory::w']);
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

describe('an answer that stalls', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    // The status and headers at once, then half the body, and nothing more.
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('[{"id":');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('is no answer: --timeout bounds the body too, and the rule cannot be judged', async () => {
    const ctx = { target: { baseUrl, timeoutMs: 300 }, advise: () => {} };
    const sent = send(ctx, { method: 'get', path: '/categories', headers: {} });
    await expect(sent).rejects.toMatchObject({
      name: 'TargetUnavailable',
      message: `GET ${baseUrl}/categories: no answer within 300 ms (raise --timeout)`,
    });
  });
});
