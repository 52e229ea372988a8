import type { SchemaObject } from './load.js';
import { SpecError } from './load.js';
import { jsonSchemaOf, type Operation } from './operations.js';
import {
  isNumeric,
  isReadOnly,
  propertiesOf,
  requiredOf,
  typesOf,
  carries,
} from './schema-parts.js';
import {
  isObjectSchema,
  listEnvelopeOf,
  objectArmsOf,
  recordEnvelopeOf,
  type Envelope,
} from './envelopes.js';
import {
  ID_WORDS,
  endingPropertyFor,
  initialsPropertyFor,
  keyPropertyFor,
  conventionalKey,
  nestedKeysFor,
  otherKeysFor,
  propertyWithin,
  qualifiedPropertyFor,
  wordsOf,
} from './item-key.js';
import { listParametersOf, type ListParameters } from './list-parameters.js';
import { linkPropertyOf, linkSchemaOf, linkValueSchemaOf, type LinkKey } from './link-key.js';
import { fieldsInTwoShapes, mergeRecordSchemas } from './record-schema.js';
import type { IdKind } from '../vocabulary/record.js';

export type { Envelope } from './envelopes.js';
export type { ListParameters, Paging } from './list-parameters.js';
/** What an operation does to its resource. */
export type ResourceAction = 'list' | 'create' | 'read' | 'replace' | 'update' | 'delete';

/** A collection the spec describes, served from the store. */
export interface Resource {
  /** Its collection name in the store: `x-mock.resource`, else its path (`categories`, `users/{userId}/posts`). */
  readonly name: string;
  /** e.g. `/categories`, `/users/{userId}/posts`, `/Accounts/{AccountSid}/Calls.json`. */
  readonly collectionPath: string;
  /** e.g. `/categories/{categoryId}`, when the spec has operations there. */
  readonly itemPath: string | undefined;
  /**
   * The record schema S: everything the spec says of a record, the union of the list's items,
   * the create answer and the item answers (see mergeRecordSchemas).
   */
  readonly schema: SchemaObject;
  /**
   * The property the item path addresses a record by, which the store keys it by: the one
   * the item parameter names (`username` in `/users/{username}`), else the id.
   */
  readonly idProperty: string;
  /**
   * The objects, outermost first, that hold the id property, where the record holds it nested
   * (`['metadata']`: `/namespaces/{namespace}/pods/{name}` names the `metadata.name`).
   * Absent: the record holds it.
   */
  readonly idWithin?: readonly string[];
  readonly idKind: IdKind;
  /** Each operation it serves, with what it does. */
  readonly actions: ReadonlyMap<Operation, ResourceAction>;
  /** The item path's parameter that holds the id property's value (`username`). */
  readonly itemParameter: string | undefined;
  /**
   * What a new id must satisfy to address its record: the id property's schema and the item
   * parameter's (a slug's pattern; digits, where the path takes an integer and the record a string),
   * never null. One object for the resource's life: what compiles it once keeps it.
   */
  readonly keySchema: SchemaObject;
  /**
   * Set when the records are keyed by their own link (`uri: "/videos/258684937"`, read at
   * `/videos/{video_id}`): no property names the item parameter, and the record has no `id`.
   * The key is then the link, the item path filled with the scope and the parameter's value.
   */
  readonly keyLink?: LinkKey;
  /**
   * The other properties the item parameter may hold, where it names two keys
   * (`issueIdOrKey`: the record is keyed by `key`, and found by its `id` too). Undefined: one.
   */
  readonly otherKeys?: readonly string[];
  /**
   * The keys the documentation's requests read records by: the examples of the item path's
   * parameter (`channel_id: 927`), each once; of a record keyed by its link, the
   * link's last value. A service holds the records its
   * documentation names; a fresh mock seeds them (where the service, not the client, chooses
   * keys), so that the documented read works first time.
   */
  readonly documentedKeys: readonly unknown[];
  /**
   * Whether a create may choose the id: the create body lets the client write the id property
   * (a `username`, a `slug`, a writable `id`). One the client leaves out is made up.
   */
  readonly clientChosenId: boolean;
  /**
   * The create body's property that names the new record's key where the key property itself
   * is the service's: a body `{role_id}` adds the role at `/roles/{role_id}` (a record whose
   * `id` the client does not write). Undefined: none.
   */
  readonly keyInBody?: string;
  /** The properties a client writes (those the request bodies declare); undefined: any it sends. */
  readonly writable: ReadonlySet<string> | undefined;
  /** Where each operation's answer holds its record, or its records. */
  readonly envelopes: ReadonlyMap<Operation, Envelope>;
  /** Where each write's request body holds the client's fields (`{data: {...}}` in some APIs). */
  readonly bodies: ReadonlyMap<Operation, Envelope>;
  /** The paging and filters each list operation documents. */
  readonly listing: ReadonlyMap<Operation, ListParameters>;
  /**
   * The parameters of the collection path, in order (`['userId']` in `/users/{userId}/posts`):
   * the records of each value of them are a collection of their own.
   */
  readonly scope: readonly string[];
  /** The resource whose item path the collection path extends (`users`): a record must exist there. */
  readonly parent: string | undefined;
  /** Properties of S that repeat a scope parameter (`userId` of a post): position in `scope`. */
  readonly references: ReadonlyMap<string, number>;
  /**
   * The kinds of record a polymorphic collection holds, when its create answers one of
   * several record schemas (`oneOf` a keyword rule, a spam rule...: each with its own
   * `trigger_type`); S is then made of the first. A write makes its
   * record by the kind the client's fields fit. Undefined: one kind.
   */
  readonly variants?: readonly SchemaObject[];
  /**
   * The fields two of its answers describe in two shapes no value fits at once (an object in
   * the list, an array of them in the read: see fieldsInTwoShapes). A record holds one; an
   * answer whose shape it does not fit shows it in its own. Undefined: none.
   */
  readonly twoShapes?: ReadonlySet<string>;
}

/** The `x-mock` extension of an operation, which settles what inference cannot. */
interface MockExtension {
  /** The collection this operation belongs to, or `false` to keep it answering examples. */
  resource?: string | false;
  /** The record property the item path's parameter holds (`slug`): the collection's id. */
  key?: string;
}

const ITEM_ACTIONS: Readonly<Record<string, ResourceAction>> = {
  get: 'read',
  put: 'replace',
  patch: 'update',
  delete: 'delete',
};

/** A segment that is one parameter, maybe with a suffix: `{id}`, `{Sid}.json`. */
const ITEM_SEGMENT = /^\{([^{}]+)\}([^{}/]*)$/;

interface Candidate {
  path: string;
  list?: Operation;
  listEnvelope?: Envelope;
  create?: Operation;
  item?: { path: string; parameter: string; operations: Operation[] };
}

/**
 * The resources of a spec, inferred from the shape of its operations:
 * - a collection is a path whose last segment is literal, whose `get` answers a list of
 *   records (an array of objects, or an object holding one: `{data: [...], total}`) and/or
 *   whose `post` takes a body (and does not answer a list, as a search would);
 * - its item path is the same path plus one parameter segment (`/pets/{petId}`, or with the
 *   collection's suffix: `/Calls.json` and `/Calls/{Sid}.json`), where `get`, `put`, `patch`
 *   and `delete` act on one record;
 * - the record is everything the spec says of it: the list's items, the create answer and the
 *   item answers, each unwrapped from its envelope (`{droplet: {...}, links}`);
 * - the item parameter holds the record property it names (`username`, `slug`, `uuid`,
 *   `bookNumber` → `number`, `petId` → `id`), else the id: the property that is `readOnly` and
 *   required, else the one named `id`. `x-mock: { key: <property> }` settles it;
 * - a collection path with parameters is scoped by them (`/users/{userId}/posts`), and when it
 *   extends another collection's item path, that record must exist.
 * An operation can opt out with `x-mock: { resource: false }`, or name its collection with
 * `x-mock: { resource: <name> }`. A collection whose records have no key stays stateless.
 * @throws {SpecError} when `x-mock` names a collection or a key property the spec does not describe.
 * @example inferResources(operations)[0] // { name: 'categories', idProperty: 'id', idKind: 'integer', ... }
 */
export function inferResources(operations: readonly Operation[]): Resource[] {
  const eligible = operations.filter((operation) => extensionOf(operation).resource !== false);
  const byPath = new Map<string, Operation[]>();
  for (const operation of eligible)
    byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);

  const found: [Candidate, Omit<Resource, 'parent'> | undefined][] = [];
  for (const [path, pathOperations] of byPath) {
    const candidate = candidateAt(path, pathOperations, byPath);
    if (candidate) found.push([candidate, resourceOf(candidate)]);
  }
  // A record that may hold its key in several of its objects holds it where the others do.
  const conventional = new Map<string, number>();
  for (const [, resource] of found) {
    const holder = resource?.idWithin?.join('/');
    if (holder !== undefined) conventional.set(holder, (conventional.get(holder) ?? 0) + 1);
  }
  const resources = found
    .map(
      ([candidate, resource]) =>
        resource ?? (conventional.size > 0 ? resourceOf(candidate, conventional) : undefined),
    )
    .filter((resource) => resource !== undefined);
  const withParents: Resource[] = keyedAsChildrenName(
    resources.map((resource) => ({
      ...resource,
      parent: parentOf(resource, resources),
    })),
  );
  attachViews(byPath, withParents);
  attachNamedOperations(eligible, withParents);
  return withParents;
}

/** The collection at a path, if its operations make one. */
function candidateAt(
  path: string,
  operations: readonly Operation[],
  byPath: ReadonlyMap<string, readonly Operation[]>,
): Candidate | undefined {
  const bare = withoutTrailingSlash(path);
  const last = bare.split('/').at(-1) ?? '';
  if (last === '' || last.includes('{')) return undefined;
  const word = collectionWord(path);
  const get = operations.find((operation) => operation.method === 'get');
  const listEnvelope = get && listOf(get, word);
  const post = operations.find((operation) => operation.method === 'post');
  const create =
    post && (takesObject(post) || takesQueryAlone(post)) && !answersList(post, word)
      ? post
      : undefined;
  if (!listEnvelope && !create) return undefined;
  const item = itemOf(path, byPath);
  // A list alone below another collection (`/pet/findByStatus` under `/pet`), with nowhere to
  // add or address a record of its own, is a view of that collection (see attachViews).
  const above = bare.slice(0, bare.lastIndexOf('/'));
  const parent = byPath.get(above) ?? (bare === path ? undefined : byPath.get(`${above}/`));
  if (!create && !item && parent?.some((operation) => operation.method === 'post'))
    return undefined;
  return {
    path,
    ...(get && listEnvelope ? { list: get, listEnvelope } : {}),
    ...(create ? { create } : {}),
    ...(item ?? {}),
  };
}

/** The item path of a collection path: one more segment, a parameter with the collection's suffix. */
function itemOf(
  path: string,
  byPath: ReadonlyMap<string, readonly Operation[]>,
): Pick<Candidate, 'item'> | undefined {
  // Paths may end in a slash, the item's as the collection's (`/dcim/cables/`,
  // `/dcim/cables/{id}/`): a suffix of the path, as a `.json` is.
  const bare = withoutTrailingSlash(path);
  const slash = bare === path ? '' : '/';
  const suffix = /\.[A-Za-z0-9]+$/.exec(bare)?.[0] ?? '';
  const stem = bare.slice(0, bare.length - suffix.length);
  // The collection's own way first; else the other: a list at `/things/` may keep its items
  // at `/things/{name}`.
  for (const ending of [slash, slash === '' ? '/' : ''])
    for (const [candidate, operations] of byPath) {
      if (
        !candidate.startsWith(`${stem}/`) ||
        withoutTrailingSlash(candidate) + ending !== candidate
      )
        continue;
      const match = ITEM_SEGMENT.exec(
        candidate.slice(stem.length + 1, candidate.length - ending.length),
      );
      if (!match || (match[2] ?? '') !== suffix) continue;
      const acting = operations.filter((operation) => ITEM_ACTIONS[operation.method]);
      if (acting.length === 0) continue;
      return { item: { path: candidate, parameter: match[1] ?? '', operations: acting } };
    }
  return undefined;
}

/** A schema test: whether it describes the collection's record. */
type RecordTest = (schema: SchemaObject) => boolean;

/** What the operations of a collection say of its records, gathered by collectionOperations. */
interface CollectionOperations {
  actions: Map<Operation, ResourceAction>;
  envelopes: Map<Operation, Envelope>;
  bodies: Map<Operation, Envelope>;
  /** The record schemas the answers give (and the list's items), before they are merged. */
  records: SchemaObject[];
}

/**
 * The collection a candidate makes, if its records can be told apart and keyed: its operations
 * and what each does, its record schema, its key and the scope its path gives it.
 */
function resourceOf(
  candidate: Candidate,
  /** How many collections hold their key in each object (see conventionalKey). */
  conventional: ReadonlyMap<string, number> = new Map(),
): Omit<Resource, 'parent'> | undefined {
  const { list, item } = candidate;
  const word = collectionWord(candidate.path);
  // Records of several kinds are told by the fields of them all.
  const listed = candidate.listEnvelope && recordShapeOf(candidate.listEnvelope.record);
  const explicitKey = explicitKeyOf(candidate);
  const likely = (names: Iterable<string>) => likelyKeys(names, explicitKey, item, candidate.path);

  // What a client sends: the create body, maybe wrapped (`{data: {...}}`); one that holds no
  // record (a batch of them, a command) is no create of this collection. Told by the fields
  // of the listed records and of the record the create answers: listed references
  // (`id`, `type`, `summary`) which share no field with what a create sends (`name`...).
  const sharesFields = recordTest(withCreated(listed, candidate.create, word, likely), 1, likely);
  // A body naming the item parameter (`{role_id}` for `/roles/{role_id}`) adds that record.
  const isBody: RecordTest = (schema) =>
    sharesFields(schema) || (item !== undefined && namesItem(schema, item.parameter));
  const bodyOf = (operation: Operation | undefined) =>
    operation && requestEnvelopeOf(operation, word, listed ? isBody : undefined);
  const createBody = bodyOf(candidate.create);
  const answersRecord = recordTest(listed ?? createBody?.record, 2, likely);
  // A create whose body holds none of the record (an upload, a `new_branch_name`) but
  // that answers one of the listed records: the service makes every field of it.
  const madeByService =
    !createBody && listed !== undefined && candidate.create !== undefined
      ? answersOne(candidate.create, word, answersRecord)
      : false;
  const create = createBody || madeByService ? candidate.create : undefined;
  if (!listed && !create) return undefined;

  const gathered = collectionOperations(candidate, create, createBody, bodyOf, answersRecord);
  const variants = variantsOf(create, answersRecord, gathered.envelopes);
  const kinds = variants.variants ?? [];
  const schema = mergeRecordSchemas(withBodyOnlyFields(gathered.records, createBody, kinds));
  const twoShapes = fieldsInTwoShapes(gathered.records);
  const properties = propertiesOf(schema);
  const key = idPropertyOf(candidate, explicitKey, schema, conventional);
  if (key === undefined) return undefined;
  const { idProperty, idWithin } = key;

  const listing = new Map<Operation, ListParameters>();
  for (const [operation, action] of gathered.actions)
    if (action === 'list')
      listing.set(
        operation,
        listParametersOf(
          operation,
          properties,
          recordSchemaIn(operation, gathered.envelopes.get(operation)),
        ),
      );
  // Named as any kind names them: a form's `PrivacyPolicyUrl` is a kind's `privacy_policy_url`.
  const written = [
    ...writtenProperties(gathered.bodies.values(), {
      ...Object.assign({}, ...kinds.map((kind) => propertiesOf(kind))),
      ...properties,
    }),
    ...(create && takesQueryAlone(create) ? queryProperties(create, properties) : []),
  ];
  const created = createBody ? propertiesOf(createBody.record) : {};
  const scope = parametersOf(candidate.path);
  const idSchema =
    (idWithin ? propertyWithin(schema, idWithin, idProperty) : undefined) ??
    properties[idProperty] ??
    {};
  const keyLink: LinkKey | undefined =
    key.byLink && item
      ? { template: item.path, value: linkValueSchemaOf(itemParameterSchemas(item)) }
      : undefined;
  const otherKeys =
    item && !keyLink && !idWithin
      ? otherKeysFor(
          item.parameter,
          idProperty,
          Object.keys(properties).filter((name) => isScalarKey(properties[name] ?? {})),
        )
      : [];

  const createdKey = idWithin
    ? createBody && propertyWithin(createBody.record, idWithin, idProperty)
    : created[idProperty];
  const clientChosenId =
    createdKey !== undefined
      ? !isReadOnly(createdKey)
      : !createBody && !idWithin && !keyLink && editsKey(gathered.bodies, idProperty);
  const keyInBody =
    item && !keyLink && !clientChosenId && !idWithin
      ? keyNamedIn(created, item.parameter, idProperty)
      : undefined;

  return {
    name: explicitNameOf(list, create) ?? candidate.path.replace(/^\/+|\/+$/g, ''),
    collectionPath: candidate.path,
    itemPath: item?.path,
    schema,
    idProperty,
    ...(idWithin ? { idWithin } : {}),
    idKind: keyLink ? 'string' : idKindOf(idSchema),
    actions: gathered.actions,
    itemParameter: item?.parameter,
    keySchema: keyLink ? linkSchemaOf(keyLink) : keySchemaOf(idSchema, item),
    ...(keyLink ? { keyLink } : {}),
    ...(otherKeys.length > 0 ? { otherKeys } : {}),
    documentedKeys: item ? documentedKeysOf(item) : [],
    clientChosenId,
    ...(keyInBody === undefined ? {} : { keyInBody }),
    writable: written.length > 0 || madeByService ? new Set(written) : undefined,
    envelopes: gathered.envelopes,
    bodies: gathered.bodies,
    listing,
    scope,
    references: referencesOf(scope, properties, idProperty),
    ...variants,
    ...(twoShapes.size > 0 ? { twoShapes } : {}),
  };
}

/**
 * The record schemas a create answers one of (`oneOf`/`anyOf` arms that each hold the record
 * as they are, two or more); none for a create that answers one kind. An answer of one of
 * several kinds shows its record by the whole union (its envelope, first found on one arm,
 * is changed in place): a keyword rule is no spam rule.
 */
function variantsOf(
  create: Operation | undefined,
  answersRecord: RecordTest,
  envelopes: Map<Operation, Envelope>,
): Pick<Resource, 'variants'> {
  const answer = create && recordSchemaIn(create, envelopes.get(create));
  const records = answer ? recordArmsOf(answer, answersRecord) : [];
  if (records.length === 0) return {};
  for (const [operation, envelope] of envelopes) {
    const shown = recordSchemaIn(operation, envelope);
    if (shown && recordArmsOf(shown, answersRecord).includes(envelope.record))
      envelopes.set(operation, { ...envelope, record: shown });
  }
  return { variants: records };
}

/**
 * A schema as one object: the properties of all its arms when it is one of several objects
 * (none required), else itself. A property some kinds mark read-only and others let a client
 * write is the client's to write (one kind's `content` is sent, another's is made from its
 * `data`): taken from the last kind, a client's `content` would be lost to a made-up one. Each kind's check still refuses it where it is
 * read-only.
 */
function recordShapeOf(schema: SchemaObject): SchemaObject {
  const arms = objectArmsOf(schema);
  if (arms.length === 0) return schema;
  const properties: Record<string, SchemaObject> = {};
  for (const arm of arms)
    for (const [name, property] of Object.entries(propertiesOf(arm))) {
      const known = properties[name];
      if (!known || (isReadOnly(known) && !isReadOnly(property))) properties[name] = property;
    }
  return { type: 'object', properties } as SchemaObject;
}

/**
 * The listed record's shape with the fields of the record a create answers, where that answer
 * holds one the list's records are (in a wrapper, or sharing fields with them).
 */
function withCreated(
  listed: SchemaObject | undefined,
  create: Operation | undefined,
  word: string,
  likely: (names: Iterable<string>) => Set<string>,
): SchemaObject | undefined {
  if (!listed || !create) return listed;
  const answersListed = recordTest(listed, 2, likely);
  const envelope = recordEnvelopeOf(successSchema(create), word, answersListed);
  if (!envelope || !answersListed(envelope.record)) return listed;
  return {
    type: 'object',
    properties: { ...propertiesOf(envelope.record), ...propertiesOf(listed) },
  } as SchemaObject;
}

/** The arms of a `oneOf`/`anyOf` answer that each are a record, when there are two or more. */
function recordArmsOf(answer: SchemaObject, answersRecord: RecordTest): SchemaObject[] {
  if (isObjectSchema(answer)) return [];
  const arms = [
    ...((answer.oneOf ?? []) as SchemaObject[]),
    ...((answer.anyOf ?? []) as SchemaObject[]),
  ];
  const records = arms.filter((arm) => isObjectSchema(arm) && answersRecord(arm));
  return records.length >= 2 ? records : [];
}

/** The key `x-mock` names on any of the collection's operations. */
function explicitKeyOf({ list, create, item }: Candidate): string | undefined {
  return [list, create, ...(item?.operations ?? [])]
    .map((operation) => operation && extensionOf(operation).key)
    .find((key): key is string => typeof key === 'string');
}

/** The names a record's key may have, among its property names: `x-mock`'s, the item parameter's, `id`. */
function likelyKeys(
  names: Iterable<string>,
  explicitKey: string | undefined,
  item: Candidate['item'],
  collectionPath: string,
): Set<string> {
  return new Set(
    [explicitKey, item && itemKeyFor(item.parameter, collectionPath, [...names]), 'id'].filter(
      (name): name is string => name !== undefined,
    ),
  );
}

/**
 * The property an item parameter names (see keyPropertyFor), else the one it names once the
 * record's own noun is left out of it: `/customers/{external_customer_id}` holds the
 * customer's `external_id`.
 * @example itemKeyFor('external_customer_id', '/customers', ['lago_id', 'external_id']) // 'external_id'
 */
function itemKeyFor(
  parameter: string,
  collectionPath: string,
  properties: readonly string[],
): string | undefined {
  const named = keyPropertyFor(parameter, properties);
  if (named !== undefined) return named;
  const nouns = new Set(wordsOf(collectionWord(collectionPath)).flatMap(nounForms));
  const words = wordsOf(parameter);
  const rest = words.filter((word) => !nouns.has(word));
  return rest.length > 0 && rest.length < words.length
    ? keyPropertyFor(rest.join(' '), properties)
    : undefined;
}

/** A noun of a path as it is written and in the singular (`customers`: `customer`, `boxes`: `box`). */
function nounForms(word: string): string[] {
  return [word, word.replace(/(?:es|s)$/, ''), word.replace(/s$/, '')];
}

/**
 * Whether a schema describes the record, judged against a reference (the list's items, or the
 * create body): it has the likely key, or shares enough fields with it, compared by words
 * (requests in `FriendlyName`, answers in `friendly_name`). An answer must share
 * two (where the reference has two), or its half: a wrapper `{endpoint: {...}}` around a record
 * that has an `endpoint` of its own is no record. A request body may share one: summaries in
 * lists show few fields.
 */
function recordTest(
  reference: SchemaObject | undefined,
  least: number,
  likely: (names: Iterable<string>) => Set<string>,
): RecordTest {
  const referenceNames = Object.keys(reference ? propertiesOf(reference) : {});
  const referenceWords = new Set(referenceNames.map(wordKey));
  const keys = likely(referenceNames);
  return (schema) => {
    const names = Object.keys(propertiesOf(schema));
    if (names.some((name) => keys.has(name))) return true;
    const shared = names.filter((name) => referenceWords.has(wordKey(name))).length;
    if (shared === 0 || shared < Math.min(least, referenceWords.size)) return false;
    return least === 1 || shared * 2 >= Math.min(names.length, referenceWords.size);
  };
}

/**
 * Where a write's request body holds the record (`isBody`: the record test, none when any
 * object is one); undefined when it holds none.
 */
function requestEnvelopeOf(
  operation: Operation,
  word: string,
  isBody: RecordTest | undefined,
): Envelope | undefined {
  const schema = bodySchemaOf(operation);
  if (!schema) return undefined;
  const envelope = recordEnvelopeOf(schema, word, isBody ?? (() => true));
  if (envelope && (!isBody || isBody(envelope.record))) {
    // A client writes the fields of whichever kind it sends: the fields of them all.
    const union = envelope.kind === 'wrapped' && propertiesOf(envelope.wrapper)[envelope.property];
    return union && objectArmsOf(union).length >= 2
      ? { ...envelope, record: recordShapeOf(union) }
      : envelope;
  }
  return unionWrappedOf(schema, isBody);
}

/**
 * A body that wraps one record of several kinds (`{runner: oneOf [sidecar, runbook]}`, told by `runner_type`): the wrapper's one property that is a union
 * of objects, read as one record with the fields of every kind (the record's check still holds
 * the kind to its own). Unread, the create was no create, and its answer an example no read found.
 */
function unionWrappedOf(
  schema: SchemaObject,
  isBody: RecordTest | undefined,
): Envelope | undefined {
  const unions = Object.entries(propertiesOf(schema)).filter(
    ([, property]) => objectArmsOf(property).length >= 2,
  );
  const [only] = unions;
  if (!only || unions.length > 1) return undefined;
  const [property, union] = only;
  const record = recordShapeOf(union);
  return !isBody || isBody(record)
    ? { kind: 'wrapped', property, wrapper: schema, record }
    : undefined;
}

/** Whether an operation's success answer holds one record of the collection. */
function answersOne(operation: Operation, word: string, answersRecord: RecordTest): boolean {
  const envelope = recordEnvelopeOf(successSchema(operation), word, answersRecord);
  return envelope !== undefined && answersRecord(envelope.record);
}

/**
 * Whether an answer is an object naming the record's key as its item path does, the record
 * keeping it under another name (`{"issueTypeSchemeId": "10010"}` for records keyed by `id`).
 */
function namesKey(envelope: Envelope, parameter: string | undefined): boolean {
  return (
    envelope.kind === 'plain' &&
    parameter !== undefined &&
    parameter in propertiesOf(envelope.record)
  );
}

/**
 * What each operation of the collection does, where its answer holds the record and its
 * request body the client's fields, and the record schemas its answers give.
 */
function collectionOperations(
  candidate: Candidate,
  create: Operation | undefined,
  createBody: Envelope | undefined,
  bodyOf: (operation: Operation) => Envelope | undefined,
  answersRecord: RecordTest,
): CollectionOperations {
  const word = collectionWord(candidate.path);
  const gathered: CollectionOperations = {
    actions: new Map(),
    envelopes: new Map(),
    bodies: new Map(),
    records: [],
  };
  const { list, listEnvelope, item } = candidate;
  if (list && listEnvelope) {
    gathered.actions.set(list, 'list');
    gathered.envelopes.set(list, listEnvelope);
    gathered.records.push(listEnvelope.record);
  }
  for (const operation of [create, ...(item?.operations ?? [])]) {
    if (!operation) continue;
    gathered.actions.set(
      operation,
      operation === create ? 'create' : (ITEM_ACTIONS[operation.method] ?? 'read'),
    );
    const body = operation === create ? createBody : bodyOf(operation);
    if (body) gathered.bodies.set(operation, body);
    const envelope = recordEnvelopeOf(successSchema(operation), word, answersRecord);
    if (envelope && !answersRecord(envelope.record) && namesKey(envelope, item?.parameter))
      // An answer about the record, not the record: told its key, not a made-up one.
      gathered.envelopes.set(operation, envelope);
    if (!envelope || !answersRecord(envelope.record)) continue;
    gathered.envelopes.set(operation, envelope);
    // A delete's answer is often a summary or a status: it says less of the record.
    if (operation.method !== 'delete') gathered.records.push(envelope.record);
  }
  return gathered;
}

/**
 * The record schemas to merge: the answers', and what the create body says and no answer does
 * (a `notes` the answers leave out), never required; `writeOnly` fields (a password) are never
 * kept. The create body alone when no answer describes the record.
 */
function withBodyOnlyFields(
  records: readonly SchemaObject[],
  createBody: Envelope | undefined,
  /** The kinds of a record of several: a field one of them answers is no body-only field. */
  kinds: readonly SchemaObject[] = [],
): SchemaObject[] {
  if (!createBody) return [...records];
  if (records.length === 0) return [createBody.record];
  const answered = new Set(
    [...records, ...kinds].flatMap((record) => Object.keys(propertiesOf(record)).map(wordKey)),
  );
  const bodyOnly = Object.entries(propertiesOf(createBody.record)).filter(
    ([name, property]) => !answered.has(wordKey(name)) && !carries(property, 'writeOnly'),
  );
  if (bodyOnly.length === 0) return [...records];
  return [...records, { type: 'object', properties: Object.fromEntries(bodyOnly) } as SchemaObject];
}

/**
 * The property that keys the records: `x-mock`'s, else the one the item parameter names, else
 * `id`, else, for records with an item path, their own link (`uri`, `self`, `href`: `byLink`),
 * else the id idOf finds, else the property the item parameter names in an object of the record
 * (`metadata.name`: `idWithin`; of several, the one `conventional` says); undefined when the
 * records have none. A key is a scalar:
 * `floating_ip` naming an object (a wrapper's field) is no key.
 * @throws {SpecError} when `x-mock` names a key the records do not have.
 */
function idPropertyOf(
  candidate: Candidate,
  explicitKey: string | undefined,
  schema: SchemaObject,
  conventional: ReadonlyMap<string, number>,
): { idProperty: string; byLink: boolean; idWithin?: string[] } | undefined {
  const properties = propertiesOf(schema);
  if (explicitKey !== undefined && !(explicitKey in properties))
    throw new SpecError(
      `x-mock of ${candidate.path} names the key "${explicitKey}", which its records do not have (they have: ${Object.keys(properties).join(', ')})`,
    );
  const scalars = Object.keys(properties).filter((name) => isScalarKey(properties[name] ?? {}));
  const { item } = candidate;
  const named = item && itemKeyFor(item.parameter, candidate.path, scalars);
  const chosen =
    explicitKey ??
    (named !== undefined && ownIdNamed(named, candidate.path, scalars) ? 'id' : named) ??
    // An `id` holding an object (Mist's virtual chassis answers `{id: <the chassis>}`) is no key.
    (scalars.includes('id') ? 'id' : undefined) ??
    (item && endingPropertyFor(item.parameter, scalars)) ??
    (item && initialsPropertyFor(item.parameter, scalars)) ??
    (item && qualifiedPropertyFor(item.parameter, scalars));
  // Records that hold their key only in their link (`uri: /videos/258684937`): keyed by
  // another property the service sets, none could be read at the path they name.
  // Only for a number in the path, which names no other field: a word there
  // (`/changelogs/{identifier}`, its links `/changelogs/<slug>`) is some field's value, which a
  // link made up around another word would not hold. A link whose schema says its own shape
  // (a pattern, a list) is kept as the spec says it.
  const link =
    chosen === undefined && item && itemParameterSchemas(item).some(isNumeric)
      ? linkPropertyOf(
          scalars.filter(
            (name) => holdsText(properties[name] ?? {}) && !hasOwnShape(properties[name] ?? {}),
          ),
        )
      : undefined;
  const idProperty =
    chosen ??
    link ??
    idOf(schema) ??
    (item && naturalKeyOf(properties, itemParameterSchemas(item)));
  if (idProperty !== undefined && idProperty in properties)
    return { idProperty, byLink: link !== undefined && idProperty === link };
  const nested = item && conventionalKey(nestedKeysFor(item.parameter, schema), conventional);
  return nested && { ...nested, byLink: false };
}

/**
 * The key of records with no id, for a parameter of free text: their `slug`, else their
 * `name` (`/tags/{tag_id}` and `/branches/{branch}` name a tag or a branch;
 * `/changelogs/{identifier}` a changelog's slug). A parameter that is a
 * number or has a format (a uuid, a date) holds no such text.
 * @example naturalKeyOf({ name: { type: 'string' }, resources: { type: 'object' } }, [{ type: 'string' }]) // 'name'
 */
function naturalKeyOf(
  properties: Readonly<Record<string, SchemaObject>>,
  parameters: readonly SchemaObject[],
): string | undefined {
  if (parameters.some((parameter) => isNumeric(parameter) || formatOf(parameter) !== undefined))
    return undefined;
  return ['slug', 'name'].find(
    (name) =>
      properties[name] !== undefined &&
      isScalarKey(properties[name]) &&
      holdsText(properties[name]),
  );
}

/** The format of a schema or of one of its `allOf` parts. */
function formatOf(schema: SchemaObject): unknown {
  return [schema, ...((schema.allOf ?? []) as SchemaObject[])].find(
    (part) => part.format !== undefined,
  )?.format;
}

/** Whether a text's schema says what it looks like: a pattern, a format, listed values. */
function hasOwnShape(schema: SchemaObject): boolean {
  return [schema, ...((schema.allOf ?? []) as SchemaObject[])].some(
    (part) =>
      part.pattern !== undefined ||
      part.format !== undefined ||
      part.enum !== undefined ||
      'const' in part,
  );
}

/** The schema of an item path's own parameter, as its first operation declares it. */
function itemParameterSchema(item: NonNullable<Candidate['item']>): SchemaObject | undefined {
  return itemParameterSchemas(item)[0];
}

/** The values the item path's parameter is documented with, each once (see Resource.documentedKeys). */
function documentedKeysOf(item: NonNullable<Candidate['item']>): unknown[] {
  const keys = new Map<string, unknown>();
  for (const operation of item.operations)
    for (const one of operation.parameters)
      if (one.in === 'path' && one.name === item.parameter)
        for (const value of one.examples)
          if (typeof value === 'string' || typeof value === 'number')
            keys.set(JSON.stringify(value), value);
  return [...keys.values()];
}

/** The schemas each operation of an item path gives its own parameter. */
function itemParameterSchemas(item: NonNullable<Candidate['item']>): SchemaObject[] {
  return item.operations
    .flatMap((operation) => operation.parameters)
    .filter((one) => one.in === 'path' && one.name === item.parameter)
    .map((one) => one.schema);
}

/**
 * Whether a property named by an item parameter is the record's own id under its collection's
 * name (`channel_id` of `/channels`, `petId` of `/pets`) while the record has an `id` too: the
 * id a create answers is its `id`, and that is what a client reads the record with (the
 * `channel_id` beside it was another property, and a read by the created id was a 404).
 */
function ownIdNamed(property: string, collectionPath: string, scalars: readonly string[]): boolean {
  if (property === 'id' || !scalars.includes('id')) return false;
  const words = wordsOf(property);
  if (words.length < 2 || !ID_WORDS.has(words.at(-1) ?? '')) return false;
  const noun = words.slice(0, -1).join(' ');
  const collection = wordsOf(collectionPath.split('/').filter(Boolean).at(-1) ?? '').join(' ');
  return collection === noun || collection === `${noun}s` || collection === `${noun}es`;
}

/**
 * Whether an edit's body writes the key property, for a collection no create body names it in
 * (records made at their item path and renamed by a `PUT` naming a new `name`): the
 * client names the key, and an edit naming another moves the record.
 */
function editsKey(bodies: ReadonlyMap<Operation, Envelope>, idProperty: string): boolean {
  return [...bodies].some(([operation, body]) => {
    const key = propertiesOf(body.record)[idProperty];
    return (
      (operation.method === 'put' || operation.method === 'patch') &&
      key !== undefined &&
      !isReadOnly(key)
    );
  });
}

/** Whether a body has a property named as the item parameter is (by words). */
function namesItem(schema: SchemaObject, parameter: string): boolean {
  const wanted = wordKey(parameter);
  return Object.keys(propertiesOf(schema)).some((name) => wordKey(name) === wanted);
}

/**
 * The create body's property named as the item parameter is (`role_id` of `/roles/{role_id}`),
 * a text or a number the client writes, when it is not the key property itself.
 */
function keyNamedIn(
  created: Readonly<Record<string, SchemaObject>>,
  parameter: string,
  idProperty: string,
): string | undefined {
  const wanted = wordKey(parameter);
  return Object.keys(created).find(
    (name) =>
      name !== idProperty &&
      wordKey(name) === wanted &&
      holdsText(created[name] ?? {}) &&
      !isReadOnly(created[name] ?? {}),
  );
}

/** Each property the request bodies write, under the record's name for it (`FriendlyName` is `friendly_name`). */
function writtenProperties(
  bodies: Iterable<Envelope>,
  properties: Readonly<Record<string, SchemaObject>>,
): string[] {
  const byWords = new Map(Object.keys(properties).map((name) => [wordKey(name), name]));
  return [...bodies].flatMap((body) =>
    Object.entries(propertiesOf(body.record))
      .filter(([, property]) => !isReadOnly(property) && !carries(property, 'writeOnly'))
      .map(([name]) => (name in properties ? name : (byWords.get(wordKey(name)) ?? name))),
  );
}

/** The properties that repeat a scope parameter (`userId` of a post), with its position. */
function referencesOf(
  scope: readonly string[],
  properties: Readonly<Record<string, SchemaObject>>,
  idProperty: string,
): Map<string, number> {
  const references = new Map<string, number>();
  scope.forEach((parameter, index) => {
    const property = Object.keys(properties).find(
      (name) =>
        name !== idProperty &&
        wordKey(name) === wordKey(parameter) &&
        holdsText(properties[name] as SchemaObject),
    );
    if (property !== undefined) references.set(property, index);
  });
  return references;
}

/** The collection's name `x-mock` gives on its list or create. */
function explicitNameOf(
  list: Operation | undefined,
  create: Operation | undefined,
): string | undefined {
  return [list, create]
    .map((operation) => operation && extensionOf(operation).resource)
    .find((name): name is string => typeof name === 'string');
}

/**
 * Whether a property can hold what a path segment holds (a string or a number): the
 * events under `/repos/{owner}/{repo}` have `repo` and `owner` objects, which are no
 * references to the path's values.
 */
function holdsText(schema: SchemaObject, depth = 0): boolean {
  if (typeof schema !== 'object' || schema === null || depth > 4) return false;
  const types = typesOf(schema);
  if (types.length > 0) return types.some((type) => SCALAR_TYPES.has(type));
  const arms = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])] as SchemaObject[];
  if (arms.length > 0) return arms.some((arm) => holdsText(arm, depth + 1));
  return schema.properties === undefined && !('items' in schema);
}

const SCALAR_TYPES = new Set(['string', 'integer', 'number']);

/** The resource whose item path this collection path extends by one segment. */
function parentOf(
  resource: Omit<Resource, 'parent'>,
  resources: readonly Omit<Resource, 'parent'>[],
): string | undefined {
  const bare = withoutTrailingSlash(resource.collectionPath);
  const base = shapeOf(bare.slice(0, bare.lastIndexOf('/')));
  // Parents `/Calls/{Sid}.json`, their children `/Calls/{CallSid}/Recordings.json`;
  // parents `/sites/{id}/`, theirs `/sites/{site_id}/devices/`.
  return resources.find(
    (other) =>
      other !== resource &&
      other.itemPath &&
      shapeOf(withoutTrailingSlash(other.itemPath).replace(/\.[A-Za-z0-9]+$/, '')) === base,
  )?.name;
}

/**
 * Views: a list alone directly below a collection (`GET /pet/findByStatus` under `/pet`), whose
 * items are that collection's records (they carry its key), lists those records, filtered and
 * paged by its own query parameters (`status`), so that a record created a moment ago shows in
 * it. A list of something else below a collection, or one with a query parameter the mock
 * cannot honour, stays with its examples.
 */
function attachViews(
  byPath: ReadonlyMap<string, readonly Operation[]>,
  resources: readonly Resource[],
): void {
  const gathered = new Set(resources.flatMap((resource) => [...resource.actions.keys()]));
  for (const resource of resources) {
    const word = collectionWord(resource.collectionPath);
    for (const [path, operations] of byPath) {
      if (path.slice(0, path.lastIndexOf('/')) !== resource.collectionPath) continue;
      if (path.slice(path.lastIndexOf('/')).includes('{')) continue;
      const get = operations.find((operation) => operation.method === 'get');
      if (!get || gathered.has(get)) continue;
      const envelope = listOf(get, word, resource.idProperty);
      if (!envelope || !(resource.idProperty in propertiesOf(envelope.record))) continue;
      // Items that require what the records do not hold list something else, keyed alike
      // (`/commands/permissions`: each command's permissions, their `id` the command's).
      const held = propertiesOf(resource.schema);
      if ([...requiredOf(envelope.record)].some((name) => !(name in held))) continue;
      if (honoursEveryQuery(get, listParametersOf(get, propertiesOf(resource.schema)))) {
        attach(resource, get, 'list');
        gathered.add(get);
      }
    }
  }
}

/**
 * Whether each query parameter of a list pages or filters it: a view asked for what the mock
 * cannot honour (`tags`, which records hold as objects) would answer every record as if it
 * matched, worse than its examples.
 */
function honoursEveryQuery(operation: Operation, listing: ListParameters): boolean {
  const { paging, filters } = listing;
  const honoured = new Set([
    ...filters.keys(),
    ...[paging.limit, paging.offset, paging.page?.name, paging.cursor].filter(
      (name): name is string => name !== undefined,
    ),
  ]);
  return operation.parameters
    .filter((parameter) => parameter.in === 'query')
    .every((parameter) => honoured.has(parameter.name));
}

/** Serves one more operation from a resource inferred elsewhere. */
function attach(resource: Resource, operation: Operation, action: ResourceAction): void {
  (resource.actions as Map<Operation, ResourceAction>).set(operation, action);
  const envelopes = resource.envelopes as Map<Operation, Envelope>;
  const answer = successSchema(operation);
  const envelope =
    action === 'list'
      ? listEnvelopeOf(answer, collectionWord(resource.collectionPath))
      : recordEnvelopeOf(
          answer,
          collectionWord(resource.collectionPath),
          (schema) => resource.idProperty in propertiesOf(schema),
        );
  if (envelope) envelopes.set(operation, envelope);
  if (action === 'list')
    (resource.listing as Map<Operation, ListParameters>).set(
      operation,
      listParametersOf(
        operation,
        propertiesOf(resource.schema),
        recordSchemaIn(operation, envelope),
      ),
    );
}

/** Operations that name their collection but sit where inference cannot see them. */
function attachNamedOperations(
  eligible: readonly Operation[],
  resources: readonly Resource[],
): void {
  const named = new Map(resources.map((resource) => [resource.name, resource]));
  for (const operation of eligible) {
    const name = extensionOf(operation).resource;
    if (typeof name !== 'string') continue;
    const resource = named.get(name);
    if (!resource) {
      throw new SpecError(
        `x-mock of ${operation.operationId} names the resource "${name}", which the spec does not describe (it has: ${[...named.keys()].join(', ') || 'none'})`,
      );
    }
    if (resource.actions.has(operation)) continue;
    const action = operation.path.includes('{')
      ? ITEM_ACTIONS[operation.method]
      : operation.method === 'get'
        ? 'list'
        : operation.method === 'post'
          ? 'create'
          : undefined;
    if (action) attach(resource, operation, action);
  }
}

/** What a new key must satisfy: see Resource.keySchema. */
function keySchemaOf(property: SchemaObject, item: Candidate['item']): SchemaObject {
  return neverNull(keyOrParameterSchema(property, item));
}

function keyOrParameterSchema(property: SchemaObject, item: Candidate['item']): SchemaObject {
  const parameter = item && itemParameterSchema(item);
  if (!parameter || Object.keys(parameter).length === 0) return property;
  const types = typesOf(property);
  const parameterTypes = typesOf(parameter);
  if (types.includes('string') && !types.includes('integer') && parameterTypes.includes('integer'))
    return { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } as SchemaObject;
  if (
    types.length > 0 &&
    parameterTypes.length > 0 &&
    !parameterTypes.some((type) => types.includes(type))
  )
    return property;
  return { allOf: [property, parameter] } as SchemaObject;
}

/** Digits as text: what a path taking an integer can name of a record keyed by text. */
const DIGITS_KEY = { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } as SchemaObject;

/**
 * Records keyed by an opaque text that their children's paths name as an integer are keyed by
 * digits (a dashboard read at `/dashboard/{id}`, a text, whose gadgets are at
 * `/dashboard/{dashboardId}/gadget`, an integer): else no child of theirs could be reached.
 */
function keyedAsChildrenName(resources: Resource[]): Resource[] {
  return resources.map((resource) => {
    if (resource.idKind !== 'string' || resource.keyLink || !isOpaqueText(resource.keySchema))
      return resource;
    const integer = resources
      .filter((child) => child.parent === resource.name)
      .some((child) => {
        const name = parametersOf(child.collectionPath)[resource.scope.length];
        return [...child.actions.keys()]
          .flatMap((operation) => operation.parameters)
          .some((one) => one.in === 'path' && one.name === name && isIntegerOnly(one.schema));
      });
    return integer
      ? { ...resource, keySchema: { allOf: [resource.keySchema, DIGITS_KEY] } as SchemaObject }
      : resource;
  });
}

function isIntegerOnly(schema: SchemaObject): boolean {
  const types = typesOf(schema);
  return types.includes('integer') && !types.includes('string');
}

/** A text key with nothing said of its form: no pattern, format, enum or length. */
function isOpaqueText(schema: SchemaObject): boolean {
  return [schema, ...((schema.allOf ?? []) as SchemaObject[])].every(
    (part) =>
      (part === schema || isOpaqueText(part)) &&
      ['pattern', 'format', 'enum', 'const', 'maxLength', 'minLength'].every(
        (keyword) => !(keyword in part),
      ),
  );
}

/** A key is never null, even where the property may be. */
function neverNull(schema: SchemaObject): SchemaObject {
  const types = typesOf(schema);
  if (!types.includes('null')) return schema;
  return { allOf: [schema, { type: types.filter((type) => type !== 'null') }] } as SchemaObject;
}

function isScalarKey(schema: SchemaObject): boolean {
  const types = typesOf(schema);
  return (
    types.length === 0 ||
    types.some((type) => type === 'string' || type === 'integer' || type === 'number')
  );
}

/**
 * The id of records with no item parameter to name it: the property that is `readOnly` and
 * required, else the one named `id`, else one named like an id (`gid`, `uuid`), `readOnly` first.
 */
function idOf(schema: SchemaObject): string | undefined {
  const properties = propertiesOf(schema);
  const required = requiredOf(schema);
  // A key is a scalar: an `id` holding an object (Mist's `{id: <a virtual chassis>}`) is none.
  const names = Object.keys(properties).filter((name) => isScalarKey(properties[name] ?? {}));
  const idLike = names.filter(
    (name) => wordsOf(name).length === 1 && ID_WORDS.has(wordsOf(name)[0] ?? ''),
  );
  // A record's own `id` first: a required property the service sets may be the id of
  // another record it holds (an installation's `app_id`), and keyed by it, a second
  // installation of one app would be a 409 the service never gives.
  return (
    (names.includes('id') ? 'id' : undefined) ??
    names.find((key) => required.has(key) && isReadOnly(properties[key] ?? {})) ??
    idLike.find((name) => isReadOnly(properties[name] ?? {})) ??
    idLike[0]
  );
}

function idKindOf(schema: SchemaObject): IdKind {
  const types = typesOf(schema);
  if (types.includes('integer') || types.includes('number')) return 'integer';
  if ([schema, ...((schema.allOf ?? []) as SchemaObject[])].some((part) => part.format === 'uuid'))
    return 'uuid';
  return 'string';
}

/**
 * How a `get` answers a list of records, unless its answer is one record holding a list of
 * another kind: `GET /releases/latest` answers a release, whose `assets` are no releases,
 * and a template holds its one `fields` entry. Such a wrapper
 * carries a key of its own, as its items do (`id`), or the collection's key; a list's wrapper
 * (`{data: [...], has_more}`, `{result: [...], result_info}`) carries none.
 */
function listOf(get: Operation, word: string, key?: string): Envelope | undefined {
  const envelope = listEnvelopeOf(successSchema(get), word);
  if (envelope?.kind !== 'wrapped') return envelope;
  const items = propertiesOf(envelope.record);
  const keyed = (name: string) =>
    name === key ||
    (name in items && wordsOf(name).length === 1 && ID_WORDS.has(wordsOf(name)[0] ?? ''));
  return Object.keys(propertiesOf(envelope.wrapper)).some(keyed) ? undefined : envelope;
}

/**
 * The schema an answer holds its records or its record in, as the spec writes it: the answer
 * itself, or its wrapper's property. For a list, the array; for a record of several kinds
 * (`{result: oneOf [A record, CNAME record...]}`), the union a kind was chosen from.
 */
function recordSchemaIn(
  operation: Operation,
  envelope: Envelope | undefined,
): SchemaObject | undefined {
  if (!envelope) return undefined;
  return envelope.kind === 'plain'
    ? successSchema(operation)
    : propertiesOf(envelope.wrapper)[envelope.property];
}

function successSchema(operation: Operation): SchemaObject | undefined {
  return jsonSchemaOf(operation.responses[String(operation.successStatus)]);
}

/**
 * The object schema of a request body, in its first media type that has one; a body that is
 * one of several objects (`oneOf`, `anyOf`) as one schema with the properties of all of them.
 */
function bodySchemaOf(operation: Operation): SchemaObject | undefined {
  for (const schema of operation.requestBody?.content.values() ?? []) {
    if (isObjectSchema(schema)) return schema;
    // One of several objects: the fields of them all.
    if (objectArmsOf(schema).length > 0) return recordShapeOf(schema);
  }
  return undefined;
}

function takesObject(operation: Operation): boolean {
  return bodySchemaOf(operation) !== undefined;
}

/**
 * A `post` with no request body that takes query parameters
 * (`POST /runners?site_id=...&prompt=...`): a create where it answers a listed record
 * (see resourceOf's `madeByService`), its fields those the query names.
 */
function takesQueryAlone(operation: Operation): boolean {
  return (
    operation.requestBody === undefined &&
    operation.parameters.some((parameter) => parameter.in === 'query')
  );
}

/** The record properties a create's query parameters name (by words: `site_id` is `siteId`). */
function queryProperties(
  operation: Operation,
  properties: Readonly<Record<string, SchemaObject>>,
): string[] {
  const byWords = new Map(Object.keys(properties).map((name) => [wordKey(name), name]));
  return operation.parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => byWords.get(wordKey(parameter.name)))
    .filter((name): name is string => name !== undefined && !isReadOnly(properties[name] ?? {}));
}

/** A `post` that answers a list: a search, not a create. */
function answersList(operation: Operation, word: string): boolean {
  const answer = successSchema(operation);
  return answer !== undefined && listEnvelopeOf(answer, word)?.kind === 'plain';
}

/** A name as its words: `FriendlyName` and `friendly_name` are both `friendly name`. */
function wordKey(name: string): string {
  return wordsOf(name).join(' ');
}

/**
 * The path parameter names of a template, in order.
 * @example parametersOf('/users/{userId}/posts/{postId}') // ['userId', 'postId']
 */
export function parametersOf(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}

/** A template with its parameter names left out: `/users/{}/posts`. */
function shapeOf(template: string): string {
  return template.replace(/\{[^}]+\}/g, '{}');
}

/** The last word of a collection's path, its suffix left out: `droplets`, `Calls`. */
function collectionWord(path: string): string {
  return (withoutTrailingSlash(path).split('/').at(-1) ?? '').replace(/\.[A-Za-z0-9]+$/, '');
}

/**
 * A path without the slash it ends in (`/dcim/cables/`), which names the same
 * collection; the root `/` as it is.
 */
function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function extensionOf(operation: Operation): MockExtension {
  const extension = (operation.definition as { 'x-mock'?: unknown })['x-mock'];
  return typeof extension === 'object' && extension !== null ? (extension as MockExtension) : {};
}
