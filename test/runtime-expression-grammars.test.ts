// One parser of runtime expressions for OpenAPI's callbacks and links and for Arazzo's
// workflows: Arazzo's grammar is a superset, and each reader gets only its own.
import { describe, expect, it } from 'vitest';
import { parseExpression as parseWorkflowExpression } from '../src/core/workflow/runtime-expression.js';
import {
  parseExpression,
  readExpression,
  RuntimeExpressionError,
} from '../src/openapi/runtime-expression.js';

describe('the one parser of runtime expressions', () => {
  it('reads what both grammars share into the same parts', () => {
    for (const text of ['$url', '$request.header.X-Trace', '$response.body#/a~1b/0'])
      expect(readExpression(text, 'openapi')).toEqual(readExpression(text, 'arazzo'));
    expect(parseWorkflowExpression('$response.body#/id')).toEqual(
      readExpression('$response.body#/id', 'openapi'),
    );
  });

  it("keeps Arazzo's roots and a body's dotted names out of a callback's expressions", () => {
    expect(readExpression('$steps.login.outputs.token', 'arazzo')).toMatchObject({ root: 'steps' });
    expect(() => parseExpression('$steps.login.outputs.token')).toThrow(RuntimeExpressionError);
    expect(() => parseExpression('$inputs.token')).toThrow(/not a runtime expression/);
    expect(readExpression('$response.body.pets.length', 'arazzo')).toMatchObject({
      names: ['body', 'pets', 'length'],
    });
    expect(() => parseExpression('$response.body.pets')).toThrow(/followed by a JSON pointer/);
  });

  it('refuses, in both grammars, a header name that is no token and a pointer after $url', () => {
    for (const grammar of ['openapi', 'arazzo'] as const) {
      expect(readExpression('$request.header.a b', grammar)).toContain('is not a header name');
      expect(readExpression('$url#/a', grammar)).toBe('$url takes no JSON pointer');
    }
  });
});
