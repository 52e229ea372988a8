// Arazzo's runtime expressions, simple conditions and criteria of every type, as the runner reads them.
import { describe, expect, it } from 'vitest';
import { holds, parseCondition } from '../src/core/workflow/condition.js';
import { judgeCriterion } from '../src/core/workflow/criteria.js';
import {
  evaluate,
  parseExpression,
  resolveValue,
  type ExpressionScope,
} from '../src/core/workflow/runtime-expression.js';
import { select } from '../src/core/workflow/selectors.js';

const scope: ExpressionScope = {
  url: 'https://api.example.com/v1/pets?limit=2',
  method: 'GET',
  statusCode: 200,
  request: {
    headers: { 'x-trace': 'abc' },
    query: { limit: '2' },
    path: { petId: '7' },
    body: undefined,
  },
  response: {
    headers: { 'x-rate-limit': '99', 'content-type': 'application/json' },
    body: { pets: [{ id: 7, name: 'Rex', status: 'Available' }], total: 1 },
  },
  inputs: { user: { name: 'Ada' }, limit: 2 },
  outputs: {},
  steps: { login: { outputs: { token: 't0k', 'a.b': 'dotted' } } },
  workflows: { setup: { outputs: { orderId: 42 } } },
  sourceDescriptions: { petstore: { name: 'petstore', url: './pets.yaml' } },
  components: { parameters: { page: { name: 'page', in: 'query', value: 1 } } },
};

describe('runtime expressions', () => {
  it.each([
    ['$url', 'https://api.example.com/v1/pets?limit=2'],
    ['$method', 'GET'],
    ['$statusCode', 200],
    ['$request.header.X-Trace', 'abc'],
    ['$request.query.limit', '2'],
    ['$request.path.petId', '7'],
    ['$response.header.X-Rate-Limit', '99'],
    ['$response.body#/pets/0/name', 'Rex'],
    ['$response.body#/pets/1', undefined],
    ['$response.body', scope.response?.body],
    ['$inputs.user.name', 'Ada'],
    ['$steps.login.outputs.token', 't0k'],
    ['$steps.login.outputs.a.b', 'dotted'],
    ['$workflows.setup.outputs.orderId', 42],
    ['$sourceDescriptions.petstore.url', './pets.yaml'],
    ['$components.parameters.page', { name: 'page', in: 'query', value: 1 }],
  ])('%s reads %j', (expression, value) => {
    expect(evaluate(expression, scope)).toEqual(value);
  });

  it.each([
    ['$statuscode', 'is not a runtime expression'],
    ['$url.host', '$url takes no name after it'],
    ['$response.headers.X', '$response. is followed by header.<name>'],
    ['$response.header.X#/a', 'only $response.body takes a JSON pointer'],
    ['$response.body#a', 'must start with /'],
    ['$steps.login.token', "a step's values are read as $steps.<stepId>.outputs.<name>"],
    ['$inputs', '$inputs needs a name after it'],
  ])('%s does not parse: %s', (expression, why) => {
    expect(parseExpression(expression)).toContain(why);
  });

  it('reads expressions embedded in text, and through objects', () => {
    expect(resolveValue('Bearer {$steps.login.outputs.token}', scope)).toBe('Bearer t0k');
    expect(
      resolveValue({ owner: '$inputs.user', tags: ['{$method}-{$statusCode}'] }, scope),
    ).toEqual({
      owner: { name: 'Ada' },
      tags: ['GET-200'],
    });
    // Text that only looks like money stays as written.
    expect(resolveValue('$5 off', scope)).toBe('$5 off');
  });
});

describe('simple conditions', () => {
  it.each([
    ['$statusCode == 200', true],
    ['$statusCode == 200 && $response.body#/total > 0', true],
    ['$statusCode != 200 || $response.body#/total >= 1', true],
    ['!($statusCode == 404)', true],
    // Strings compare case-insensitively, as Arazzo asks.
    ["$response.body#/pets/0/status == 'available'", true],
    // A header is text: compared with a number as a number.
    ['$response.header.X-Rate-Limit > 50', true],
    ['$response.body.pets.length == 1', true],
    ['$response.body#/pets[0].name == "Rex"', true],
    ['$response.body#/missing == null', true],
    ['$response.body#/total < 1', false],
    ["$inputs.user.name == 'Grace'", false],
  ])('%s is %s', (condition, value) => {
    expect(holds(parseCondition(condition), scope)).toBe(value);
  });

  it.each([
    ['$statusCode = 200', 'has "="'],
    ['$statusCode == 200 &&', 'ends too soon'],
    ["$inputs.x == 'open", 'never ends'],
    ['($statusCode == 200', 'misses a )'],
    ['$statusCode == available', 'where a value belongs'],
  ])('%s is refused: %s', (condition, why) => {
    expect(() => parseCondition(condition)).toThrow(why);
  });
});

describe('criteria', () => {
  it('judges a regex on its context', () => {
    expect(
      judgeCriterion(
        { context: '$response.header.Content-Type', condition: '^application/json', type: 'regex' },
        scope,
      ),
    ).toMatchObject({ passed: true });
    expect(
      judgeCriterion(
        { context: '$response.body#/pets/0/name', condition: '^Max$', type: 'regex' },
        scope,
      ),
    ).toEqual({
      text: 'regex ^Max$ on $response.body#/pets/0/name',
      passed: false,
      note: '$response.body#/pets/0/name is "Rex"',
    });
  });

  it('judges JSONPath (RFC 9535) by whether it selects a node, the 1.1 typed form alike', () => {
    const on = (
      condition: string,
      type: 'jsonpath' | { type: string; version: string } = 'jsonpath',
    ) => judgeCriterion({ context: '$response.body', condition, type }, scope).passed;
    expect(on('$.pets[?@.id == 7]')).toBe(true);
    expect(on('$.pets[?count(@.*) > 5]')).toBe(false);
    expect(on('$.pets[?match(@.name, "R.*")]', { type: 'jsonpath', version: 'rfc9535' })).toBe(
      true,
    );
    expect(
      judgeCriterion({ context: '$response.body', condition: '$.pets[?', type: 'jsonpath' }, scope),
    ).toMatchObject({
      passed: false,
    });
  });

  it('judges XPath on an XML answer', () => {
    const xml: ExpressionScope = {
      ...scope,
      response: { headers: {}, body: '<pets><pet id="7"><name>Rex</name></pet></pets>' },
    };
    const on = (condition: string) =>
      judgeCriterion({ context: '$response.body', condition, type: 'xpath' }, xml);
    expect(on('/pets/pet[@id="7"]/name').passed).toBe(true);
    expect(on('count(/pets/pet) = 1').passed).toBe(true);
    expect(on('/pets/pet[@id="8"]').passed).toBe(false);
    expect(
      judgeCriterion({ context: '$response.body', condition: '/a', type: 'xpath' }, scope).note,
    ).toMatch(/XML/);
  });

  it('tells why a simple condition is false, with the values it read', () => {
    expect(judgeCriterion({ condition: '$statusCode == 201' }, scope)).toEqual({
      text: '$statusCode == 201',
      passed: false,
      note: 'it is false: $statusCode is 200',
    });
  });
});

describe('selectors (1.1)', () => {
  const body = scope.response?.body;
  it('selects by JSON pointer, JSONPath and XPath', () => {
    expect(select('jsonpointer', body, '/pets/0/id')).toBe(7);
    expect(select('jsonpath', body, '$.pets[0].name')).toBe('Rex');
    expect(select('jsonpath', { a: [1, 2] }, '$.a[*]')).toEqual([1, 2]);
    expect(select('xpath', '<a><b>1</b><b>2</b></a>', '/a/b[2]')).toBe('2');
  });
});
