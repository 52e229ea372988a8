// The records of the interface as the rules use them: valid bodies, what an answer holds out
// of its envelope, records the suite creates or finds, shared by the rules of a run.
import type { Exchange } from './http.js';
import type { CollectionKit, Kit, KitBase, Roles } from './kit.js';
import { fieldProducers, idFits, type FieldProducer } from './producers.js';
import { answersBody, jsonRequestOf, type PlanOperation, type Schema } from './plan.js';
import type { RuleContext } from './rule.js';
import { sampleBody } from './samples.js';
import { propertiesOf, requiredOf } from './schema-parts.js';
import { RuleSkipped, valueNotMade } from './verdicts.js';

/** The kit's records: `kit` is the whole kit, for what they ask of its other parts. */
export function kitRecords(
  { label, roles, produced, unproduced }: KitBase,
  kit: Kit,
): Pick<
  Kit,
  | 'requestSchema'
  | 'produceIds'
  | 'notMade'
  | 'noRecordWhy'
  | 'validBody'
  | 'itemsOf'
  | 'recordOf'
  | 'createdId'
  | 'create'
  | 'itemParams'
  | 'someRecordId'
  | 'parentId'
  | 'ownRecord'
> {
  const requestSchema = (operation: PlanOperation): Schema =>
    jsonRequestOf(operation)?.schema ?? {};
  /** Every write's body fields named after a collection (read once the kit is whole). */
  let consumers: FieldProducer[] | undefined;
  const consumersOf = () =>
    (consumers ??= kit.plan.operations.flatMap((operation) =>
      fieldProducers(
        kit.collections,
        requestSchema(operation),
        roles.get(operation.operationId)?.collection,
      ),
    ));

  return {
    requestSchema,

    produceIds(ctx) {
      if (consumersOf().length === 0) return Promise.resolve();
      return shared(ctx, 'produced ids', async () => {
        // A producer's own creates may need ids of another: those come first.
        const visiting = new Set<CollectionKit>();
        const produce = async (collection: CollectionKit): Promise<void> => {
          if (produced.has(collection.plan.name) || visiting.has(collection)) return;
          visiting.add(collection);
          if (collection.create)
            for (const { collection: above } of fieldProducers(
              kit.collections,
              requestSchema(collection.create),
              collection,
            ))
              await produce(above);
          try {
            const id = await kit.someRecordId(ctx, collection);
            if (id !== undefined) produced.set(collection.plan.name, id);
            else unproduced.set(collection.plan.name, kit.noRecordWhy(ctx, collection));
          } catch (err) {
            // Its own rules report what is wrong with it; the calls that need one say so.
            if (err instanceof Error && err.name === 'TargetUnavailable') throw err;
            const what = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
            unproduced.set(collection.plan.name, `getting one failed (${what})`);
          }
        };
        for (const { collection } of consumersOf()) await produce(collection);
      });
    },

    notMade(operation, body) {
      if (typeof body !== 'object' || body === null) return undefined;
      const schema = requestSchema(operation);
      const required = new Set(requiredOf(schema));
      const own = roles.get(operation.operationId)?.collection;
      for (const { field, collection } of fieldProducers(kit.collections, schema, own)) {
        const why = unproduced.get(collection.plan.name);
        if (why !== undefined && required.has(field) && field in body)
          return `\`${field}\` names a record of ${collection.plan.name}, and there is none: ${why}`;
      }
      return undefined;
    },

    noRecordWhy(ctx, collection) {
      const list = collection.list && !kit.cannotCall(ctx.target, collection.list);
      const none = list ? 'its list is empty' : 'the suite cannot list them';
      const made = ctx.target.readOnly
        ? 'read-only runs create none'
        : collection.create
          ? 'the suite could not create one'
          : 'the spec has no create for it';
      return `${none}, and ${made}`;
    },

    validBody(operation, what, which = 'all', variant = 0) {
      const role = roles.get(operation.operationId);
      let schema = requestSchema(operation);
      // A patch schema that names no property (`type: object`) patches the record's.
      if (Object.keys(propertiesOf(schema)).length === 0 && role && operation.method === 'patch')
        schema = role.collection.plan.schema;
      const sampled = sampleBody(schema, `${label} ${what}`, which, variant);
      const body = (
        typeof sampled === 'object' && sampled !== null && !Array.isArray(sampled) ? sampled : {}
      ) as Record<string, unknown>;
      const left = new Set<string>();
      for (const { field, collection } of fieldProducers(
        kit.collections,
        schema,
        role?.collection,
      )) {
        const id = produced.get(collection.plan.name);
        if (field in body && id !== undefined && idFits(id, propertiesOf(schema)[field]!))
          body[field] = id;
        // A made-up id in an optional field would be refused: a valid body leaves it out.
        else if (unproduced.has(collection.plan.name) && !requiredOf(schema).includes(field))
          left.add(field);
      }
      return left.size === 0
        ? body
        : Object.fromEntries(Object.entries(body).filter(([field]) => !left.has(field)));
    },

    itemsOf(list, exchange) {
      const items = unwrap(roles, list, exchange.json);
      return Array.isArray(items) ? (items as Record<string, unknown>[]) : [];
    },

    recordOf(operation, exchange) {
      const record = unwrap(roles, operation, exchange.json);
      return (typeof record === 'object' && record !== null ? record : {}) as Record<
        string,
        unknown
      >;
    },

    createdId(collection, exchange) {
      const { plan } = collection;
      const inBody =
        collection.create && kit.recordOf(collection.create, exchange)[plan.idProperty];
      if (inBody !== undefined) return inBody;
      return idFromLocation(collection, exchange);
    },

    async create(ctx, collection, what, body) {
      const operation = collection.create;
      if (!operation) throw new RuleSkipped(`${collection.plan.name} has no create operation`);
      const sent = body ?? kit.validBody(operation, what);
      const missing = kit.notMade(operation, sent);
      if (missing !== undefined) throw valueNotMade(missing);
      const exchange = await kit.call(ctx, operation, { body: JSON.stringify(sent) });
      kit.echoed(ctx, exchange, operation, sent);
      const id = kit.createdId(collection, exchange);
      if (id === undefined)
        kit.fail(
          `created records without their ${collection.plan.idProperty}`,
          [
            exchange.headers.location === undefined
              ? `the answer to a create holds no \`${collection.plan.idProperty}\`, and no Location header`
              : `the answer to a create holds no \`${collection.plan.idProperty}\`, and its Location (${exchange.headers.location}) names no record of ${collection.plan.itemPath ?? collection.plan.collectionPath}`,
          ],
          exchange,
        );
      const creation = { exchange, sent, id };
      // An answer without a body echoes nothing: the record it made is read back instead.
      if (!answersBody(operation, exchange.status) && collection.read)
        await kit.readAsSent(ctx, collection, [creation]);
      return creation;
    },

    itemParams(collection, id) {
      return collection.plan.itemParameter ? { [collection.plan.itemParameter]: id } : {};
    },

    someRecordId(ctx, collection) {
      return shared(ctx, `some ${collection.plan.name}`, async () => {
        if (collection.list && !kit.cannotCall(ctx.target, collection.list)) {
          const listed = await kit.call(ctx, collection.list);
          kit.conforms(ctx, listed, collection.list, kit.success(collection.list));
          const first = kit.itemsOf(collection.list, listed)[0];
          if (first && first[collection.plan.idProperty] !== undefined)
            return first[collection.plan.idProperty];
        }
        if (ctx.target.readOnly || !collection.create) return undefined;
        return (await kit.ownRecord(ctx, collection)).id;
      });
    },

    async parentId(ctx, parent) {
      const id = await kit.someRecordId(ctx, parent);
      if (id === undefined)
        throw valueNotMade(
          `no ${parent.plan.name} record to go under: ${kit.noRecordWhy(ctx, parent)}`,
        );
      return id;
    },

    ownRecord(ctx, collection) {
      return shared(ctx, `own ${collection.plan.name}`, () =>
        kit.create(ctx, collection, 'record'),
      );
    },
  };
}

/**
 * The id a create's `Location` header gives, read against the collection's item path: the
 * header resolved against the request, its path under the base URL matched segment by
 * segment (`/projects/7/tickets/12` for `/projects/{projectId}/tickets/{ticketId}` gives 12).
 * An integer id is read as a number, as the answers would hold it.
 * @example idFromLocation(tickets, exchange) // 12
 */
export function idFromLocation(collection: CollectionKit, exchange: Exchange): unknown {
  const { itemPath, itemParameter, idKind } = collection.plan;
  const location = exchange.headers.location;
  if (location === undefined || !itemPath || !itemParameter) return undefined;
  let path: string;
  try {
    const request = new URL(exchange.request.url);
    const resolved = new URL(location, request);
    if (resolved.origin !== request.origin) return undefined;
    path = resolved.pathname;
  } catch {
    return undefined;
  }
  const template = itemPath.split('/').filter(Boolean);
  const segments = path.split('/').filter(Boolean);
  // The base URL's own path (`/api`) comes before the item path.
  const mine = segments.slice(segments.length - template.length);
  if (mine.length !== template.length) return undefined;
  let id: string | undefined;
  for (const [i, part] of template.entries()) {
    const segment = decodeURIComponent(mine[i]!);
    if (part === `{${itemParameter}}`) id = segment;
    else if (!part.startsWith('{') && part !== segment) return undefined;
  }
  if (id === undefined || id === '') return undefined;
  return idKind === 'integer' && /^-?\d+$/.test(id) ? Number(id) : id;
}

/** What an answer holds, out of the envelope of its collection's action. */
export function unwrap(roles: Roles, operation: PlanOperation, json: unknown): unknown {
  const role = roles.get(operation.operationId);
  const property = role && role.collection.plan.envelopes[role.action];
  if (property === undefined) return json;
  return typeof json === 'object' && json !== null
    ? (json as Record<string, unknown>)[property]
    : undefined;
}

/** The schema a write's answer echoes: its request schema, else the record's. */
export function echoSchema(roles: Roles, operation: PlanOperation): Schema {
  const role = roles.get(operation.operationId);
  const request = jsonRequestOf(operation)?.schema;
  if (request && Object.keys(propertiesOf(request)).length > 0) return request;
  return role?.collection.plan.schema ?? request ?? {};
}

/** A value memoised for the run: rules share it instead of asking again. */
function shared<T>(ctx: RuleContext, what: string, make: () => Promise<T>): Promise<T> {
  let found = ctx.memo.get(what) as Promise<T> | undefined;
  if (!found) {
    found = make();
    ctx.memo.set(what, found);
    // A failure is the first asker's to report; the next asker tries again.
    found.catch(() => ctx.memo.delete(what));
  }
  return found;
}

/** Ids as map keys: `7` and `"7"` are different ids; `{}`-shaped ones compare by JSON. */
export function key(id: unknown): string {
  return `${typeof id}:${JSON.stringify(id)}`;
}
