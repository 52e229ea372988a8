// The answers `petstore-kit proxy --record` keeps for operations without a collection, and how
// the mock answers with them: the data file's section of recorded answers (see ANSWERS_SECTION).
import { jsonSchemaOf, responseFor, type Operation } from '../openapi/operations.js';
import type { SchemaCompiler } from '../openapi/schemas.js';
import { ANSWERS_SECTION, ANSWERS_SECTION_VERSION } from '../store/data-file.js';
import {
  StoreKeyTakenError,
  type Collection,
  type CollectionDescriptor,
  type Store,
} from '../store/store.js';
import { isJsonObject } from '../vocabulary/record.js';
import { echoed } from './example-answers.js';
import type { OperationHandler } from './handler.js';

/** Where a store keeps the recorded answers: one record per key (see answerKey). */
const RECORDED_ANSWERS: CollectionDescriptor = {
  name: ANSWERS_SECTION,
  idProperty: 'key',
  idKind: 'string',
};

/** A success answer of the target, as the recording keeps it. */
export interface RecordedAnswer {
  operation: Operation;
  /** The request's path parameters, decoded: part of the key. */
  params: Readonly<Record<string, string>>;
  status: number;
  /** Its media type with its parameters, as the target sent it; none for an answer without a body. */
  contentType?: string | undefined;
  /** The JSON value of its body; undefined for none. */
  body?: unknown;
}

/**
 * The key of an operation's recorded answer: its operationId, and its path parameters (sorted,
 * URL-encoded) when it has any, so that `GET /pets/3/photo` and `GET /pets/4/photo` are kept
 * apart; the query and the request body are not part of it.
 * @example answerKey('getPhoto', { petId: '3' }) // 'getPhoto?petId=3'
 */
function answerKey(operationId: string, params: Readonly<Record<string, unknown>>): string {
  const names = Object.keys(params).sort();
  if (names.length === 0) return operationId;
  const pairs = names.map(
    (name) => `${encodeURIComponent(name)}=${encodeURIComponent(keyText(params[name]))}`,
  );
  return `${operationId}?${pairs.join('&')}`;
}

// A decoded parameter may be an array or an object (style simple, label, matrix), some without
// a prototype, which String() cannot convert: those are keyed by their JSON.
function keyText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * Keeps a success answer of an operation without a collection in `store`, replacing the one
 * kept before: under the key of its path parameters, and (when it has any) under the
 * operation's alone, which answers other parameters. Only its status, media type and JSON body
 * are written, never a header of the request or of the answer (no credential, no cookie).
 * @example await recordAnswer(store, { operation: getInventory, params: {}, status: 200, contentType: 'application/json', body: { sold: 3 } })
 */
export async function recordAnswer(store: Store, answer: RecordedAnswer): Promise<void> {
  const { operation, params, status, contentType, body } = answer;
  const collection = store.collection(RECORDED_ANSWERS);
  const keys = new Set([answerKey(operation.operationId, params), operation.operationId]);
  // Together: a file store writes them in one group, with one sync.
  const writes = [...keys].map(async (key) => {
    const record = {
      key,
      version: ANSWERS_SECTION_VERSION,
      operation: operation.operationId,
      status,
      ...(contentType === undefined ? {} : { contentType }),
      ...(body === undefined ? {} : { body }),
    };
    await put(collection, key, record);
  });
  await Promise.all(writes);
}

/** Stores `record` under `key`, replacing what is there, also when another request just made it. */
async function put(
  collection: Collection,
  key: string,
  record: Readonly<Record<string, unknown>>,
): Promise<void> {
  if (await collection.update(key, () => record)) return;
  try {
    await collection.create(record, key);
  } catch (err) {
    if (!(err instanceof StoreKeyTakenError)) throw err;
    await collection.update(key, () => record);
  }
}

/**
 * An operation's handler that answers with the recorded answer of its path parameters, else
 * the operation's last recorded answer, with the requested path parameters set in it as the
 * spec's examples get them (`/pets/9` answers the pet recorded for `/pets/3` with id 9; see
 * echoed), else as `fallback` does (its example or generated data). The recorded answer is
 * checked against the spec like any handler's, by the mock: one that no longer fits it is a
 * 500 naming the problem. A record of a section version this petstore-kit does not know is
 * passed over.
 * @param holds whether the store holds any recorded answer (see holdsRecordedAnswers): when
 * not, the handler answers as `fallback` without asking the store twice a request.
 * @example recordedOr(getInventory, exampleHandler(getInventory, examples), compiler)
 */
export function recordedOr(
  operation: Operation,
  fallback: OperationHandler,
  compiler?: SchemaCompiler,
  holds: Promise<boolean> = Promise.resolve(true),
): OperationHandler {
  return async (request, context) => {
    if (!(await holds)) return fallback(request, context);
    const collection = context.store.collection(RECORDED_ANSWERS);
    const exact = answerKey(operation.operationId, request.params);
    let found = usable(await collection.get(exact));
    if (!found && exact !== operation.operationId) {
      found = usable(await collection.get(operation.operationId));
      if (found && 'body' in found) {
        const schema = jsonSchemaOf(responseFor(operation, found.status)?.response);
        const check = compiler && schema ? compiler.response(schema) : undefined;
        found.body = echoed(
          found.body,
          request.params,
          (value) => !check || check(value).length === 0,
        );
      }
    }
    if (!found) return fallback(request, context);
    return {
      status: found.status,
      ...(found.contentType === undefined
        ? {}
        : { headers: { 'Content-Type': found.contentType } }),
      ...('body' in found ? { body: found.body } : {}),
    };
  };
}

/**
 * Whether `store` holds a recorded answer. Asked once, when the mock is made: only a recording
 * (`--record`, read back with `--data`) or a store given them puts them there, and the mock
 * itself never writes one, so a store without them keeps none for the mock's whole life.
 * @example const holds = holdsRecordedAnswers(store); // then recordedOr(op, fallback, compiler, holds)
 */
export async function holdsRecordedAnswers(store: Store): Promise<boolean> {
  try {
    return (await store.collection(RECORDED_ANSWERS).list()).length > 0;
  } catch {
    // A store that cannot list them now holds none the mock could answer with.
    return false;
  }
}

/** A recorded answer this version reads, or undefined. */
function usable(
  record: unknown,
): { status: number; contentType?: string; body?: unknown } | undefined {
  if (!isJsonObject(record) || record.version !== ANSWERS_SECTION_VERSION) return undefined;
  const { status, contentType } = record;
  if (typeof status !== 'number') return undefined;
  return {
    status,
    ...(typeof contentType === 'string' ? { contentType } : {}),
    ...('body' in record ? { body: record.body } : {}),
  };
}
