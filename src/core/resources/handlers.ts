import { errors } from '../../vocabulary/error-catalogue.js';
import { ApiError } from '../../vocabulary/errors.js';
import type { Answer } from '../../vocabulary/answer.js';
import type { HandlerContext, HandlerRequest, OperationHandler } from '../handler.js';
import type { MockStates } from '../state.js';
import type { ExampleSource } from '../../openapi/examples.js';
import { jsonSchemaOf, responseFor, type Operation } from '../../openapi/operations.js';
import type { DataGenerator } from '../../openapi/sample.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import { parametersOf, type Resource, type ResourceAction } from '../../openapi/resources.js';
import { lastValueOf, linkOf } from '../../openapi/link-key.js';
import { admittedTypes, propertiesOf, requiredOf } from '../../openapi/schema-parts.js';
import type {
  Collection,
  CollectionDescriptor,
  RecordId,
  StoredRecord,
} from '../../store/store.js';
import { SpecError, type SchemaObject } from '../../openapi/load.js';
import { descriptorOf } from './descriptor.js';
import {
  createEnvelopeAnswers,
  type EnvelopeAnswers,
  type PageWithLinks,
} from './envelope-answer.js';
import { textsFrom, type Texts } from '../../vocabulary/texts.js';
import { keyIn } from '../../vocabulary/record.js';
import { selectPage, type PageItems, type PageOf } from './list-page.js';
import { nextPageLink, pageLinks } from './next-link.js';
import { conditionOn, entityTagOf } from './entity-tags.js';
import type { ListParameters } from '../../openapi/list-parameters.js';
import { jsonOf, recordOf } from '../../store/records.js';
import { createSeedPool, seedCollection, type SeedPool } from './seed.js';
import { RecordMaker } from './record-maker.js';
import { createRecordSerializers } from './record-serializer.js';
import { createFieldShapes } from './two-shapes.js';

export { descriptorOf } from './descriptor.js';

export interface EngineOptions {
  resources: readonly Resource[];
  compiler: SchemaCompiler;
  /** Makes the values of server-set fields (ids, `readOnly` and required fields the client does not send). */
  generator: DataGenerator;
  /** The bodies of answers that hold no record (an operation's examples, checked, or generated data). */
  examples: ExampleSource;
  /** The base path the API is served under, for `Location`. */
  basePath: string;
  /** @default () => new Date() */
  now?: () => Date;
  /**
   * The seeding in force (`undefined` when the data was loaded, not seeded): a nested
   * collection is seeded with it under each parent the first time it is asked for there.
   */
  seeding?: () => { count: number; seed: number } | undefined;
  /** Runs the seeding of a store's collection unless one is under way (see MockStates.seedOnce). */
  seedOnce: MockStates['seedOnce'];
  /**
   * Where nested collections' seeded records are made, once for every parent (precompiling
   * fills it too). @default one of this engine's own
   */
  seedPool?: SeedPool;
}

/** Where the store remembers which nested collections were seeded: reset forgets with the records. */
const SEEDED: CollectionDescriptor = {
  name: '__seeded',
  idProperty: 'collection',
  idKind: 'string',
};

/** A key schema no value fits: see #scoped. */
const NO_TAKEN_KEY: SchemaObject = { not: {} } as SchemaObject;

/**
 * The handlers of every operation a resource serves, keyed by operation: list (filtered and
 * paged as its parameters document), create, read, replace (`put`: the client's fields
 * replaced), update (`patch`: a JSON Merge Patch) and delete, each answering the success
 * status the spec gives it, in the envelope its answer documents, on the store of the
 * request's context. A nested collection's records are kept per parent, whose record must
 * exist where clients can create one. Records are checked against the resource's schema before they are stored or sent.
 * @example resourceHandlers({ resources, compiler, generator, examples, basePath: '/v1' }).get(listCategories)
 */
export function resourceHandlers(given: EngineOptions): Map<Operation, OperationHandler> {
  const options = { ...given, seedPool: given.seedPool ?? createSeedPool(given.generator) };
  const serializerFor = createRecordSerializers(options.compiler);
  const envelopes = createEnvelopeAnswers({
    compiler: options.compiler,
    generator: options.generator,
    serializerFor,
  });
  // A resource whose answers show a field in two shapes has answers of its own, which know
  // them; every other one shares the engine's.
  const envelopesOf = (resource: Resource): EnvelopeAnswers | undefined => {
    const shapes = createFieldShapes({
      fields: resource.twoShapes,
      idProperty: resource.idProperty,
      compiler: options.compiler,
      generator: options.generator,
    });
    return (
      shapes &&
      createEnvelopeAnswers({
        compiler: options.compiler,
        generator: options.generator,
        serializerFor: createRecordSerializers(options.compiler, shapes),
        shapes,
      })
    );
  };
  const handlersByCollection = new Map<string, CollectionHandlers>();
  for (const resource of options.resources)
    handlersByCollection.set(
      resource.name,
      new CollectionHandlers(
        resource,
        options,
        envelopesOf(resource) ?? envelopes,
        handlersByCollection,
      ),
    );
  const handlers = new Map<Operation, OperationHandler>();
  for (const resource of options.resources) {
    const one = handlersByCollection.get(resource.name) as CollectionHandlers;
    for (const [operation, action] of resource.actions)
      handlers.set(operation, one.handler(operation, action));
  }
  return handlers;
}

class CollectionHandlers {
  readonly #maker: RecordMaker;
  /** The item path's text around its parameters (`/pets/`, `''` for `/pets/{petId}`), split once. */
  readonly #itemPathParts: readonly string[] | undefined;

  /** Whether its records carry an `ETag`: a response of it declares one, or documents 304, 412 or 428. */
  readonly #tagged: boolean;

  constructor(
    readonly resource: Resource,
    readonly options: EngineOptions & { readonly seedPool: SeedPool },
    readonly envelopes: EnvelopeAnswers,
    readonly all: ReadonlyMap<string, CollectionHandlers>,
  ) {
    this.#maker = new RecordMaker(resource, options);
    this.#itemPathParts = resource.itemPath?.split(/\{[^}]+\}/);
    this.#tagged = [...resource.actions.keys()].some(documentsEntityTags);
  }

  /**
   * The record with its key also under the item parameter's name, where an answer declares that
   * name and the record holds no such field (`{"issueTypeSchemeId": "10010"}` for a record
   * keyed by `id`): made up instead, it would name no record.
   */
  #withKeyAsParameter(record: StoredRecord, declared: Record<string, unknown>): StoredRecord {
    const name = this.resource.itemParameter;
    if (name === undefined || !(name in declared) || Object.hasOwn(record, name)) return record;
    const key = keyIn(record, this.resource);
    return key === undefined ? record : { ...record, [name]: key };
  }

  handler(operation: Operation, action: ResourceAction): OperationHandler {
    const status = operation.successStatus;
    const envelope = this.resource.envelopes.get(operation);
    const names = parametersOf(operation.path);
    const scopeNames = names.slice(0, this.resource.scope.length);
    const keyName = names[this.resource.scope.length] ?? names.at(-1) ?? '';
    const scopeOf = (request: HandlerRequest): string[] =>
      scopeNames.map((name) => String(request.params[name]));
    const { keyLink } = this.resource;
    // A record keyed by its link is found by the link its path makes (see Resource.keyLink).
    const keyOf = (request: HandlerRequest): RecordId =>
      keyLink
        ? linkOf(keyLink.template, [...scopeOf(request), String(request.params[keyName])])
        : (request.params[keyName] as RecordId);
    const example = () => this.options.examples.body(operation, String(status))?.body;
    // An answer that requires what the record does not hold is about the record, not the record:
    // a delete's `{id, object, deleted}`, a put that answers an invitation.
    // It is the operation's example, with the record's fields it declares where they fit.
    const describesRecord =
      envelope?.kind === 'plain' && !holdsOnly(envelope.record, this.resource.schema);
    const answerForRecord = (record: StoredRecord, about = envelope?.record): unknown => {
      const base = example();
      if (!about || typeof base !== 'object' || base === null || Array.isArray(base)) return base;
      const { compiler } = this.options;
      const declared = propertiesOf(about);
      // A number the answer declares as text is told as text (an integer id as
      // `{"id": "10000"}`): made up instead, it would name no record.
      const shown = Object.entries(this.#withKeyAsParameter(record, declared))
        .filter(([name]) => name in declared)
        .map(([name, value]): [string, unknown] =>
          typeof value === 'number' &&
          compiler.response(declared[name] ?? {})(value).length > 0 &&
          compiler.response(declared[name] ?? {})(String(value)).length === 0
            ? [name, String(value)]
            : [name, value],
        );
      const merged = { ...base, ...Object.fromEntries(shown) };
      if (compiler.response(about)(merged).length === 0) return merged;
      // Each field that fits where the answer declares it: Resend's revoke answers a
      // `revoked_at` string where the grant keeps null until then.
      const fitting = shown.filter(
        ([name, value]) => compiler.response(declared[name] ?? {})(value).length === 0,
      );
      const kept = { ...base, ...Object.fromEntries(fitting) };
      return compiler.response(about)(kept).length === 0 ? kept : base;
    };
    // An answer in no shape of the record that names its key (a create answering
    // `{uuid}` alone) tells the record's key, not its example's: a client reads the record by it.
    const namesKey = envelope ? undefined : keyAnswerOf(operation, status, this.resource);
    // An answer of a schema other than the record's may refuse the record as it is (a create
    // answering a session, `anyOf` closed shapes; a field null in the record, a string there).
    const listed = this.#listedSchema();
    const ownShape = envelope?.kind !== 'plain' || envelope.record === listed;
    /** The record in its envelope; where the answer refuses it, the answer about it. */
    const recordBody = (record: StoredRecord): unknown => {
      if (!envelope) return namesKey ? answerForRecord(record, namesKey) : example();
      if (describesRecord) return answerForRecord(record);
      if (ownShape) return this.envelopes.record(envelope, record);
      try {
        return this.envelopes.record(envelope, record);
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'invalid_response') throw err;
        // A record its own list refuses too is broken, and says so; one that fits its list is
        // answered as this operation's shape allows.
        this.envelopes.record({ kind: 'plain', record: listed }, record);
        return answerForRecord(record);
      }
    };
    /** The answer for a record: in its envelope, else the operation's example. */
    const answer = (
      record: StoredRecord | undefined,
      headers?: Record<string, string>,
      as: number = status,
    ): Answer => ({
      status: as,
      ...(this.#tagged && record
        ? { headers: { ...headers, ETag: entityTagOf(record) } }
        : headers
          ? { headers }
          : {}),
      body: as === 204 ? undefined : record ? recordBody(record) : example(),
    });

    // Where clients have no create, a `put` is how a record comes to be at its key (HTTP's
    // PUT creates the target it names), as `PUT /me/likes/{video_id}` or
    // `PUT /groups/{group_id}/members/{user_id}`. Where a create
    // exists, the record must be made by it first.
    // A put that documents a 201 creates at the key its path names wherever it is (an upsert).
    const { created: putCreated, replaced } = upsertStatuses(operation);
    const putCreates = !isCreatable(this.resource) || putCreated !== undefined;
    switch (action) {
      case 'list': {
        const linked = declaresHeader(operation, status, 'link');
        /** The page the request asks for, answered. */
        const listed = (texts: Texts, request: HandlerRequest): Answer => {
          const listing = this.resource.listing.get(operation);
          if (!envelope)
            return { status, body: this.options.examples.body(operation, String(status))?.body };
          const page = selectPage<string, Texts>(texts, request.query, listing, this.#texts);
          const link =
            linked && listing && request.pathname !== undefined
              ? pageLinks(request.pathname, request.query, listing.paging, page)
              : undefined;
          return {
            status,
            ...(link ? { headers: { Link: link } } : {}),
            body:
              envelope.kind === 'plain'
                ? this.envelopes.texts(envelope, textsFrom(page.records))
                : this.envelopes.list(envelope, this.#pageWithLinks(page, request, listing)),
          };
        };
        // The store's texts (or its records' JSON, for a store that keeps none), parsed only
        // where a filter or a cursor reads a field: a plain list is sent from the texts of
        // its page, a wrapped one reads those records only.
        const textsOf = async (collection: Collection): Promise<Texts> =>
          collection.storedTexts
            ? collection.storedTexts()
            : textsFrom(
                collection.texts ? await collection.texts() : (await collection.list()).map(jsonOf),
              );
        // Not an async function: a store of this process lists at once, with no await.
        return (request, context) => {
          const found = this.collection(scopeOf(request), context);
          const stored = !(found instanceof Promise) && found.storedTexts?.();
          if (stored && !(stored instanceof Promise)) return listed(stored, request);
          return (async () => {
            const collection = found instanceof Promise ? await found : found;
            return listed(await (stored || textsOf(collection)), request);
          })();
        };
      }
      case 'create': {
        // A create documented to answer a bare text or number (Dialogporten's "the UUID of
        // the created dialog") answers the new record's key, not the same example each time.
        const answersKey = !envelope && documentsKeyAlone(operation, status, this.resource);
        return async (request, context) => {
          const scope = scopeOf(request);
          // Each step waited for only when it has to (a nested collection, a key to look up):
          // an await per request is worth saving.
          const found = this.collection(scope, context);
          const collection = found instanceof Promise ? await found : found;
          const made = this.#maker.create(
            request.body,
            scope,
            collection,
            operation,
            request.query,
          );
          const { fields, id } = made instanceof Promise ? await made : made;
          const record = await collection.create(fields, id);
          try {
            // Checked now: never keep a record its answers would refuse, every later list would fail.
            // Against the schema the lists show it in, where the answer is another's.
            if (envelope)
              this.envelopes.record(
                ownShape ? envelope : { kind: 'plain', record: listed },
                record,
              );
          } catch (err) {
            await collection.remove(this.#keyOf(record));
            throw err;
          }
          const location = this.#location(scope, record);
          if (answersKey)
            return {
              status,
              body: this.#keyOf(record),
              ...(location ? { headers: location } : {}),
            };
          return answer(record, location);
        };
      }
      case 'read':
        return async (request, context) => {
          const collection = await this.collection(scopeOf(request), context);
          const id = await this.#keyFor(collection, keyOf(request));
          const record = await collection.get(id);
          if (!record) throw this.#notFound(id);
          if (this.#tagged && conditionOn(request.conditions, record, 'read') === 'not-modified')
            return { status: 304, headers: { ETag: entityTagOf(record) } };
          return answer(record);
        };
      case 'replace':
      case 'update':
        return async (request, context) => {
          const scope = scopeOf(request);
          const collection = await this.collection(scope, context);
          const id = await this.#keyFor(collection, keyOf(request));
          const renamed = this.#maker.renamedTo(request.body, operation, id);
          if (renamed !== undefined)
            return answer(await this.#move(collection, id, renamed, request, action, scope));
          // Checked inside the update, which no other write to the record comes between.
          const record = await collection.update(id, (current) => {
            if (this.#tagged) this.#meetConditions(request, current);
            return this.#maker.change(current, request.body, action, operation, scope);
          });
          if (record) return answer(record, undefined, action === 'replace' ? replaced : status);
          if (action === 'replace' && putCreates) {
            // `If-Match` names a version; there is none of a record yet to be made.
            if (request.conditions?.ifMatch !== undefined) throw this.#stale('If-Match');
            const made = this.#maker.create(request.body, scope, collection, operation);
            const { fields } = made instanceof Promise ? await made : made;
            const created = await collection.create(fields, id);
            const as = putCreated ?? status;
            const location = as === 201 ? this.#location(scope, created) : undefined;
            // A put's answer may be about the record, not the record (an invitation to it):
            // shown as such where the record does not fit it.
            if (
              envelope?.kind === 'plain' &&
              this.options.compiler.response(envelope.record)(created).length > 0
            )
              return {
                status: as,
                body: answerForRecord(created),
                ...(location ? { headers: location } : {}),
              };
            return answer(created, location, as);
          }
          throw this.#notFound(id);
        };
      case 'delete':
        return async (request, context) => {
          const collection = await this.collection(scopeOf(request), context);
          const id = await this.#keyFor(collection, keyOf(request));
          const record = await collection.get(id);
          if (record && this.#tagged) this.#meetConditions(request, record);
          if (!record || !(await collection.remove(id))) throw this.#notFound(id);
          await this.#removeChildren(
            [...scopeOf(request), keyLink ? String(request.params[keyName]) : String(id)],
            context,
          );
          return answer(record);
        };
    }
  }

  /** The schema a record is shown in by the collection's list, else the resource's own. */
  #listedSchema(): SchemaObject {
    for (const [operation, action] of this.resource.actions) {
      const envelope = action === 'list' ? this.resource.envelopes.get(operation) : undefined;
      if (envelope) return envelope.record;
    }
    return this.resource.schema;
  }

  /**
   * The collection of a scope (the values of the collection path's parameters), once the
   * parent record it belongs to is known to exist. A parent no client can create (the account's
   * own companies or users: listed, never made) is taken to exist: the mock cannot tell which of
   * them the service holds, and the documented request names the documentation's own.
   * @throws {ApiError} 404 when the parent record, of a collection clients add to, does not exist.
   */
  collection(scope: readonly string[], context: HandlerContext): Collection | Promise<Collection> {
    // A top-level collection is the store's at once: no await on the path of every request.
    if (!this.resource.parent && scope.length === 0)
      return context.store.collection(descriptorOf(this.resource, scope));
    return this.#nestedCollection(scope, context);
  }

  async #nestedCollection(given: readonly string[], context: HandlerContext): Promise<Collection> {
    let scope = given;
    const parent = this.resource.parent && this.all.get(this.resource.parent);
    if (parent && clientsMake(parent.resource)) {
      const depth = parent.resource.scope.length;
      const value = scope[depth] ?? '';
      const link = parent.resource.keyLink;
      const parents = await parent.collection(scope.slice(0, depth), context);
      const key = link
        ? linkOf(link.template, scope.slice(0, depth + 1))
        : await parent.#keyFor(parents, value);
      const found = await parents.get(key);
      if (!found) throw errors.noRecord(parent.resource.name, parent.resource.idProperty, key);
      // A parent named by its other key (an issue by its `id`) holds the same children.
      if (!link && String(key) !== value)
        scope = [...scope.slice(0, depth), String(key), ...scope.slice(depth + 1)];
    }
    const collection = context.store.collection(descriptorOf(this.resource, scope));
    if (scope.length > 0) await this.#seedOnce(collection, scope, context);
    return collection;
  }

  /** Seeds the collection of one parent the first time it is asked for (never after a write to it is possible). */
  async #seedOnce(
    collection: Collection,
    scope: readonly string[],
    context: HandlerContext,
  ): Promise<void> {
    const seeding = this.options.seeding?.();
    if (!seeding || seeding.count === 0) return;
    const { name } = collection.descriptor;
    const marks = context.store.collection(SEEDED);
    if (await marks.get(name)) return;
    await this.options.seedOnce(context.store, name, async () => {
      try {
        await seedCollection(this.#scoped(scope), collection, {
          ...seeding,
          generator: this.options.generator,
          fixed: this.#maker.references(scope),
          fields: this.options.seedPool.fieldsOf(this.resource, seeding),
        });
      } catch (err) {
        // A schema no record can be made for leaves the collection empty, as at start-up.
        if (!(err instanceof SpecError)) throw err;
      }
      if (!(await marks.get(name))) await marks.create({}, name);
    });
  }

  /**
   * A write that gives the record another id (a user renamed): the record is stored under the
   * new one, then removed from the old one.
   * @throws {ApiError} 404 when there is no record at `id`, 409 when `to` is taken.
   */
  async #move(
    collection: Collection,
    id: RecordId,
    to: RecordId,
    request: HandlerRequest,
    action: 'replace' | 'update',
    scope: readonly string[],
  ): Promise<StoredRecord> {
    const current = await collection.get(id);
    if (!current) throw this.#notFound(id);
    if (await collection.get(to))
      throw errors.recordExists(this.resource.name, this.resource.idProperty, to);
    const fields = this.#maker.change(current, request.body, action, request.operation, scope);
    const record = await collection.create(fields, to);
    await collection.remove(id);
    return record;
  }

  /** How a page reads records given as their stored JSON. */
  readonly #texts: PageItems<string> = {
    fieldsOf: (json) => JSON.parse(json) as StoredRecord,
    keyOf: (fields) => this.#keyOf(fields),
  };

  /**
   * A page as a wrapper tells it: its records as objects, and the link to the next page. A list
   * that takes no cursor gets that link where it says `next`: a cursor no parameter accepts
   * would lead its client nowhere (Scalar's Galaxy: `meta.next`, paged by offset).
   */
  #pageWithLinks(
    page: PageOf<string, Texts>,
    request: HandlerRequest,
    listing: ListParameters | undefined,
  ): PageWithLinks {
    const texts = textsFrom(page.records);
    const records = Array.from({ length: texts.length }, (_, i) => recordOf(texts.at(i)));
    const shown: PageWithLinks = {
      ...page,
      records,
      ...(records.length > 0
        ? {
            firstKey: this.#keyOf(records[0] as StoredRecord),
            lastKey: this.#keyOf(records[records.length - 1] as StoredRecord),
          }
        : {}),
    };
    const link =
      listing && request.pathname !== undefined
        ? nextPageLink(request.pathname, request.query, listing.paging, shown)
        : undefined;
    if (link === undefined) return shown;
    return {
      ...shown,
      nextLink: link,
      next: listing?.paging.cursor === undefined ? link : page.next,
    };
  }

  /**
   * Removes the records every collection nested under a removed record holds there, at every
   * depth, so that their reads are 404s and a record made again at its key has no old children.
   */
  async #removeChildren(scope: readonly string[], context: HandlerContext): Promise<void> {
    this.#children ??= [...this.all.values()].filter(
      (one) => one.resource.parent === this.resource.name && one !== this,
    );
    for (const child of this.#children) {
      const collection = context.store.collection(descriptorOf(child.resource, scope));
      for (const record of await collection.list()) {
        const key = child.#keyOf(record);
        const { keyLink } = child.resource;
        const value = (keyLink && lastValueOf(keyLink.template, String(key))) ?? String(key);
        await collection.remove(key);
        await child.#removeChildren([...scope, value], context);
      }
    }
  }

  /** The resources nested right under this one, found on the first delete. */
  #children: CollectionHandlers[] | undefined;

  /**
   * Throws unless a write's conditions hold for the record's current version: a 412 when they
   * do not, a 428 when the operation documents 428 and the request names no version.
   */
  #meetConditions(request: HandlerRequest, current: StoredRecord): void {
    const { conditions } = request;
    if (conditions === undefined && request.operation.responses['428'] !== undefined)
      throw errors.preconditionRequired('If-Match');
    if (conditionOn(conditions, current, 'write') !== 'proceed')
      throw this.#stale(conditions?.ifMatch !== undefined ? 'If-Match' : 'If-None-Match');
  }

  #stale(field: string): ApiError {
    return errors.preconditionFailed(this.resource.name, field);
  }

  /**
   * The key of the record an item path names: the value itself, or, where the parameter names
   * two keys (`issueIdOrKey`), the key of the record whose other key the value is.
   */
  #keyFor(collection: Collection, value: RecordId): RecordId | Promise<RecordId> {
    const { otherKeys } = this.resource;
    return otherKeys ? this.#keyAmong(collection, value, otherKeys) : value;
  }

  async #keyAmong(
    collection: Collection,
    value: RecordId,
    otherKeys: readonly string[],
  ): Promise<RecordId> {
    if (await collection.get(value)) return value;
    const text = String(value);
    const found = (await collection.list()).find((record) =>
      otherKeys.some((name) => record[name] !== undefined && String(record[name]) === text),
    );
    return found ? this.#keyOf(found) : value;
  }

  #keyOf(record: Readonly<Record<string, unknown>>): RecordId {
    return keyIn(record, this.resource) as RecordId;
  }

  #notFound(id: RecordId): ApiError {
    return errors.noRecord(this.resource.name, this.resource.idProperty, id);
  }

  /**
   * The resource as one parent's collection of it sees it: a link key's template with the
   * scope's values in it, so that a record seeded there links to where it is read.
   */
  #scoped(scope: readonly string[]): Resource {
    const { keyLink } = this.resource;
    if (!keyLink || scope.length === 0) return this.resource;
    return {
      ...this.resource,
      keyLink: { ...keyLink, template: linkOf(keyLink.template, scope) },
      // Made from the template, never taken from the generated record: its link (an example
      // of another parent's) would fit the item path and be read nowhere.
      keySchema: NO_TAKEN_KEY,
    };
  }

  #location(scope: readonly string[], record: StoredRecord): Record<string, string> | undefined {
    const between = this.#itemPathParts;
    if (!between) return undefined;
    // The item path with the scope's values, then the record's key, in its parameters.
    const key = String(this.#keyOf(record));
    const { keyLink } = this.resource;
    const values = [...scope, (keyLink && lastValueOf(keyLink.template, key)) ?? key];
    let path = `${this.options.basePath}${between[0] ?? ''}`;
    for (let index = 1; index < between.length; index++)
      path += `${encodeURIComponent(values[index - 1] ?? '')}${between[index] ?? ''}`;
    return { Location: path };
  }
}

/** Whether every property an answer requires is one the record has, of a type it has: then it can show the record. */
function holdsOnly(answer: SchemaObject, record: SchemaObject): boolean {
  const fields = propertiesOf(record);
  const answered = propertiesOf(answer);
  for (const name of requiredOf(answer)) {
    if (!(name in fields)) return false;
    // The same name in another shape is another field: Rubrik's delete answers a task,
    // `{id, status, links: [...]}`, where the record's `links` is an object; the record was
    // answered as the task, a 500 for breaking its schema.
    if (!admitTypeInCommon(answered[name] ?? {}, fields[name] ?? {})) return false;
  }
  return true;
}

/** Whether two schemas admit a JSON type in common, null aside (either admitting any: yes). */
function admitTypeInCommon(one: SchemaObject, other: SchemaObject): boolean {
  const [a, b] = [admittedTypes(one), admittedTypes(other)];
  if (!a || !b) return true;
  const these = [...a].filter((type) => type !== 'null');
  const those = new Set([...b].filter((type) => type !== 'null'));
  return these.length === 0 || those.size === 0 || these.some((type) => those.has(type));
}

/**
 * The statuses a put documents for a record it creates (201, when documented) and for one it
 * replaces (200, else 204, else its lowest success status).
 */
function upsertStatuses(operation: Operation): { created?: number; replaced: number } {
  const { responses, successStatus, method } = operation;
  if (method !== 'put') return { replaced: successStatus };
  const replaced =
    responses['200'] !== undefined ? 200 : responses['204'] !== undefined ? 204 : successStatus;
  return responses['201'] !== undefined ? { created: 201, replaced } : { replaced };
}

/** Whether an operation's records carry entity tags: it declares an `ETag`, or documents 304, 412 or 428. */
function documentsEntityTags(operation: Operation): boolean {
  const { responses } = operation;
  if (responses['304'] || responses['412'] || responses['428']) return true;
  return Object.keys(responses).some((status) => declaresHeader(operation, Number(status), 'etag'));
}

/** Whether the response of a status declares a header (its lower-case name). */
function declaresHeader(operation: Operation, status: number, lower: string): boolean {
  const headers = responseFor(operation, status)?.response.headers ?? {};
  return Object.keys(headers).some((name) => name.toLowerCase() === lower);
}

/** Whether clients make a collection's records: by a create, or by a put that documents creating (201). */
function clientsMake(resource: Resource): boolean {
  if (isCreatable(resource)) return true;
  for (const [operation, action] of resource.actions)
    if (action === 'replace' && operation.responses['201'] !== undefined) return true;
  return false;
}

/** Whether clients can add records to a collection: only then must a parent be made before its children. */
function isCreatable(resource: Resource): boolean {
  for (const action of resource.actions.values()) if (action === 'create') return true;
  return false;
}

/** The operation's answer of that status is a bare key: a JSON string, or an integer for integer keys. */
/**
 * The object schema an operation answers with that declares the record's key at its top
 * level, for an answer in no shape of the record (see CollectionHandlers' `namesKey`).
 */
function keyAnswerOf(
  operation: Operation,
  status: number,
  resource: Resource,
): SchemaObject | undefined {
  if (resource.idWithin) return undefined;
  const schema = jsonSchemaOf(responseFor(operation, status)?.response);
  return schema && resource.idProperty in propertiesOf(schema) ? schema : undefined;
}

function documentsKeyAlone(operation: Operation, status: number, resource: Resource): boolean {
  const type = jsonSchemaOf(responseFor(operation, status)?.response)?.type;
  return resource.idKind === 'integer' ? type === 'integer' : type === 'string';
}
