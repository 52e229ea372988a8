import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonSchemaOf, responseFor, type Operation } from '../spec/operations.js';
import type { SchemaCompiler } from '../spec/schemas.js';
import { CheckedJson, RecordList, type Answer } from './answer.js';
import { ApiError } from './errors.js';
import { createTurnBudget } from './turn-budget.js';

/** The CPU all lists being sent may take in one turn of the event loop, together. */
const TURN_BUDGET_MS = 4;
/** A list goes out in writes of about this many bytes. */
const WRITE_BYTES = 64 * 1024;

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * Sends a handler's answer. A plain body is checked against the response schema the spec
 * gives the operation for that status, so a mock answer that breaks the spec becomes a
 * 500 `invalid_response` naming the problem, never a wrong answer. HEAD gets the headers
 * of GET and no body.
 * @example await send(req, res, operation, { status: 200, body: [{ id: 1, name: 'Dog' }] });
 */
export function createSender(
  compiler: SchemaCompiler,
): (
  req: IncomingMessage,
  res: ServerResponse,
  operation: Operation,
  answer: Answer,
) => Promise<void> {
  const budget = createTurnBudget(TURN_BUDGET_MS);

  return async function send(req, res, operation, answer) {
    const { body } = answer;
    const head = req.method === 'HEAD';
    if (body === undefined) {
      writeHead(res, answer);
      res.end();
      return;
    }
    if (body instanceof RecordList) return sendList(res, answer, body, head);
    const bytes =
      body instanceof CheckedJson
        ? body.bytes
        : Buffer.from(checkedText(compiler, operation, answer));
    writeHead(res, answer);
    res.setHeader('Content-Length', bytes.length);
    res.end(head ? undefined : bytes);
  };

  /**
   * A list goes out in two passes, in slices that share the turn budget with every other
   * list: first every record is checked (a record that breaks the spec must still turn the
   * answer into a 500, which is impossible once the first bytes are sent) and its length
   * summed, so the answer has a Content-Length; then the records' cached bytes are written,
   * a few tens of kilobytes at a time, waiting for the client to drain each.
   */
  async function sendList(
    res: ServerResponse,
    answer: Answer,
    list: RecordList,
    head: boolean,
  ): Promise<void> {
    const { records } = list;
    const parts = new Array<Buffer>(records.length);
    let length = 2 + Math.max(0, records.length - 1);
    for (let i = 0; i < records.length;) {
      const done = await budget.slice();
      if (res.destroyed) return done();
      const started = performance.now();
      try {
        do {
          const bytes = list.serialize(records[i] as never, i);
          parts[i] = bytes;
          length += bytes.length;
          i++;
        } while (i < records.length && ((i & 255) !== 0 || !budget.spent(started)));
      } finally {
        done();
      }
    }

    writeHead(res, answer);
    res.setHeader('Content-Length', length);
    if (head) {
      res.end();
      return;
    }
    for (let i = 0; i < parts.length || i === 0;) {
      const done = await budget.slice();
      const started = performance.now();
      const chunk: Buffer[] = i === 0 ? [OPEN] : [];
      let size = 0;
      while (i < parts.length && size < WRITE_BYTES && !(size > 0 && budget.spent(started))) {
        if (i > 0) chunk.push(COMMA);
        const part = parts[i] as Buffer;
        chunk.push(part);
        size += part.length;
        i++;
      }
      if (i >= parts.length) chunk.push(CLOSE);
      const ok = res.destroyed ? false : res.write(Buffer.concat(chunk));
      done();
      if (i >= parts.length) break;
      if (!ok && !(await drained(res))) return;
    }
    res.end();
  }
}

function writeHead(res: ServerResponse, answer: Answer): void {
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  if (answer.body !== undefined && !res.hasHeader('Content-Type'))
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
}

function checkedText(compiler: SchemaCompiler, operation: Operation, answer: Answer): string {
  const schema = jsonSchemaOf(responseFor(operation, answer.status)?.response);
  if (schema) {
    const problems = compiler.response(schema)(answer.body, '/response');
    if (problems.length > 0) {
      throw new ApiError(
        500,
        'invalid_response',
        `The mock's response breaks the spec: ${problems.join('; ')}`,
      );
    }
  }
  return JSON.stringify(answer.body);
}

/** Resolves with whether the client took what was written (false: it is gone); leaves no listener behind. */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve(!res.destroyed);
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
