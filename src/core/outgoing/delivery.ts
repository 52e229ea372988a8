// Sending one callback or webhook: bounded in time and in retries, never following a
// redirect (a 3xx could lead to a host the mock may not call), and its answer checked against
// the answers the description documents for it.
import { setTimeout as sleep } from 'node:timers/promises';
import { isJsonMediaType } from '../../openapi/media-types.js';
import { responseFor, jsonSchemaOf, type Operation } from '../../openapi/operations.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import { CheckedJson } from '../../vocabulary/answer.js';
import {
  LOGGED_BODY_LIMIT,
  type AnsweredRequest,
  type LoggedAnswer,
  type OutgoingNote,
} from '../admin/request-log.js';

export type { OutgoingNote };

/** How long one attempt may take, answer included. */
const ATTEMPT_TIMEOUT_MS = 5_000;

/** The waits before each retry: a network error, a 429 or a 5xx is tried three times in all. */
const RETRY_DELAYS_MS: readonly number[] = [250, 1_000];

/** One request to send. */
export interface Outgoing {
  url: string;
  operation: Operation;
  headers: Record<string, string>;
  /** The JSON body, serialized once: what is signed is what is sent. */
  body: string | undefined;
  note: Omit<OutgoingNote, 'attempts' | 'problems'> & { problems?: string[] };
}

/**
 * Sends a request and describes it as the request log keeps it: the URL as its path, the
 * headers and body sent, the receiver's status and answer, `outgoing` with the attempts and
 * the problems found (an undocumented status, an answer that breaks its schema). Never throws.
 * @example await deliver({ url, operation, headers, body, note: { kind: 'webhook', name: 'newPet' } }, { fetch, compiler })
 */
export async function deliver(
  outgoing: Outgoing,
  using: { fetch: typeof fetch; compiler: SchemaCompiler; session?: string | undefined },
): Promise<AnsweredRequest> {
  const started = performance.now();
  const problems = [...(outgoing.note.problems ?? [])];
  const entry: AnsweredRequest = {
    method: outgoing.operation.method.toUpperCase(),
    path: outgoing.url,
    headers: outgoing.headers,
    durationMs: 0,
    at: Date.now(),
    ...(outgoing.body === undefined ? {} : { body: parsed(outgoing.body) }),
    ...(using.session === undefined ? {} : { session: using.session }),
  };
  let attempts = 0;
  let error: string | undefined;
  let answer: { status: number; headers: Record<string, string>; text: string } | undefined;
  for (;;) {
    attempts++;
    error = undefined;
    answer = undefined;
    try {
      const response = await using.fetch(outgoing.url, {
        method: entry.method,
        headers: outgoing.headers,
        ...(outgoing.body === undefined ? {} : { body: outgoing.body }),
        redirect: 'manual',
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      answer = { status: response.status, headers, text: await response.text() };
    } catch (err) {
      error = reasonOf(err);
    }
    const retry = RETRY_DELAYS_MS[attempts - 1];
    const again =
      error !== undefined ||
      (answer !== undefined && (answer.status === 429 || answer.status >= 500));
    if (!again || retry === undefined) break;
    await sleep(retry);
  }
  entry.durationMs = Math.round((performance.now() - started) * 100) / 100;
  if (answer) {
    entry.status = answer.status;
    entry.response = loggedAnswerOf(answer);
    problems.push(...answerProblems(outgoing.operation, answer, using.compiler));
  }
  entry.outgoing = { ...outgoing.note, attempts, problems, ...(error ? { error } : {}) };
  return entry;
}

/**
 * A request that is not sent (its host is not allowed, its URL names nothing), as the log
 * keeps it.
 */
export function refused(
  url: string,
  operation: Operation,
  note: Omit<OutgoingNote, 'attempts' | 'problems'> & { error: string },
  session: string | undefined,
): AnsweredRequest {
  return {
    method: operation.method.toUpperCase(),
    path: url,
    durationMs: 0,
    at: Date.now(),
    ...(session === undefined ? {} : { session }),
    outgoing: { ...note, attempts: 0, problems: [] },
  };
}

/** What breaks the documented answers: a status none documents, a body that breaks its schema. */
function answerProblems(
  operation: Operation,
  answer: { status: number; headers: Record<string, string>; text: string },
  compiler: SchemaCompiler,
): string[] {
  const documented = Object.keys(operation.responses);
  if (documented.length === 0) return [];
  const found = responseFor(operation, answer.status);
  if (!found)
    return [
      `the receiver answered ${answer.status}, which is not documented (${documented.join(', ')})`,
    ];
  const schema = jsonSchemaOf(found.response);
  const type = answer.headers['content-type'] ?? '';
  if (!schema || answer.text === '' || !isJsonMediaType(type)) return [];
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [`the receiver's ${answer.status} answer is not JSON`];
  }
  return compiler
    .response(schema)(body, 'answer')
    .map((problem) => `the receiver's ${answer.status} answer: ${problem}`);
}

function loggedAnswerOf(answer: { headers: Record<string, string>; text: string }): LoggedAnswer {
  const bytes = Buffer.from(answer.text);
  if (bytes.length > LOGGED_BODY_LIMIT)
    return {
      headers: answer.headers,
      start: bytes.subarray(0, LOGGED_BODY_LIMIT),
      bytes: bytes.length,
    };
  if (bytes.length === 0) return { headers: answer.headers };
  try {
    JSON.parse(answer.text);
    return { headers: answer.headers, body: new CheckedJson(bytes) };
  } catch {
    return {
      headers: answer.headers,
      body: new CheckedJson(Buffer.from(JSON.stringify(answer.text))),
    };
  }
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

function reasonOf(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
    return `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`;
  const cause =
    err instanceof Error
      ? (err.cause as { code?: string; message?: string } | undefined)
      : undefined;
  if (cause?.code) return `${cause.code}${cause.message ? `: ${cause.message}` : ''}`;
  return err instanceof Error ? err.message : String(err);
}
