// The records of the interface as the rules use them: valid bodies, what an answer holds out
// of its envelope, records the suite creates or finds, shared by the rules of a run.
import { createHash, randomBytes } from 'node:crypto';
import { answersRecord } from './answer-shapes.js';
import { conflictOf, withinLimit } from './conflicts.js';
import type { Exchange } from './http.js';
import type { CollectionKit, Kit, KitBase, Roles } from './kit.js';
import { fieldProducers, idFits, type FieldProducer } from './producers.js';
import {
  answersBody,
  jsonRequestOf,
  jsonResponseOf,
  responseFor,
  type PlanOperation,
  type Schema,
} from './plan.js';
import type { RuleContext } from './rule.js';
import { fit, sampleBody, sampleValue } from './samples.js';
import {
  allowedTypes,
  keyword,
  propertiesOf,
  requiredOf,
  textKeyword,
  writableProperties,
} from './schema-parts.js';
import { betterBodies, collectValues, isDocumentedRefusal, type ListedValues } from './refusals.js';
import { asSetup, NotJudged, RuleSkipped, valueNotMade } from './verdicts.js';

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
  | 'freshKey'
  | 'someRecordId'
  | 'parentId'
  | 'ownRecord'
> {
  /** Client-chosen keys made so far by this kit: each create's is new. */
  let keysMade = 0;
  const keysGiven = new Set<string>();
  /** A key this kit gave none before: a pattern's short matches may repeat. */
  const newKey = (schema: Schema): unknown => {
    for (let tries = 0; ; tries++) {
      const made = uniqueKey(schema, keyLabel, ++keysMade);
      if (!keysGiven.has(key(made)) || tries >= FRESH_KEY_TRIES) {
        keysGiven.add(key(made));
        return made;
      }
    }
  };
  // The rules of a run are spread over workers, each with a kit of its own and the same label.
  const keyLabel = `${label} ${randomBytes(3).toString('hex')}`;
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

  /** Values the server lists, by field name: its answers to the reads that take no value. */
  const listedValues = (ctx: RuleContext) =>
    shared(ctx, 'listed values', async () => {
      const listed: ListedValues = new Map();
      for (const read of kit.plan.operations) {
        const takesValues =
          read.path.includes('{') || read.parameters.some((parameter) => parameter.required);
        if (read.method !== 'get' || takesValues || kit.cannotCall(ctx.target, read)) continue;
        const answer = await kit.call(ctx, read);
        if (answer.status >= 200 && answer.status < 300) collectValues(answer.json, listed);
      }
      return listed;
    });

  /**
   * A create refused as its operation documents: tried again with better values (see
   * refusals.ts); the first answer that is no documented refusal is the create's.
   * @throws {NotJudged} when the server refuses every body the suite can compose
   */
  async function betterTry(
    ctx: RuleContext,
    collection: CollectionKit,
    sent: Record<string, unknown>,
    refused: Exchange,
    mayDrop: boolean,
  ): Promise<{ sent: Record<string, unknown>; exchange: Exchange }> {
    const operation = collection.create!;
    const tries = betterBodies(sent, {
      schema: requestSchema(operation),
      label,
      listed: await listedValues(ctx),
      fits: (schema, value) => kit.spec.validate(schema, value, 'request').length === 0,
      kept: new Set([collection.plan.idProperty]),
      mayDrop,
    });
    for (const { body: better } of tries) {
      const exchange = await kit.call(ctx, operation, { body: JSON.stringify(better) });
      if (!isDocumentedRefusal(operation, exchange.status)) return { sent: better, exchange };
    }
    const said = (refused.text ?? '').replace(/\s+/g, ' ').trim().slice(0, 160);
    throw new NotJudged(
      `${operation.operationId} refused each valid body the suite composed (${[`${tries.length + 1}: its own`, ...tries.map(({ what }) => what)].join(', ')}) with the ${refused.status} it documents${said === '' ? '' : ` (${said})`}: no record of ${collection.plan.name} to check this rule on`,
    );
  }

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
      // A key the client chooses (an order's `id`, a user's `username`) names one record: a
      // create that repeats one an earlier request of the run, or a seeded record, used is
      // refused as a conflict by a correct server.
      const idProperty = role?.collection.plan.idProperty;
      if (role?.action === 'create' && idProperty !== undefined && idProperty in body)
        body[idProperty] = newKey(
          keySchema(propertiesOf(schema)[idProperty] ?? {}, role.collection),
        );
      // Clear of the conflicts the operation documents: a unique field new, a bounded number
      // a small step the safe way. The conflict rules provoke them on purpose.
      const conflict = conflictOf(operation, schema);
      for (const field of conflict?.unique ?? [])
        if (field in body) body[field] = newKey(propertiesOf(schema)[field] ?? {});
      const bounded = conflict?.limit?.property;
      if (bounded !== undefined && bounded in body)
        body[bounded] = withinLimit(propertiesOf(schema)[bounded] ?? {});
      // `stream: true` asks for the documented stream instead of the JSON answer (OpenAI's
      // way); the stream rules ask for it, every other rule for the JSON one.
      if (propertiesOf(schema).stream?.type === 'boolean' && streamsAnswer(operation))
        body.stream = false;
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
      const answered = collection.create && kit.recordOf(collection.create, exchange);
      const inBody = answered?.[plan.idProperty];
      if (inBody !== undefined) return inBody;
      // The id under another name: the item path's (`/silence/{silenceID}`), or the one field
      // of an answer that holds nothing else (Alertmanager answers `{"silenceID": ...}`).
      const fields = Object.keys(answered ?? {});
      const named =
        plan.itemParameter !== undefined && answered?.[plan.itemParameter] !== undefined
          ? plan.itemParameter
          : fields.length === 1 && /id$/i.test(fields[0]!)
            ? fields[0]
            : undefined;
      if (named !== undefined) return answered![named];
      // Neither in the answer nor in a Location: the id the answer is (Dialogporten answers
      // the new id alone), else the key the client chose.
      return (
        idFromLocation(collection, exchange) ??
        bareId(collection, exchange) ??
        sentKey(collection, exchange) ??
        (collection.upsert ? idFromPath(collection, exchange.request.url) : undefined)
      );
    },

    async create(ctx, collection, what, body) {
      const operation = collection.create;
      if (!operation) throw new RuleSkipped(`${collection.plan.name} has no create operation`);
      const first = body ?? kit.validBody(operation, what);
      const missing = kit.notMade(operation, first);
      if (missing !== undefined) throw valueNotMade(missing);
      const firstAnswer = await kit.call(ctx, operation, { body: JSON.stringify(first) });
      const { sent, exchange } = isDocumentedRefusal(operation, firstAnswer.status)
        ? await betterTry(ctx, collection, first, firstAnswer, body === undefined)
        : { sent: first, exchange: firstAnswer };
      kit.echoed(ctx, exchange, operation, sent, kit.created(operation));
      const id = kit.createdId(collection, exchange);
      if (id === undefined && !promisesId(operation, exchange.status))
        throw new RuleSkipped(unnamed(collection, operation, exchange.status));
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
      // An answer without a record (none, or the id alone) echoes nothing: the record it
      // made is read back instead.
      if (!answersRecord(operation, exchange.status) && collection.read)
        await kit.readAsSent(ctx, collection, [creation]);
      return creation;
    },

    itemParams(collection, id) {
      const { itemParameter } = collection.plan;
      if (!itemParameter) return {};
      if (id === undefined && collection.create)
        throw new RuleSkipped(unnamed(collection, collection.create));
      const breaks = (schema: Schema) =>
        kit.spec.validate(schema, id, 'request').map((reason) => reason.replace(/^body /, ''));
      const item = [collection.read, collection.replace, collection.update, collection.delete]
        .flatMap((operation) => (operation ? [operation] : []))
        .flatMap((operation) =>
          operation.parameters
            .filter((parameter) => parameter.in === 'path' && parameter.name === itemParameter)
            .map((parameter) => ({ operation, parameter })),
        )
        .find(({ parameter }) => breaks(parameter.schema).length > 0);
      // The Petstore's creates take any order id, its reads only 1 to 10: a record the
      // service made and cannot name is the description's gap, not the deployment's.
      if (item)
        throw new RuleSkipped(
          `the record's ${itemParameter} ${JSON.stringify(id)} breaks the schema ${item.operation.operationId} gives \`${itemParameter}\` (it ${breaks(item.parameter.schema)[0] ?? 'does not fit'}), though a create took it: the description's gap, so that record cannot be named (give both the same bounds)`,
        );
      return { [itemParameter]: id };
    },

    async freshKey(ctx, collection) {
      const parameter = collection.create?.parameters.find(
        ({ name, in: where }) => where === 'path' && name === collection.plan.itemParameter,
      );
      const schema = parameter?.schema ?? {};
      const { read } = collection;
      // A pattern leaves few keys (`^[A-Z]{3}[0-9]{2}$`): one a record holds is read first.
      for (let tries = 0; ; tries++) {
        const made = newKey(schema);
        if (!read || tries >= FRESH_KEY_TRIES) return made;
        const answer = await kit.call(ctx, read, { params: kit.itemParams(collection, made) });
        if (answer.status === 404) return made;
      }
    },

    someRecordId(ctx, collection) {
      const step = [collection.list, collection.create]
        .flatMap((operation) => (operation ? [operation.operationId] : []))
        .join(' or ');
      return shared(ctx, `some ${collection.plan.name}`, () =>
        asSetup(step, async () => {
          if (collection.list && !kit.cannotCall(ctx.target, collection.list)) {
            const listed = await kit.call(ctx, collection.list);
            kit.conforms(ctx, listed, collection.list, kit.success(collection.list));
            const first = kit.itemsOf(collection.list, listed)[0];
            if (first && first[collection.plan.idProperty] !== undefined)
              return first[collection.plan.idProperty];
          }
          if (ctx.target.readOnly || !collection.create) return undefined;
          return (await kit.ownRecord(ctx, collection)).id;
        }),
      );
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
        asSetup(collection.create?.operationId ?? collection.plan.name, () =>
          kit.create(ctx, collection, 'record'),
        ),
      );
    },
  };
}

/** How many keys a create under a client's key tries before it takes one unread. */
const FRESH_KEY_TRIES = 8;

/**
 * The id a create's `Location` header gives, read against the collection's item path: the
 * header resolved against the request, its path under the base URL matched segment by
 * segment (`/projects/7/tickets/12` for `/projects/{projectId}/tickets/{ticketId}` gives 12).
 * An integer id is read as a number, as the answers would hold it.
 * @example idFromLocation(tickets, exchange) // 12
 * @internal for its tests: no part of the package's surface
 */
export function idFromLocation(collection: CollectionKit, exchange: Exchange): unknown {
  const location = exchange.headers.location;
  if (location === undefined) return undefined;
  try {
    const request = new URL(exchange.request.url);
    const resolved = new URL(location, request);
    if (resolved.origin !== request.origin) return undefined;
    return idFromPath(collection, resolved.href);
  } catch {
    return undefined;
  }
}

/**
 * The id a URL of the collection's item path names (`/warehouses/AAA01` gives `AAA01`): the
 * key a `PUT` under a client's key was sent to.
 */
function idFromPath(collection: CollectionKit, url: string): unknown {
  const { itemPath, itemParameter, idKind } = collection.plan;
  if (!itemPath || !itemParameter) return undefined;
  const path = new URL(url).pathname;
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

/** The id a create answered alone, as its spec documents it (a JSON string or number). */
function bareId(collection: CollectionKit, exchange: Exchange): unknown {
  const { create } = collection;
  if (!create || answersRecord(create, exchange.status) || !answersBody(create, exchange.status))
    return undefined;
  const { json } = exchange;
  return typeof json === 'string' || typeof json === 'number' ? json : undefined;
}

/** The key of a create's body, where the record's key is the client's to choose. */
function sentKey(collection: CollectionKit, exchange: Exchange): unknown {
  const { idProperty } = collection.plan;
  const create = collection.create && jsonRequestOf(collection.create)?.schema;
  if (!create || !(idProperty in writableProperties(create))) return undefined;
  try {
    const sent: unknown = JSON.parse(exchange.request.body ?? '');
    return typeof sent === 'object' && sent !== null && !Array.isArray(sent)
      ? (sent as Record<string, unknown>)[idProperty]
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the spec promises a way to learn a created record's key from the answer of that
 * status: a record, the id alone, or a Location header.
 */
function promisesId(create: PlanOperation, status: number): boolean {
  const response = responseFor(create, status)?.response;
  if (!response) return false;
  const bare = ['string', 'integer', 'number'].includes(String(jsonResponseOf(response)?.type));
  return 'location' in response.headers || bare || answersRecord(create, status);
}

/** Why the suite cannot name a record it created: the description's gap, told as a skip. */
function unnamed(collection: CollectionKit, create: PlanOperation, status?: number): string {
  const { idProperty } = collection.plan;
  return `the answer to ${create.operationId}${status === undefined ? '' : ` (${status})`} tells no \`${idProperty}\` of the record it made, and the spec promises none (no body holding it, no Location header), nor did the suite choose it: the description's gap, so that record cannot be named (document the created record in the answer, or a Location)`;
}

/** Fewer keys than this between the bounds, and most may be taken already. */
const ROOM_FOR_KEYS = 1000;

/**
 * The schema of a key a create sends, within the bounds the item path's parameter sets as
 * well where they leave room for many (else the body's alone: a read's 1 to 10 may all be
 * taken).
 */
function keySchema(property: Schema, collection: CollectionKit): Schema {
  const parameter = collection.read?.parameters.find(
    ({ name, in: where }) => where === 'path' && name === collection.plan.itemParameter,
  );
  if (!parameter) return property;
  const low = Math.max(
    keyword(property, 'minimum') ?? -Infinity,
    keyword(parameter.schema, 'minimum') ?? -Infinity,
  );
  const high = Math.min(
    keyword(property, 'maximum') ?? Infinity,
    keyword(parameter.schema, 'maximum') ?? Infinity,
  );
  if (high - low < ROOM_FOR_KEYS) return property;
  return {
    ...property,
    ...(Number.isFinite(low) ? { minimum: low } : {}),
    ...(Number.isFinite(high) ? { maximum: high } : {}),
  };
}

/** The largest key tried: many services keep ids in 32 bits whatever the schema says. */
const KEY_CEILING = 2 ** 31 - 1;

/**
 * A value for a key a client chooses, new for each `count` within a run: an integer from a
 * base the run's label gives, less the count, within the schema's bounds; a text ending
 * in the count (its start cut when the schema's length demands).
 * @example uniqueKey({ type: 'string' }, 'contract-abc', 3) // 'contract-abc key 3'
 */
function uniqueKey(schema: Schema, label: string, count: number): unknown {
  const types = allowedTypes(schema);
  if (types.includes('integer') || types.includes('number')) {
    const low = Math.ceil(keyword(schema, 'minimum') ?? 1);
    const high = Math.floor(Math.min(keyword(schema, 'maximum') ?? KEY_CEILING, KEY_CEILING));
    const span = high - low + 1;
    if (span <= 0) return sampleValue(schema, label);
    // A base anywhere in the bounds (past the few records a service starts with, mostly),
    // counting down: a service that numbers the records it makes counts up from the highest.
    const base = createHash('sha256').update(label).digest().readUInt32BE(0);
    return low + ((((base - count) % span) + span) % span);
  }
  if (textKeyword(schema, 'enum') !== undefined || !types.every((type) => type === 'string'))
    return sampleValue(schema, label, count);
  if (textKeyword(schema, 'format') !== undefined || textKeyword(schema, 'pattern') !== undefined)
    return sampleValue(schema, `${label} key ${count}`, count);
  const max = keyword(schema, 'maxLength') ?? Infinity;
  const text = [...`${label} key ${count}`];
  return fit(
    text.slice(Math.max(0, text.length - max)).join(''),
    keyword(schema, 'minLength') ?? 0,
    max,
  );
}

/** What an answer holds, out of the envelope of its collection's action. */
function unwrap(roles: Roles, operation: PlanOperation, json: unknown): unknown {
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

/** Whether a success answer of the operation is documented as a stream (SSE, JSON Lines, JSON text sequences). */
function streamsAnswer(operation: PlanOperation): boolean {
  return Object.entries(operation.responses).some(
    ([status, response]) => /^2/.test(status) && Object.keys(response.items ?? {}).length > 0,
  );
}
