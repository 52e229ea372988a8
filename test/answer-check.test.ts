import { describe, expect, it } from 'vitest';
import { createAnswerChecker } from '../src/core/stages/answer.js';
import { createRecordSerializers } from '../src/core/resources/record-serializer.js';
import { createTurnBudget } from '../src/core/turn-budget.js';
import type { SchemaObject } from '../src/openapi/load.js';
import type { Operation } from '../src/openapi/operations.js';
import { createSchemaCompiler } from '../src/openapi/schemas.js';
import type { CheckedList } from '../src/vocabulary/answer.js';
import { RecordList, type CheckedAnswer } from '../src/vocabulary/answer.js';

const schema: SchemaObject = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string', maxLength: 8 } },
};
const operation = { responses: {} } as unknown as Operation;

function setup() {
  const compiler = createSchemaCompiler();
  const check = createAnswerChecker(compiler, createTurnBudget(10));
  const serialize = createRecordSerializers(compiler)(schema);
  const list = (records: Record<string, unknown>[]) =>
    check(operation, { status: 200, body: new RecordList(records, serialize) }) as CheckedAnswer;
  return { check, list };
}

const text = (answer: CheckedAnswer) => (answer.body as CheckedList).joined().toString('utf8');

describe('checked answers', () => {
  it('send a list of the same records again as the same bytes, and any change as new ones', () => {
    const { list } = setup();
    const rex = Object.freeze({ id: 1, name: 'Rex' });
    const tom = Object.freeze({ id: 2, name: 'Tom' });
    const first = list([rex, tom]);
    expect(text(first)).toBe('[{"id":1,"name":"Rex"},{"id":2,"name":"Tom"}]');
    // The same records, in the same order: the list checked before.
    expect(list([rex, tom]).body).toBe(first.body);
    // Another order, another record, one more or one less: checked and joined anew.
    expect(text(list([tom, rex]))).toBe('[{"id":2,"name":"Tom"},{"id":1,"name":"Rex"}]');
    const tommy = Object.freeze({ id: 2, name: 'Tommy' });
    expect(text(list([rex, tommy]))).toBe('[{"id":1,"name":"Rex"},{"id":2,"name":"Tommy"}]');
    expect(text(list([rex]))).toBe('[{"id":1,"name":"Rex"}]');
    expect(text(list([]))).toBe('[]');
    // A record that breaks the schema is still refused, whatever was sent before.
    expect(() => list([rex, Object.freeze({ id: 3, name: 'Far too long' })])).toThrow(
      /maxLength|must NOT have more than 8 characters/,
    );
  });

  it('add the JSON Content-Type to an operation’s shared headers without changing them', () => {
    const { check } = setup();
    const shared = Object.freeze({ Deprecation: 'true' });
    const a = check(operation, { status: 200, headers: shared, body: { ok: 1 } }) as CheckedAnswer;
    const b = check(operation, { status: 200, headers: shared, body: { ok: 2 } }) as CheckedAnswer;
    expect(a.headers).toEqual({
      Deprecation: 'true',
      'Content-Type': 'application/json; charset=utf-8',
    });
    expect(b.headers).toBe(a.headers);
    expect(shared).toEqual({ Deprecation: 'true' });
    const own = check(operation, {
      status: 200,
      headers: { 'content-type': 'application/problem+json' },
      body: { ok: 3 },
    }) as CheckedAnswer;
    expect(own.headers).toEqual({ 'content-type': 'application/problem+json' });
  });

  it('put an answer’s own headers over its operation’s, with one Content-Type, JSON’s unless given', () => {
    const { check } = setup();
    const base = Object.freeze({ Deprecation: 'true', 'X-Stability': 'beta' });
    const created = check(
      operation,
      {
        status: 201,
        headers: { Location: '/v1/pets/7', 'X-Stability': 'stable' },
        body: { id: 7 },
      },
      base,
    ) as CheckedAnswer;
    expect(created.headers).toEqual({
      Deprecation: 'true',
      'X-Stability': 'stable',
      Location: '/v1/pets/7',
      'Content-Type': 'application/json; charset=utf-8',
    });
    expect(base).toEqual({ Deprecation: 'true', 'X-Stability': 'beta' });
    // A Content-Type of the answer's own, in any case, is the only one.
    const problem = check(
      operation,
      { status: 400, headers: { 'CONTENT-TYPE': 'application/problem+json' }, body: { id: 7 } },
      base,
    ) as CheckedAnswer;
    expect(Object.keys(problem.headers).filter((name) => /content-type/i.test(name))).toEqual([
      'CONTENT-TYPE',
    ]);
    // Without a body, the headers merged all the same, and no Content-Type.
    const gone = check(
      operation,
      { status: 204, headers: { 'X-Gone': '1' } },
      base,
    ) as CheckedAnswer;
    expect(gone.headers).toEqual({ Deprecation: 'true', 'X-Stability': 'beta', 'X-Gone': '1' });
  });
});
