// OpenAPI's runtime expressions: parsed by the grammar, evaluated against one exchange.
import { describe, expect, it } from 'vitest';
import {
  evaluateExpression,
  expandTemplate,
  parseExpression,
  parsePointer,
  parseTemplate,
  RuntimeExpressionError,
  writeExpression,
  type ExpressionContext,
} from '../src/openapi/runtime-expression.js';

const context: ExpressionContext = {
  url: 'http://mock.test/v1/subscriptions?channel=email',
  method: 'POST',
  statusCode: 201,
  request: {
    headers: { 'X-Trace': 'abc' },
    query: { channel: 'email', many: ['a', 'b'] },
    path: { id: '7' },
    body: { callbackUrl: 'http://localhost:9000/cb', 'a/b': { '~x': 1 }, list: [10, 20] },
  },
  response: { headers: { location: '/v1/subscriptions/3' }, body: { id: 3 } },
};

describe('runtime expressions', () => {
  it.each([
    ['$url', context.url],
    ['$method', 'POST'],
    ['$statusCode', 201],
    ['$request.header.x-trace', 'abc'],
    ['$request.query.channel', 'email'],
    ['$request.query.many', 'a'],
    ['$request.path.id', '7'],
    ['$request.body#/callbackUrl', 'http://localhost:9000/cb'],
    ['$request.body#/a~1b/~0x', 1],
    ['$request.body#/list/1', 20],
    ['$request.body#/list/-', undefined],
    ['$request.body#/missing', undefined],
    ['$response.body#/id', 3],
    ['$response.header.Location', '/v1/subscriptions/3'],
  ])('%s is %j', (text, value) => {
    const parsed = parseExpression(text);
    expect(evaluateExpression(parsed, context)).toEqual(value);
    expect(writeExpression(parsed)).toBe(text);
  });

  it.each([
    '$request',
    '$request.cookie.a',
    '$requests.body',
    'url',
    '$request.header.a b',
    '$request.body#x',
  ])('refuses %s', (text) => {
    expect(() => parseExpression(text)).toThrow(RuntimeExpressionError);
  });

  it('expands expressions embedded in braces, and a bare one', () => {
    const template = parseTemplate('{$request.body#/callbackUrl}/done?id={$response.body#/id}');
    expect(expandTemplate(template, context)).toEqual({
      text: 'http://localhost:9000/cb/done?id=3',
    });
    expect(expandTemplate(parseTemplate('$request.body#/callbackUrl'), context)).toEqual({
      text: 'http://localhost:9000/cb',
    });
    expect(expandTemplate(parseTemplate('{$request.query.nope}'), context)).toEqual({
      missing: '$request.query.nope',
    });
    expect(() => parseTemplate('http://x/{$url')).toThrow(/never closed/);
  });

  it('reads JSON Pointers as RFC 6901 does', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('/a~1b/~01')).toEqual(['a/b', '~1']);
    expect(() => parsePointer('a')).toThrow(RuntimeExpressionError);
  });
});
