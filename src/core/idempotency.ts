// Idempotency keys (the IETF draft's `Idempotency-Key` request header): a repeat of a request
// replays the first answer, and another request under the same key is refused.
import { createHash } from 'node:crypto';
import type { Operation } from '../openapi/operations.js';
import { StoreKeyTakenError, type Collection, type CollectionDescriptor } from '../store/store.js';
import { CheckedJson, type Answer } from '../vocabulary/answer.js';
import { errors } from '../vocabulary/error-catalogue.js';
import type { HandlerContext, HandlerRequest, OperationHandler } from './handler.js';

/** The header, as the draft names it. */
const HEADER = 'idempotency-key';

/** Where the store keeps the first answer of each key: in the request's state, reset with it. */
const ANSWERS: CollectionDescriptor = {
  name: '__idempotency',
  idProperty: 'key',
  idKind: 'string',
};

/**
 * How long a repeat waits for the first request under its key to be answered before the
 * draft's 409 (a request still in progress): a first request that never ends is not waited on.
 */
const PENDING_WAIT_MS = 30_000;

/** A first answer as the store keeps it: plain JSON. */
type StoredAnswer = {
  key: string;
  request: string;
  /** The first request under the key is still being answered. */
  pending?: true;
  status?: number;
  headers?: Record<string, string>;
  /** The body's JSON text, when it had one. */
  json?: string;
};

/**
 * Wraps the handler of every operation that documents an `Idempotency-Key` header: a request
 * with a key already used on that operation and the same body (and path) gets the first
 * answer again, with nothing done twice; one with another body under the key is refused with
 * the status the operation documents (422, else 409; 422 as the draft says when it documents
 * neither). Only successful answers are kept, so a refused request can be sent again; a
 * repeat that arrives while the first is answered waits for its answer.
 * @example withIdempotencyKeys(handlerOf)(createItem) // replays the first 201 for the same key and body
 */
export function withIdempotencyKeys(
  handlerOf: (operation: Operation) => OperationHandler,
): (operation: Operation) => OperationHandler {
  return (operation) => {
    const handler = handlerOf(operation);
    const documented = operation.parameters.some(
      (parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === HEADER,
    );
    if (!documented) return handler;
    const reused =
      operation.responses['422'] === undefined && operation.responses['409'] !== undefined
        ? errors.idempotencyKeyInUse
        : errors.idempotencyKeyReused;
    return async (request, context) => {
      const given = request.headers[HEADER];
      if (typeof given !== 'string' || given === '') return handler(request, context);
      const kept = context.store.collection(ANSWERS);
      const key = `${operation.operationId}\n${given}`;
      const fingerprint = createHash('sha256')
        .update(`${request.pathname ?? ''}\n${JSON.stringify(request.body) ?? ''}`)
        .digest('base64url');
      const waitUntil = Date.now() + PENDING_WAIT_MS;
      for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
        // The key is reserved before the handler runs: the store's create refuses a taken id
        // atomically, so of requests arriving together under one key exactly one goes on.
        const reserved = await kept
          .create({ request: fingerprint, pending: true } satisfies Omit<StoredAnswer, 'key'>, key)
          .then(
            () => true,
            (err: unknown) => {
              if (err instanceof StoreKeyTakenError) return false;
              throw err;
            },
          );
        if (reserved) return answerOnce(handler, request, context, kept, key, fingerprint);
        const first = (await kept.get(key)) as Readonly<StoredAnswer> | undefined;
        // The first request was refused and let its key go: this one tries again.
        if (!first) continue;
        if (first.request !== fingerprint) throw reused(given);
        if (first.pending !== true) return replayed(first);
        if (Date.now() > waitUntil) throw errors.idempotencyKeyInProgress(given);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    };
  };
}

/**
 * Runs the request that reserved the key and keeps its answer for the repeats, or lets the
 * key go when the answer is no success (a refused request may be sent again).
 */
async function answerOnce(
  handler: OperationHandler,
  request: HandlerRequest,
  context: HandlerContext,
  kept: Collection,
  key: string,
  fingerprint: string,
): Promise<Answer> {
  let answer: Answer;
  try {
    answer = await handler(request, context);
  } catch (err) {
    await kept.remove(key);
    throw err;
  }
  if (answer.status < 200 || answer.status >= 300) {
    await kept.remove(key);
    return answer;
  }
  const json =
    answer.body instanceof CheckedJson
      ? answer.body.bytes.toString('utf8')
      : answer.body === undefined
        ? undefined
        : JSON.stringify(answer.body);
  await kept.update(key, (): Omit<StoredAnswer, 'key'> => ({
    request: fingerprint,
    status: answer.status,
    ...(answer.headers ? { headers: { ...answer.headers } } : {}),
    ...(json === undefined ? {} : { json }),
  }));
  return answer;
}

function replayed(first: Readonly<StoredAnswer>): Answer {
  return {
    status: first.status ?? 200,
    ...(first.headers ? { headers: first.headers } : {}),
    ...(first.json === undefined ? {} : { body: new CheckedJson(Buffer.from(first.json)) }),
  };
}
