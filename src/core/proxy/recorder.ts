import type { Operation } from '../../openapi/operations.js';
import { parametersOf, type Resource, type ResourceAction } from '../../openapi/resources.js';
import type { Store } from '../../store/store.js';
import { keyIn, type RecordId } from '../../vocabulary/record.js';
import { recordAnswer } from '../recorded-answers.js';
import { descriptorOf } from '../resources/descriptor.js';

/** A write the target answered with success, as the recorder needs it. */
export interface RecordedWrite {
  operation: Operation;
  /** The path parameters of the request, decoded, as strings. */
  params: Readonly<Record<string, string>>;
  /** The answer's status. */
  status: number;
  /** The answer's Content-Type, as sent; undefined without one. */
  contentType: string | undefined;
  /** The parsed JSON body of the answer (undefined without one, or for one not JSON). */
  body: unknown;
  /** Whether the answer had a body (JSON or not). */
  hasBody: boolean;
}

/** The writes a recording keeps: the records the target made or changed, or removed. */
const RECORDED: ReadonlySet<ResourceAction> = new Set(['create', 'replace', 'update', 'delete']);

/**
 * Keeps in `store` what the target creates, replaces, updates and deletes through the proxy,
 * in the collections the mock infers from the spec: a created or changed record as the
 * target's answer holds it (unwrapped from its envelope), under the id the target gave it;
 * a deleted one removed. The answer of an operation that belongs to no collection (an
 * inventory, a health check, an RPC-style POST) is kept whole (status, media type, JSON body)
 * as that operation's recorded answer (see recordAnswer), which the mock then answers it with;
 * one whose body is not JSON is not kept, since the mock answers JSON only. Only answers are
 * written, never a request's headers or query, nor an answer's headers but its media type, so
 * no credential or cookie reaches the store. The caller records only answers that fit the
 * spec, which the mock serving the store later checks them against.
 * @returns whether the answer was kept: a collection's write, or an operation's answer.
 * @example await record({ operation: createCategory, params: {}, body: { id: 7, name: 'Ferret' } })
 */
export function createRecorder(
  resources: readonly Resource[],
  store: Store,
): (write: RecordedWrite) => Promise<boolean> {
  const byOperation = new Map<Operation, { resource: Resource; action: ResourceAction }>();
  /** Operations some collection serves (lists and reads too): never kept as answers. */
  const collectionOperations = new Set<Operation>();
  for (const resource of resources)
    for (const [operation, action] of resource.actions) {
      collectionOperations.add(operation);
      if (RECORDED.has(action)) byOperation.set(operation, { resource, action });
    }

  return async ({ operation, params, status, contentType, body, hasBody }) => {
    const found = byOperation.get(operation);
    if (!found) {
      if (collectionOperations.has(operation) || (hasBody && body === undefined)) return false;
      await recordAnswer(store, {
        operation,
        params,
        status,
        contentType: hasBody ? contentType : undefined,
        body,
      });
      return true;
    }
    const { resource, action } = found;
    const names = parametersOf(operation.path);
    const scope = names.slice(0, resource.scope.length).map((name) => params[name] ?? '');
    const collection = store.collection(descriptorOf(resource, scope));
    if (action === 'delete') {
      const key = params[names[resource.scope.length] ?? names.at(-1) ?? ''];
      if (key === undefined) return false;
      await collection.remove(idOf(resource, key));
      return true;
    }
    const envelope = resource.envelopes.get(operation);
    const record =
      envelope?.kind === 'wrapped'
        ? (body as Record<string, unknown> | null)?.[envelope.property]
        : body;
    if (typeof record !== 'object' || record === null || Array.isArray(record)) return false;
    const fields = record as Record<string, unknown>;
    const id = keyIn(fields, resource);
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const replaced = await collection.update(id, () => fields);
    if (!replaced) await collection.create(fields, id);
    return true;
  };
}

/** An id from a path, typed as the collection keys its records. */
function idOf(resource: Resource, key: string): RecordId {
  return resource.idKind === 'integer' && /^-?\d+$/.test(key) ? Number(key) : key;
}
