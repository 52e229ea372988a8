import { describe, expect, it } from 'vitest';
import type { RuleContext } from '../contract-tests/rule.js';
import { contractRules } from '../contract-tests/rules.js';
import { specOf } from '../contract-tests/spec.js';
import { targetFromSettings } from '../contract-tests/target.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { createAnswerRules } from '../src/core/proxy/answer-rules.js';
import { URI_FORMATS } from '../src/openapi/formats.js';
import { loadSpec } from '../src/openapi/load.js';
import type { Operation } from '../src/openapi/operations.js';
import { createSchemaCompiler } from '../src/openapi/schemas.js';
import { allPassed, ruleOutcomes, serveOnFreePort } from './contract-helpers.js';

const LINKS = new URL('./fixtures/formats/links.yaml', import.meta.url).pathname;

/** format, value, whether RFC 3986 (or 3987) takes it. */
const CASES: [string, string, boolean][] = [
  ['uri', 'http://127.0.0.1:8080/things/t1', true],
  ['uri', 'http://localhost:3000/a?b=c#d', true],
  ['uri', 'http://[::1]:80/', true],
  ['uri', 'urn:isbn:0451450523', true],
  ['uri', 'mailto:a@example.com', true],
  ['uri', '/things/t1', false],
  ['uri', 'http://example.com/a b', false],
  ['uri', 'http://example.com/%zz', false],
  ['uri-reference', '/things/t1', true],
  ['uri-reference', 'things/t1?x=1', true],
  ['uri-reference', '#top', true],
  ['uri-reference', 'http://10.0.0.1/x', true],
  ['uri-reference', '/a b', false],
  ['url', 'http://127.0.0.1:8080/x', true],
  ['url', 'http://localhost/x', true],
  ['url', '/things/t1', true],
  ['url', 'http://example.com/a b', false],
  ['iri', 'http://例え.jp/パス', true],
  ['iri', '/パス', false],
  ['iri-reference', '/パス', true],
];

describe('URI formats', () => {
  it('are checked as RFC 3986 and 3987 define them', () => {
    for (const [format, value, valid] of CASES)
      expect([format, value, URI_FORMATS[format]?.test(value)]).toEqual([format, value, valid]);
  });

  it('take loopback links and a relative Location in the suite, the proxy and the mock', async () => {
    const { resolved } = await loadSpec(LINKS);
    const body = {
      self: 'http://127.0.0.1:8080/things/t1',
      home: 'http://localhost:3000/',
      next: '/things?page=2',
      label: 'http://例え.jp/',
    };
    const text = JSON.stringify(body);
    const headers = { location: '/things/t1', 'content-type': 'application/json' };

    const spec = specOf(buildContractPlan(resolved));
    const answer = { status: 201, headers, text, json: body };
    expect(spec.checkAnswer(spec.operation('createThing'), answer)).toEqual([]);
    // A Location is still a URI reference: one with a space is refused.
    const spaced = { ...answer, headers: { ...headers, location: '/things/t 1' } };
    expect(spec.checkAnswer(spec.operation('createThing'), spaced)).toHaveLength(1);

    const compiler = createSchemaCompiler();
    const operation = resolved.paths?.['/things']?.post as unknown as Operation;
    const rules = createAnswerRules(compiler, []);
    const observed = { method: 'POST', status: 201, headers, body: Buffer.from(text) };
    expect(rules(operation, observed)).toEqual([]);
    const schema = operation.responses['201'] as { content: Record<string, { schema: object }> };
    const check = compiler.response(schema.content['application/json']!.schema);
    expect(check(body, '/response')).toEqual([]);
    expect(check({ ...body, self: 'http://example.com/a b' }, '/response')).toHaveLength(1);
  });
});

describe('Swagger 2.0 media types', () => {
  const MEDIA = new URL('./fixtures/formats/swagger-media.yaml', import.meta.url).pathname;

  it('keep an operation’s own produces over the document’s, for schemaless answers too', async () => {
    const { resolved } = await loadSpec(MEDIA);
    const content = (path: string, method: string, status: string) =>
      Object.keys(
        (
          resolved.paths?.[path] as Record<
            string,
            { responses: Record<string, { content?: object }> }
          >
        )[method]?.responses[status]?.content ?? {},
      );
    expect(content('/image', 'get', '200')).toEqual(['image/png']);
    expect(content('/image', 'get', '404')).toEqual([]);
    expect(content('/spec', 'get', '200')).toEqual(['text/x-yaml']);
    expect(content('/things', 'get', '200')).toEqual(['application/json']);
    // A schemaless JSON answer is, as Swagger means it, no body.
    expect(content('/things', 'delete', '200')).toEqual([]);

    const spec = specOf(buildContractPlan(resolved));
    const yaml = 'openapi: 3.0.0\n';
    const answer = {
      status: 200,
      headers: { 'content-type': 'text/x-yaml' },
      text: yaml,
      json: undefined,
    };
    expect(spec.checkAnswer(spec.operation('spec'), answer)).toEqual([]);
    const png = {
      status: 200,
      headers: { 'content-type': 'image/png' },
      text: '\u0089PNG\r\n',
      json: undefined,
    };
    expect(spec.checkAnswer(spec.operation('image'), png)).toEqual([]);
    expect(Object.keys(spec.operation('image').responses['200']?.content ?? {})).toEqual([
      'image/png',
    ]);
  });
});

describe('an operation whose only documented answer is a redirect or a refusal', () => {
  const ONLY = new URL('./fixtures/formats/only-answers.yaml', import.meta.url).pathname;

  it('is expected to answer it, not a 2xx', async () => {
    const served = await serveOnFreePort((req, res) => {
      if (req.url?.endsWith('/login')) res.writeHead(302, { Location: '/idp/authorize?x=1' });
      else res.writeHead(401, { 'WWW-Authenticate': 'Bearer' });
      res.end();
    });
    try {
      const target = targetFromSettings({
        baseUrl: served.url,
        token: 'key',
        seed: 7,
        budget: 0,
        timeoutMs: 10_000,
        replay: '',
      });
      const rules = contractRules(buildContractPlan((await loadSpec(ONLY)).resolved), target);
      const ctx: RuleContext = { target, advise: () => {}, circuit: {}, memo: new Map() };
      const found = await ruleOutcomes(rules, ctx, /^(login|secret): answers/);
      // Each answers what it documents; the 302 is not followed out of the API (to a sign-in page).
      expect(Object.keys(found), JSON.stringify(found)).toHaveLength(3);
      expect(found).toEqual(allPassed(found));
    } finally {
      await served.close();
    }
  });
});
