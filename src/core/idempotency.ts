// Idempotency keys (the IETF draft's `Idempotency-Key` request header): a repeat of a request
// replays the first answer, and another request under the same key is refused.
import { createHash } from 'node:crypto';
import type { Operation } from '../openapi/operations.js';
import type { CollectionDescriptor } from '../store/store.js';
import { CheckedJson, type Answer } from '../vocabulary/answer.js';
import { errors } from '../vocabulary/error-catalogue.js';
import type { OperationHandler } from './handler.js';

/** The header, as the draft names it. */
const HEADER = 'idempotency-key';

/** Where the store keeps the first answer of each key: in the request's state, reset with it. */
const ANSWERS: CollectionDescriptor = {
  name: '__idempotency',
  idProperty: 'key',
  idKind: 'string',
};

/** A first answer as the store keeps it: plain JSON. */
type KeptAnswer = {
  key: string;
  request: string;
  status: number;
  headers?: Record<string, string>;
  /** The body's JSON text, when it had one. */
  json?: string;
};

/**
 * Wraps the handler of every operation that documents an `Idempotency-Key` header: a request
 * with a key already used on that operation and the same body (and path) gets the first
 * answer again, with nothing done twice; one with another body under the key is refused with
 * the status the operation documents (422, else 409; 422 as the draft says when it documents
 * neither). Only successful answers are kept, so a refused request can be sent again.
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
      const first = (await kept.get(key)) as Readonly<KeptAnswer> | undefined;
      if (first) {
        if (first.request !== fingerprint) throw reused(given);
        return replayed(first);
      }
      const answer = await handler(request, context);
      if (answer.status >= 200 && answer.status < 300) {
        const json =
          answer.body instanceof CheckedJson
            ? answer.body.bytes.toString('utf8')
            : answer.body === undefined
              ? undefined
              : JSON.stringify(answer.body);
        const record: KeptAnswer = {
          key,
          request: fingerprint,
          status: answer.status,
          ...(answer.headers ? { headers: { ...answer.headers } } : {}),
          ...(json === undefined ? {} : { json }),
        };
        // A concurrent first request under the same key kept its answer first: this one stands.
        await kept.create(record, key).catch(() => undefined);
      }
      return answer;
    };
  };
}

function replayed(first: Readonly<KeptAnswer>): Answer {
  return {
    status: first.status,
    ...(first.headers ? { headers: first.headers } : {}),
    ...(first.json === undefined ? {} : { body: new CheckedJson(Buffer.from(first.json)) }),
  };
}
