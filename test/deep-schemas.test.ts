// Schemas built to blow the call stack: nested thousands of levels deep, or a chain of thousands
// of named schemas each referring to the next. Each is read, compiled and generated without
// overflowing (a cut where the schema allows, or each schema compiled on its own), and a body
// nested past what the mock reads is a 400. Each of these failed before: the deep document
// would not start (`Maximum call stack size exceeded` in the reading), the chain answered every
// request the 500 `spec_defect` "cannot be compiled: Maximum call stack size exceeded", and the
// deep body a 500 `internal_error`.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';
import { tempFolder } from './temp-folders.js';

const mocks: InProcessMock[] = [];

afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
});

/** A document whose one operation creates, and lists, values of `Deep`, written as `text`. */
async function mockOf(deep: string, more = ''): Promise<InProcessMock> {
  const ref = { $ref: '#/components/schemas/Deep' };
  const text = `{"openapi":"3.1.0","info":{"title":"deep","version":"1"},
    "components":{"schemas":{"Deep":${deep}${more}}},
    "paths":{"/things":{
      "post":{"requestBody":{"content":{"application/json":{"schema":${JSON.stringify(ref)}}}},
        "responses":{"201":{"description":"made","content":{"application/json":{"schema":${JSON.stringify(ref)}}}}}},
      "get":{"responses":{"200":{"description":"all","content":{"application/json":{"schema":{"type":"array","items":${JSON.stringify(ref)}}}}}}}}}}`;
  const file = join(await tempFolder('deep'), 'openapi.json');
  await writeFile(file, text);
  const mock = await inProcessMock({ spec: file, apiKeys: [KEY], seed: 1 });
  mocks.push(mock);
  return mock;
}

async function call(mock: InProcessMock, method: string, body?: string) {
  const res = await mock.fetch(`${mock.url}/things`, {
    method,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.status, text: await res.text() };
}

/** `{name, inner: {name, inner: ...}}` written `levels` deep, ending in `leaf`. */
function nested(levels: number, leaf: string, open: string, close = '}'): string {
  return open.repeat(levels) + leaf + close.repeat(levels);
}

describe('schemas built to blow the call stack', () => {
  it('a schema nested 5,000 levels deep is read to a bound, with a warning, and served', async () => {
    const deep = nested(
      5_000,
      '{"type":"string"}',
      '{"type":"object","properties":{"name":{"type":"string"},"inner":',
      '}}',
    );
    const mock = await mockOf(deep);
    expect(mock.warnings.join('\n')).toMatch(
      /nests deeper than 256 levels \(first under #\/components\/schemas\/Deep\/properties\/inner\/[^)]*…\): \d+ values? there (is|are) read as any value/,
    );
    const made = await call(mock, 'POST', nested(40, '{}', '{"name":"a","inner":'));
    expect(made.status, made.text).toBe(201);
    const wrong = await call(mock, 'POST', '{"name":42}');
    expect(wrong.status, wrong.text).toBe(400);
    const listed = await call(mock, 'GET');
    expect(listed.status, listed.text).toBe(200);
  });

  it('a chain of 3,000 named schemas, each referring to the next, is checked and generated', async () => {
    const link = (i: number) =>
      `{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"next":{"anyOf":[{"type":"string"},{"$ref":"#/components/schemas/S${i + 1}"}]}}}`;
    const chain = Array.from({ length: 3_000 }, (_, i) => `,"S${i + 1}":${link(i + 1)}`).join('');
    const mock = await mockOf(link(0), `${chain},"S3001":{"type":"string"}`);
    const made = await call(mock, 'POST', nested(200, '"end"', '{"name":"a","next":'));
    expect(made.status, made.text).toBe(201);
    const wrong = await call(mock, 'POST', nested(100, '42', '{"name":"a","next":'));
    expect(wrong.status, wrong.text).toBe(400);
    expect(wrong.text).toContain('/body/next/next');
    const listed = await call(mock, 'GET');
    expect(listed.status, listed.text).toBe(200);
  });

  it('a body nested deeper than the mock reads is a 400, and the next request is served', async () => {
    const mock = await mockOf('{"type":"object"}');
    const deep = await call(mock, 'POST', nested(3_000, '1', '{"a":'));
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.text)).toMatchObject({ code: 'nested_too_deep', status: 400 });
    expect((await call(mock, 'POST', '{"a":{"b":[1]}}')).status).toBe(201);
    // Brackets inside a text (escaped quotes too) are no nesting.
    const text = JSON.stringify({ a: `"${'[{'.repeat(3_000)}` });
    expect((await call(mock, 'POST', text)).status).toBe(201);
  });
});
