import { jsonSchemaOf, responseFor, type Operation } from '../openapi/operations.js';
import type { SchemaCompiler } from '../openapi/schemas.js';
import {
  CheckedJson,
  CheckedList,
  RecordList,
  type Answer,
  type CheckedAnswer,
} from '../vocabulary/answer.js';
import { errors } from '../vocabulary/error-catalogue.js';
import type { TurnBudget } from './turn-budget.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** A list this short is checked in one go, its records' JSON being cached after their first check. */
const SHORT_LIST = 64;

/**
 * Checks a handler's answer against the response schema the spec gives its operation for that
 * status, and makes it ready to send: a mock answer that breaks the spec becomes a 500
 * `invalid_response` naming the problem, never a wrong answer. A list is checked in slices
 * that share the turn budget with every other list, so that a list of any size never holds
 * the process for long; its records' JSON is cached by their serializer.
 * @throws {ApiError} 500 `invalid_response`
 * @example await checkAnswer(operation, { status: 200, body: [{ id: 1, name: 'Dog' }] })
 */
export function createAnswerChecker(
  compiler: SchemaCompiler,
  budget: TurnBudget,
): (operation: Operation, answer: Answer) => CheckedAnswer | Promise<CheckedAnswer> {
  /** A promise only for a long list, checked in slices. */
  return function checkAnswer(operation, answer) {
    const { status, body } = answer;
    const headers = { ...answer.headers };
    if (body === undefined) return { status, headers, body: undefined };
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
      headers['Content-Type'] = JSON_TYPE;
    if (body instanceof CheckedJson || body instanceof CheckedList)
      return { status, headers, body };
    if (body instanceof RecordList)
      // A short list is checked at once: the slices of a long one cost more than it takes.
      return body.records.length <= SHORT_LIST
        ? { status, headers, body: checkShortList(body) }
        : checkList(body).then((list) => ({ status, headers, body: list }));
    const schema = jsonSchemaOf(responseFor(operation, status)?.response);
    if (schema) {
      const problems = compiler.response(schema)(body, '/response');
      if (problems.length > 0) throw errors.invalidResponse(problems);
    }
    return { status, headers, body: new CheckedJson(Buffer.from(JSON.stringify(body))) };
  };

  function checkShortList(list: RecordList): CheckedList {
    return new CheckedList(list.records.map((record, i) => list.serialize(record, i)));
  }

  /**
   * Every record is checked before the first byte is sent (a record that breaks the spec must
   * still turn the answer into a 500, which is impossible once the first bytes are out), so
   * that the answer has a Content-Length.
   */
  async function checkList(list: RecordList): Promise<CheckedList> {
    const { records } = list;
    const parts = new Array<Buffer>(records.length);
    for (let i = 0; i < records.length;) {
      const done = await budget.slice();
      const started = performance.now();
      try {
        do {
          const bytes = list.serialize(records[i] as never, i);
          parts[i] = bytes;
          i++;
        } while (i < records.length && ((i & 255) !== 0 || !budget.spent(started)));
      } finally {
        done();
      }
    }
    return new CheckedList(parts);
  }
}
