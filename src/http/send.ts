import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonSchemaOf, responseFor, type Operation } from '../openapi/operations.js';
import type { SchemaCompiler } from '../openapi/schemas.js';
import { CheckedJson, RecordList, type Answer } from '../vocabulary/answer.js';
import { invalidResponse } from '../vocabulary/errors.js';
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
    await writeParts(res, parts);
    if (!res.destroyed) res.end();
  }

  /**
   * Writes `[part,part,...]` through two scratch buffers, filled in turn and reused once their
   * write is done: a list of 100 MB makes no 100 MB of copies for the collector to pause over.
   * A part too large for a scratch buffer goes out as it is.
   */
  async function writeParts(res: ServerResponse, parts: readonly Buffer[]): Promise<void> {
    const scratch = [Buffer.allocUnsafe(WRITE_BYTES), Buffer.allocUnsafe(WRITE_BYTES)];
    const written: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
    // A write of a client that left may never call back: its leaving ends the wait too.
    const gone = new Promise<void>((resolve) => res.once('close', resolve));
    let i = 0;
    for (let turn = 0, opened = false; ; turn ^= 1) {
      await Promise.race([written[turn], gone]);
      if (res.destroyed) return;
      const done = await budget.slice();
      const started = performance.now();
      const buffer = scratch[turn] as Buffer;
      const direct: Buffer[] = [];
      let size = 0;
      if (!opened) {
        size += OPEN.copy(buffer);
        opened = true;
      }
      while (i < parts.length && !(size > 1 && budget.spent(started))) {
        const part = parts[i] as Buffer;
        const separated = i > 0;
        if (part.length + 2 > buffer.length) {
          if (size > 0) break; // what is filled goes first
          if (separated) direct.push(COMMA);
          direct.push(part);
          i++;
          break;
        }
        if (size + part.length + 2 > buffer.length) break;
        if (separated) size += COMMA.copy(buffer, size);
        size += part.copy(buffer, size);
        i++;
      }
      const last = i >= parts.length;
      if (last) {
        if (direct.length > 0) direct.push(CLOSE);
        else size += CLOSE.copy(buffer, size);
      }
      let ok = true;
      if (size > 0) {
        written[turn] = new Promise((resolve) => {
          ok = res.write(buffer.subarray(0, size), () => resolve());
        });
      }
      for (const part of direct) ok = res.write(part);
      done();
      if (last || res.destroyed) return;
      if (!ok && !(await drained(res))) return;
    }
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
    if (problems.length > 0) throw invalidResponse(problems);
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
