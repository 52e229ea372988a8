import { CheckedJson, RecordList } from '../../vocabulary/answer.js';
import { errors } from '../../vocabulary/error-catalogue.js';
import type { ApiError } from '../../vocabulary/errors.js';
import type { HandlerContext, HandlerRequest, OperationHandler } from '../handler.js';
import type { SchemaObject } from '../../openapi/load.js';
import { jsonSchemaOf, type Operation } from '../../openapi/operations.js';
import type { DataGenerator } from '../../openapi/sample.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import { applyMergePatch } from './merge-patch.js';
import { CREATED, UPDATED } from './timestamps.js';
import { createRecordSerializers, type RecordSerializer } from './record-serializer.js';
import { isReadOnly, propertiesOf } from '../../openapi/schema-parts.js';
import type { Resource, ResourceAction } from '../../openapi/resources.js';
import { setField } from '../../store/records.js';
import type {
  Collection,
  CollectionDescriptor,
  RecordId,
  StoredRecord,
} from '../../store/store.js';

export interface EngineOptions {
  resources: readonly Resource[];
  compiler: SchemaCompiler;
  /** Makes the values of server-set fields (`readOnly` ones other than the id). */
  generator: DataGenerator;
  /** The base path the API is served under, for `Location`. */
  basePath: string;
  /** @default () => new Date() */
  now?: () => Date;
}

/**
 * The handlers of every operation a resource serves, keyed by operation: list, create,
 * read, replace (`put`: the client's fields replaced), update (`patch`: a JSON Merge Patch)
 * and delete, each answering the success status the spec gives it, on the store of the
 * request's context. Records are checked against the resource's schema before they are
 * stored or sent.
 * @example resourceHandlers({ resources, compiler, generator, basePath: '/v1' }).get(listCategories)
 */
export function resourceHandlers(options: EngineOptions): Map<Operation, OperationHandler> {
  const serializerFor = createRecordSerializers(options.compiler);
  const handlers = new Map<Operation, OperationHandler>();
  for (const resource of options.resources) {
    const served = new ServedResource(resource, options, serializerFor);
    for (const [operation, action] of resource.actions)
      handlers.set(operation, served.handler(operation, action));
  }
  return handlers;
}

/** What the store needs to know of a resource's collection. */
export function descriptorOf(resource: Resource): CollectionDescriptor {
  return { name: resource.name, idProperty: resource.idProperty, idKind: resource.idKind };
}

class ServedResource {
  readonly #spec: CollectionDescriptor;
  /** The fields a client writes; undefined when the schema takes any field. */
  readonly #writable: ReadonlySet<string> | undefined;
  /** `readOnly` fields other than the id: the service sets them. */
  readonly #serverSet: readonly [string, SchemaObject][];
  readonly #check: (value: unknown, where?: string) => string[];
  readonly #now: () => Date;

  constructor(
    readonly resource: Resource,
    readonly options: EngineOptions,
    readonly serializerFor: (schema: SchemaObject) => RecordSerializer,
  ) {
    this.#spec = descriptorOf(resource);
    const properties = propertiesOf(resource.schema);
    const open =
      Object.keys(properties).length === 0 ||
      [resource.schema, ...((resource.schema.allOf ?? []) as SchemaObject[])].some(
        (part) => part.additionalProperties !== undefined && part.additionalProperties !== false,
      );
    this.#writable = open
      ? undefined
      : new Set(Object.keys(properties).filter((name) => !isReadOnly(properties[name] ?? {})));
    this.#serverSet = Object.entries(properties).filter(
      ([name, schema]) => name !== resource.idProperty && isReadOnly(schema),
    );
    this.#check = options.compiler.response(resource.schema);
    this.#now = options.now ?? (() => new Date());
  }

  handler(operation: Operation, action: ResourceAction): OperationHandler {
    const status = operation.successStatus;
    const schema = jsonSchemaOf(operation.responses[String(status)]);
    const serialize = schema && this.serializerFor(schema);
    // The id in an item path: the one parameter of its last segment.
    const idParam = /\{([^}]+)\}$/.exec(operation.path)?.[1] ?? '';
    const idOf = (request: HandlerRequest): RecordId => request.params[idParam] as RecordId;
    const collectionOf = (context: HandlerContext): Collection =>
      context.store.collection(this.#spec);
    switch (action) {
      case 'list': {
        const items = ((schema as { items?: SchemaObject } | undefined)?.items ??
          this.resource.schema) as SchemaObject;
        const serializeItem = this.serializerFor(items);
        return async (_request, context) => ({
          status,
          body: new RecordList(await collectionOf(context).list(), serializeItem),
        });
      }
      case 'create':
        return async ({ body }, context) => {
          const collection = collectionOf(context);
          const record = await collection.create({
            ...this.#serverFields(undefined),
            ...this.#clientFields(body),
          });
          let bytes: Buffer | undefined;
          try {
            bytes = serialize?.(record);
          } catch (err) {
            // Never keep a record that breaks the schema: every later list would fail.
            await collection.remove(record[this.resource.idProperty] as RecordId);
            throw err;
          }
          return {
            status,
            body: bytes === undefined ? undefined : new CheckedJson(bytes),
            headers: this.#location(record),
          };
        };
      case 'read':
        return async (request, context) => {
          const id = idOf(request);
          const record = await collectionOf(context).get(id);
          if (!record) throw this.#notFound(id);
          return { status, body: serialize ? new CheckedJson(serialize(record)) : undefined };
        };
      case 'replace':
      case 'update':
        return async (request, context) => {
          const id = idOf(request);
          const record = await collectionOf(context).update(id, (current) => {
            const client =
              action === 'replace'
                ? this.#clientFields(request.body)
                : (applyMergePatch(
                    this.#clientFields(current),
                    this.#clientFields(request.body),
                  ) as Record<string, unknown>);
            const fields = { ...this.#serverFields(current), ...client };
            const problems = this.#check({ ...fields, [this.resource.idProperty]: id }, '/body');
            if (problems.length > 0)
              throw errors.recordWouldBreak(action === 'update' ? 'patched' : 'new', problems);
            return fields;
          });
          if (!record) throw this.#notFound(id);
          return { status, body: serialize ? new CheckedJson(serialize(record)) : undefined };
        };
      case 'delete':
        return async (request, context) => {
          const id = idOf(request);
          const collection = collectionOf(context);
          const record = serialize ? await collection.get(id) : undefined;
          if (!(await collection.remove(id))) throw this.#notFound(id);
          return {
            status,
            body: serialize && record ? new CheckedJson(serialize(record)) : undefined,
          };
        };
    }
  }

  /** The fields of a body the client may write: the schema's writable ones, or all if it is open. */
  #clientFields(body: unknown): Record<string, unknown> {
    const fields: Record<string, unknown> = {};
    if (typeof body !== 'object' || body === null) return fields;
    for (const [name, value] of Object.entries(body)) {
      if (name === this.resource.idProperty) continue;
      if (this.#writable ? this.#writable.has(name) : !this.#isServerSet(name))
        setField(fields, name, value);
    }
    return fields;
  }

  /** Server-set fields: kept from `current`, made on create, timestamps refreshed. */
  #serverFields(current: StoredRecord | undefined): Record<string, unknown> {
    const fields: Record<string, unknown> = {};
    for (const [name, schema] of this.#serverSet) {
      const timestamp = schema.format === 'date-time';
      if (timestamp && (UPDATED.test(name) || (!current && CREATED.test(name))))
        fields[name] = this.#now().toISOString();
      else if (current && name in current) fields[name] = current[name];
      else if (!current)
        fields[name] = this.options.generator.value(schema, `${this.resource.name}.${name}`);
    }
    return fields;
  }

  #isServerSet(name: string): boolean {
    return this.#serverSet.some(([serverName]) => serverName === name);
  }

  #notFound(id: RecordId): ApiError {
    return errors.noRecord(this.resource.name, this.resource.idProperty, id);
  }

  #location(record: StoredRecord): Record<string, string> | undefined {
    const { itemPath } = this.resource;
    if (!itemPath) return undefined;
    const id = encodeURIComponent(String(record[this.resource.idProperty]));
    return { Location: `${this.options.basePath}${itemPath.replace(/\{[^}]+\}$/, id)}` };
  }
}
