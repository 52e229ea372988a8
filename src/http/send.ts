import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonSchemaOf, responseFor, type Operation } from '../spec/operations.js';
import type { SchemaCompiler } from '../spec/schemas.js';
import { CheckedJson, RecordList, type Answer } from './answer.js';
import { ApiError } from './errors.js';

/** How long one slice of list work may hold the event loop before it yields. */
const SLICE_MS = 4;
/** Up to this many bytes a list is sent in one piece, with a Content-Length. */
const WHOLE_LIMIT = 64 * 1024;

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
  return async function send(req, res, operation, answer) {
    const { body } = answer;
    const head = req.method === 'HEAD';
    if (body === undefined) {
      writeHead(res, answer);
      res.end();
      return;
    }
    if (body instanceof RecordList) return sendList(res, answer, body, head);
    const text = body instanceof CheckedJson ? body.text : checkedText(compiler, operation, answer);
    writeHead(res, answer);
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(head ? undefined : text);
  };
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

/**
 * A list goes out in two passes, each yielding to other requests every few milliseconds:
 * first every record is checked (a record that breaks the spec must still turn the answer
 * into a 500, which is impossible once the first bytes are sent), then the array is written
 * slice by slice, waiting for the client to drain each.
 */
async function sendList(
  res: ServerResponse,
  answer: Answer,
  list: RecordList,
  head: boolean,
): Promise<void> {
  const texts: string[] = new Array<string>(list.records.length);
  let length = 2;
  let sliceStart = performance.now();
  for (let i = 0; i < list.records.length; i++) {
    const text = list.serialize(list.records[i] as never, i);
    texts[i] = text;
    length += text.length + 1;
    if ((i & 255) === 255 && performance.now() - sliceStart > SLICE_MS) {
      await yieldToOthers();
      if (res.destroyed) return;
      sliceStart = performance.now();
    }
  }

  writeHead(res, answer);
  if (length <= WHOLE_LIMIT) {
    const whole = `[${texts.join(',')}]`;
    res.setHeader('Content-Length', Buffer.byteLength(whole));
    res.end(head ? undefined : whole);
    return;
  }
  if (head) {
    res.end();
    return;
  }
  let slice: string[] = ['['];
  let sliceLength = 1;
  for (let i = 0; i < texts.length; i++) {
    slice.push(i === 0 ? (texts[i] as string) : `,${texts[i] as string}`);
    sliceLength += (texts[i] as string).length + 1;
    if (sliceLength >= WHOLE_LIMIT) {
      if (!(await write(res, slice.join('')))) return;
      slice = [];
      sliceLength = 0;
    }
  }
  slice.push(']');
  res.end(slice.join(''));
}

/** Writes, then waits for the client to take it and for other requests to have a turn. */
async function write(res: ServerResponse, text: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (!res.write(text)) {
    await drained(res);
    if (res.destroyed) return false;
  }
  await yieldToOthers();
  return !res.destroyed;
}

/** Resolves when the client has taken what was written, or is gone; leaves no listener behind. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
