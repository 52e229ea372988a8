// The interface as the rules use it, put together from its parts: calls (kit-calls.ts),
// judgements of answers (kit-judgements.ts), records (kit-records.ts) and lists
// (kit-listing.ts). Each part is built with the whole kit, for what it asks of the others.
import type { Carrier } from './credentials.js';
import type { Exchange, StreamRead } from './http.js';
import { kitCalls } from './kit-calls.js';
import { kitJudgements } from './kit-judgements.js';
import { kitListing } from './kit-listing.js';
import { kitRecords } from './kit-records.js';
import type {
  CollectionAction,
  ContractPlan,
  PlanCollection,
  PlanOperation,
  RuleFamily,
  Schema,
} from './plan.js';
import type { RuleContext } from './rule.js';
import type { ContractTarget } from './target.js';
import type { ContractSpec } from './spec.js';

/** The statuses an answer may have, and how a report names them ("401", "4xx"). */
export interface Expectation {
  label: string;
  accepts(status: number): boolean;
}

/** What decides which credentials the suite holds. */
export type Held = Pick<ContractTarget, 'credentials' | 'refusedSchemes'>;

/** The collection each operation acts on, and how, by operationId. */
export type Roles = Map<string, { collection: CollectionKit; action: CollectionAction }>;

/** What the kit's parts are built from. */
export interface KitBase {
  spec: ContractSpec;
  plan: ContractPlan;
  /** Prefix of every text the suite creates. */
  label: string;
  roles: Roles;
  /** A nested collection's operations: the parent collection and the path parameter naming its record. */
  scopes: Map<string, { parent: CollectionKit; parameter: string }>;
  /**
   * Ids of records the run found or made, by collection name, for the body fields named after
   * a collection (`authorId`): filled once per run by `produceIds`, before the first rule.
   */
  produced: Map<string, unknown>;
  /** Why `produceIds` got no record of a collection, by collection name. */
  unproduced: Map<string, string>;
}

/** Options of one call. */
interface CallOptions {
  /**
   * Values of path, query, header and cookie parameters; required ones left out are sampled
   * (an `If-Match` gets the record's current ETag, read first), one given as `undefined` is
   * not sent.
   */
  params?: Record<string, unknown>;
  /** The credentials sent: the valid ones when `undefined`, none when `null`. */
  auth?: Carrier | null;
  /** Request headers the operation does not declare (`If-None-Match` on a read that answers ETags). */
  headers?: Record<string, string>;
  /** Sent as is (a JSON text, or anything else); `undefined` sends no body. */
  body?: string | undefined;
  /** The Content-Type of the body: the operation's JSON media type unless given. */
  contentType?: string;
  /**
   * A URL under the base URL to send to instead of the operation's path and parameters: a
   * next page's link, which holds its own query.
   */
  url?: string;
  /** The Accept header: the operation's documented media types, JSON first, unless given. */
  accept?: string;
  /** Reads the answer as a stream, chunk by chunk and bounded in time (see StreamRead). */
  stream?: StreamRead;
}

/** The records of a list, page after page, and the answers that held them. */
interface Listing {
  records: Record<string, unknown>[];
  pages: Exchange[];
}

/** A collection as the rules use it: its operations, found in the plan. */
export interface CollectionKit {
  plan: PlanCollection;
  list?: PlanOperation;
  create?: PlanOperation;
  read?: PlanOperation;
  replace?: PlanOperation;
  update?: PlanOperation;
  delete?: PlanOperation;
  /** The collection whose record this one's paths name first (`projects` of `/projects/{projectId}/tickets`). */
  parent?: CollectionKit;
  /**
   * Its create is a `PUT` of the item path under a key the client chooses (201 created, then
   * 200 or 204 replaced): `create` and `replace` are that one operation.
   */
  upsert?: true;
}

/** A body the suite sent to create a record, and the answer. */
export interface Creation {
  exchange: Exchange;
  sent: Record<string, unknown>;
  id: unknown;
}

/**
 * The interface as the rules use it: its operations over HTTP, with the credentials each
 * needs, and the judgements every rule shares. Built once per run from the plan.
 */
export interface Kit {
  spec: ContractSpec;
  plan: ContractPlan;
  /** Prefix of every text the suite creates. */
  label: string;
  collections: CollectionKit[];
  /** The collection an operation acts on, and how. */
  roleOf(
    operation: PlanOperation,
  ): { collection: CollectionKit; action: CollectionAction } | undefined;
  /** A rule's name: the operation, the interface document's rule number when it gives one, the rule. */
  name(
    operation: PlanOperation,
    families: RuleFamily | RuleFamily[] | undefined,
    text: string,
  ): string;
  /**
   * The credential the suite holds for a scheme, holding the scopes `needs` names, or
   * `undefined` (not given, refused, not sendable, or none given holds those scopes).
   */
  secret(target: Held, scheme: string, needs?: readonly string[]): string | undefined;
  /** Why the suite cannot make a valid call of the operation (a credential it lacks); `undefined`: it can. */
  cannotCall(target: Held, operation: PlanOperation): string | undefined;
  /** Calls an operation. */
  call(ctx: RuleContext, operation: PlanOperation, options?: CallOptions): Promise<Exchange>;
  /** The answer has an expected status, and fits what the spec documents for it. */
  conforms(
    ctx: RuleContext,
    exchange: Exchange,
    operation: PlanOperation,
    expected: Expectation,
  ): void;
  /** Throws the violation: what is wrong in one line, the details, then the exchanges that show it. */
  fail(summary: string, details: string[], ...exchanges: Exchange[]): never;
  /** The documented 2xx statuses of an operation. */
  success(operation: PlanOperation): Expectation;
  /** What a create answers: its success, or the documented 201 of a `PUT` under a new key. */
  created(operation: PlanOperation): Expectation;
  /** The 4xx statuses that refuse a request the spec forbids. */
  clientError(operation: PlanOperation): Expectation;
  /** "400 with an Error body", "4xx with a Problem body". */
  errorText(operation: PlanOperation, expected: Expectation): string;
  /** The JSON request schema of an operation (`{}` when it takes none). */
  requestSchema(operation: PlanOperation): Schema;
  /**
   * Finds (or, unless read-only, creates) a record of each collection a body field is named
   * after (`authorId`), once per run, so that valid bodies name records that exist. A
   * collection it cannot get a record of leaves its fields sampled.
   */
  produceIds(ctx: RuleContext): Promise<void>;
  /**
   * Why a body cannot be a valid call: a required field of it is named after a collection
   * `produceIds` got no record of; `undefined` when nothing is missing.
   * @example kit.notMade(setPetOwner, body) // '`ownerId` names a record of owners, and there is none: its list is empty, and the spec has no create for it'
   */
  notMade(operation: PlanOperation, body: unknown): string | undefined;
  /**
   * Why there is no record of a collection to name: its list is empty (or cannot be called),
   * and the run creates none.
   */
  noRecordWhy(ctx: RuleContext, collection: CollectionKit): string;
  /**
   * A valid request body for an operation, every property given (or only the required ones);
   * a field named after a collection holds the id `produceIds` found for it, and an optional
   * one is left out when it found none.
   */
  validBody(
    operation: PlanOperation,
    what: string,
    which?: 'all' | 'required',
    variant?: number,
  ): Record<string, unknown>;
  /** The sent properties the answer does not hold exactly as sent (of those its schema `shown` declares). */
  echoProblems(
    schema: Schema,
    sent: Record<string, unknown>,
    answered: unknown,
    where?: string,
    shown?: Schema,
  ): string[];
  /**
   * The schema of the record an answer of that status holds, out of its envelope (a list's
   * item): what a correct server shows of what was sent. `undefined` when it documents none.
   */
  shownSchema(operation: PlanOperation, status: number): Schema | undefined;
  /** A valid answer of one of `expected` that holds every sent property exactly as sent. */
  echoed(
    ctx: RuleContext,
    exchange: Exchange,
    operation: PlanOperation,
    sent: Record<string, unknown>,
    expected?: Expectation,
  ): void;
  /**
   * Judges a write whose body the interface leaves open: a documented 2xx echoing every sent
   * property exactly, or a 4xx refusing it in the error shape. A 5xx, or a silently altered
   * value, is a violation. Tells whether it was accepted.
   */
  acceptedOrRefused(
    ctx: RuleContext,
    exchange: Exchange,
    operation: PlanOperation,
    sent: Record<string, unknown>,
  ): boolean;
  /** The records of a list answer (unwrapped from the collection's envelope). */
  itemsOf(list: PlanOperation, exchange: Exchange): Record<string, unknown>[];
  /** The record of a collection operation's answer (unwrapped from the collection's envelope). */
  recordOf(operation: PlanOperation, exchange: Exchange): Record<string, unknown>;
  /**
   * The id of the record a create answered: the collection's id property of its body, else
   * the item its `Location` header names (a 201 with an empty body, or one without the id).
   */
  createdId(collection: CollectionKit, exchange: Exchange): unknown;
  /** Creates a record with a valid body (checked as a create must be), for a rule to use. */
  create(
    ctx: RuleContext,
    collection: CollectionKit,
    what: string,
    body?: Record<string, unknown>,
  ): Promise<Creation>;
  /** The path parameters that name a record of the collection. */
  itemParams(collection: CollectionKit, id: unknown): Record<string, unknown>;
  /**
   * A key no record of the collection has yet, for a create under a key the client chooses:
   * new in this run, and read first (404) where the collection has a read.
   */
  freshKey(ctx: RuleContext, collection: CollectionKit): Promise<unknown>;
  /**
   * A record to read: the first the list holds, else one the suite creates (shared by the
   * rules of a run); `undefined` when there is none to read.
   */
  someRecordId(ctx: RuleContext, collection: CollectionKit): Promise<unknown>;
  /** A record the suite created in this run, shared by rules that do not change it. */
  ownRecord(ctx: RuleContext, collection: CollectionKit): Promise<Creation>;
  /**
   * The record of a parent collection that a nested one's requests go under, the same for a
   * whole run: one it lists, else one it creates.
   * @throws {RuleSkipped} when there is none (an empty list in a read-only run).
   */
  parentId(ctx: RuleContext, parent: CollectionKit): Promise<unknown>;
  /**
   * The records of a collection's list, following its pages (a Link header, a next link or
   * cursor in the body, the page or offset parameters the spec declares) until `enough` holds
   * of the records read, the last page, or MAX_PAGES. No order or page size is assumed.
   */
  listPages(
    ctx: RuleContext,
    collection: CollectionKit,
    enough?: (records: Record<string, unknown>[]) => boolean,
  ): Promise<Listing>;
  /** The next list holds each creation, each sent property exactly as sent. */
  listedAsSent(ctx: RuleContext, collection: CollectionKit, creations: Creation[]): Promise<void>;
  /** The next read of each creation answers it with its id and each sent property as sent. */
  readAsSent(ctx: RuleContext, collection: CollectionKit, creations: Creation[]): Promise<void>;
  /** Path parameters naming nothing that exists: for requests that must be refused before they act. */
  madeUpParams(operation: PlanOperation): Record<string, unknown>;
}

/**
 * Builds the kit for a plan. `label` prefixes what the suite creates.
 * @example const kit = createKit(specOf(plan), 'contract-abc');
 */
export function createKit(spec: ContractSpec, label: string): Kit {
  const { plan } = spec;
  const byId = new Map(plan.operations.map((operation) => [operation.operationId, operation]));
  const roles: Roles = new Map();
  const collections = plan.collections.map((collection) => {
    const found: CollectionKit = { plan: collection };
    for (const [action, operationId] of Object.entries(collection.operations)) {
      const operation = byId.get(operationId);
      if (!operation) continue;
      found[action as CollectionAction] = operation;
      roles.set(operationId, { collection: found, action: action as CollectionAction });
    }
    // A PUT of the item path documenting 201 creates under the key the client puts in the path.
    const put = found.replace;
    if (!found.create && put?.method === 'put' && '201' in put.responses) {
      found.create = put;
      found.upsert = true;
      roles.set(put.operationId, { collection: found, action: 'create' });
    }
    return found;
  });

  // A collection below a record of another: its operations take that record's id.
  const scopes = new Map<string, { parent: CollectionKit; parameter: string }>();
  for (const collection of collections) {
    const { parent: above } = collection.plan;
    const parent = above && collections.find((other) => other.plan.name === above.collection);
    if (!above || !parent) continue;
    collection.parent = parent;
    for (const operationId of Object.values(collection.plan.operations))
      scopes.set(operationId, { parent, parameter: above.parameter });
  }

  const base: KitBase = {
    spec,
    plan,
    label,
    roles,
    scopes,
    produced: new Map(),
    unproduced: new Map(),
  };
  // Each part reaches the others through the whole kit, filled in before any rule runs.
  const kit = {} as Kit;
  return Object.assign(
    kit,
    {
      spec,
      plan,
      label,
      collections,
      roleOf: (operation: PlanOperation) => roles.get(operation.operationId),
    },
    kitCalls(base, kit),
    kitJudgements(base, kit),
    kitRecords(base, kit),
    kitListing(base, kit),
  );
}
