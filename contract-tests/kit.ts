import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { article } from './bodies.js';
import {
  describeScheme,
  emptyCarrier,
  kindOf,
  optionFor,
  secretOf,
  validCarrier,
  type Carrier,
} from './credentials.js';
import { formatExchange, send, type Exchange } from './http.js';
import { MAX_PAGES, nextPage } from './paging.js';
import {
  documented4xx,
  isOpen,
  jsonRequestOf,
  jsonResponseOf,
  responseFor,
  type CollectionAction,
  type ContractPlan,
  type PlanCollection,
  type PlanOperation,
  type RuleFamily,
  type Schema,
} from './plan.js';
import type { RuleContext } from './rule.js';
import type { ContractTarget } from './target.js';
import { sampleBody, sampleValue } from './samples.js';
import { keyword, propertiesOf, textKeyword, writableProperties } from './schema-parts.js';
import { schemaName, type ContractSpec } from './spec.js';
import { ContractViolation, RuleSkipped } from './verdicts.js';

/** The statuses an answer may have, and how a report names them ("401", "4xx"). */
export interface Expectation {
  label: string;
  accepts(status: number): boolean;
}

/** What decides which credentials the suite holds. */
type Held = Pick<ContractTarget, 'credentials' | 'refusedSchemes'>;

/** Options of one call. */
export interface CallOptions {
  /** Values of path, query, header and cookie parameters; required ones left out are sampled. */
  params?: Record<string, unknown>;
  /** The credentials sent: the valid ones when `undefined`, none when `null`. */
  auth?: Carrier | null;
  /** Sent as is (a JSON text, or anything else); `undefined` sends no body. */
  body?: string | undefined;
  /** The Content-Type of the body: the operation's JSON media type unless given. */
  contentType?: string;
  /**
   * A URL under the base URL to send to instead of the operation's path and parameters: a
   * next page's link, which holds its own query.
   */
  url?: string;
}

/** The records of a list, page after page, and the answers that held them. */
export interface Listing {
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
  /** The credential the suite holds for a scheme, or `undefined` (not given, refused, not sendable). */
  secret(target: Held, scheme: string): string | undefined;
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
  /** The 4xx statuses that refuse a request the spec forbids. */
  clientError(operation: PlanOperation): Expectation;
  /** "400 with an Error body", "4xx with a Problem body". */
  errorText(operation: PlanOperation, expected: Expectation): string;
  /** The JSON request schema of an operation (`{}` when it takes none). */
  requestSchema(operation: PlanOperation): Schema;
  /** A valid request body for an operation, every property given (or only the required ones). */
  validBody(
    operation: PlanOperation,
    what: string,
    which?: 'all' | 'required',
    variant?: number,
  ): Record<string, unknown>;
  /** The sent properties the answer does not hold exactly as sent. */
  echoProblems(
    schema: Schema,
    sent: Record<string, unknown>,
    answered: unknown,
    where?: string,
  ): string[];
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
  const roles = new Map<string, { collection: CollectionKit; action: CollectionAction }>();
  const collections = plan.collections.map((collection) => {
    const found: CollectionKit = { plan: collection };
    for (const [action, operationId] of Object.entries(collection.operations)) {
      const operation = byId.get(operationId);
      if (!operation) continue;
      found[action as CollectionAction] = operation;
      roles.set(operationId, { collection: found, action: action as CollectionAction });
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

  const secret: Kit['secret'] = (target, name) => {
    const scheme = plan.securitySchemes[name];
    if (!scheme || name in target.refusedSchemes) return undefined;
    return secretOf(scheme, target.credentials);
  };

  const validAuth = (target: Held, operation: PlanOperation): Carrier | undefined => {
    for (const requirement of operation.security) {
      if (Object.keys(requirement).length === 0) continue;
      const carrier = validCarrier(requirement, plan.securitySchemes, (name) =>
        secret(target, name),
      );
      if (carrier) return carrier;
    }
    return isOpen(operation) ? emptyCarrier() : undefined;
  };

  const kit: Kit = {
    spec,
    plan,
    label,
    collections,
    roleOf: (operation) => roles.get(operation.operationId),
    secret,

    name(operation, families, text) {
      const numbers = [
        ...new Set(
          (Array.isArray(families) ? families : families ? [families] : [])
            .map((family) => plan.ruleNumbers[family])
            .filter((n): n is number => n !== undefined),
        ),
      ].sort((a, b) => a - b);
      const rule =
        numbers.length === 0
          ? ''
          : numbers.length === 1
            ? ` rule ${numbers[0]}`
            : ` rules ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
      return `${operation.operationId}${rule}: ${text}`;
    },

    cannotCall(target, operation) {
      if (validAuth(target, operation)) return undefined;
      const reasons = operation.security.flatMap((requirement) =>
        Object.keys(requirement)
          .filter((name) => secret(target, name) === undefined)
          .map((name) => {
            const scheme = plan.securitySchemes[name];
            if (!scheme) return `the scheme ${name}, which the spec does not define`;
            const refused = target.refusedSchemes[name];
            if (refused) return `${describeScheme(scheme)} (${name}), ${refused}`;
            const option = optionFor(scheme);
            return option
              ? `${describeScheme(scheme)} (${name}), and no credential was given for it: give ${option}`
              : `${describeScheme(scheme)} (${name}), which the suite cannot send`;
          }),
      );
      return `${operation.operationId} needs ${[...new Set(reasons)].join('; or ')}`;
    },

    async call(ctx, operation, options = {}) {
      const auth =
        options.auth === undefined
          ? (validAuth(ctx.target, operation) ??
            (() => {
              throw new RuleSkipped(kit.cannotCall(ctx.target, operation)!);
            })())
          : (options.auth ?? emptyCarrier());
      let params = options.params ?? {};
      const scope = scopes.get(operation.operationId);
      if (scope && options.url === undefined && !(scope.parameter in params))
        params = { ...params, [scope.parameter]: await kit.parentId(ctx, scope.parent) };
      let path = operation.path;
      const query: [string, string][] = [];
      const link =
        options.url === undefined ? undefined : underBase(ctx.target.baseUrl, options.url);
      if (link) {
        path = link.path;
        query.push(...link.query);
      }
      const headers: Record<string, string> = {};
      const cookies: [string, string][] = [];
      for (const parameter of operation.parameters) {
        if (link && (parameter.in === 'path' || parameter.in === 'query')) continue;
        const given = parameter.name in params;
        if (!given && !parameter.required) continue;
        const value = given
          ? params[parameter.name]
          : sampleValue(parameter.schema, `${label} ${parameter.name}`);
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        if (parameter.in === 'path')
          path = path.replace(`{${parameter.name}}`, encodeURIComponent(text));
        else if (parameter.in === 'query') query.push([parameter.name, text]);
        else if (parameter.in === 'header') headers[parameter.name] = text;
        else cookies.push([parameter.name, text]);
      }
      Object.assign(headers, auth.headers);
      cookies.push(...auth.cookies);
      if (cookies.length > 0)
        headers.Cookie = cookies
          .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
          .join('; ');
      const accepted = new Set(
        Object.values(operation.responses).flatMap((response) => Object.keys(response.content)),
      );
      headers.Accept = accepted.size > 0 ? [...accepted].join(', ') : 'application/json';
      if (options.body !== undefined || options.contentType)
        headers['Content-Type'] =
          options.contentType ?? jsonRequestOf(operation)?.mediaType ?? 'application/json';
      const exchange = await send(ctx, {
        method: operation.method,
        path,
        query: [...query, ...auth.query],
        headers,
        body: options.body,
        secrets: auth.secrets,
      });
      ctx.heard?.(operation.operationId, exchange.status);
      return exchange;
    },

    conforms(ctx, exchange, operation, expected) {
      if (!expected.accepts(exchange.status)) {
        kit.fail(
          `${exchange.status} answers where the spec wants ${expected.label}`,
          [`expected status ${expected.label}, got ${exchange.status}`],
          exchange,
        );
      }
      const problems = spec.checkAnswer(operation, exchange);
      if (problems.length > 0)
        kit.fail(
          problems[0]!.what,
          problems.flatMap((problem) => problem.details),
          exchange,
        );
      if (exchange.status === 401) adviseOnChallenge(ctx, exchange, operation, plan);
    },

    fail(summary, details, ...exchanges) {
      throw new ContractViolation(
        [summary, ...details, '', ...exchanges.map(formatExchange)].join('\n'),
      );
    },

    success(operation) {
      const keys = Object.keys(operation.responses);
      const exact = keys.filter((key) => /^2\d\d$/.test(key)).map(Number);
      if (exact.length > 0 && !keys.some((key) => /^2xx$/i.test(key)))
        return { label: exact.join(' or '), accepts: (status) => exact.includes(status) };
      return { label: '2xx', accepts: (status) => status >= 200 && status < 300 };
    },

    clientError(operation) {
      const documented: number[] = documented4xx(operation).filter(
        (status) => status === 400 || status === 422,
      );
      if (documented.length > 0)
        return { label: documented.join(' or '), accepts: (status) => documented.includes(status) };
      // Not an answer about the body: the credential, the path, the method, the rate.
      const unrelated = [401, 403, 404, 405, 429];
      return {
        label: '4xx',
        accepts: (status) => status >= 400 && status < 500 && !unrelated.includes(status),
      };
    },

    errorText(operation, expected) {
      const status = Number(/^\d{3}/.exec(expected.label)?.[0] ?? 400);
      const schema = jsonResponseOf(responseFor(operation, status)?.response);
      const name = schema ? schemaName(schema) : undefined;
      return name && name !== 'documented'
        ? `${expected.label} with ${article(name)} body`
        : `${expected.label} in the spec's error shape`;
    },

    requestSchema: (operation) => jsonRequestOf(operation)?.schema ?? {},

    validBody(operation, what, which = 'all', variant = 0) {
      const role = roles.get(operation.operationId);
      let schema = kit.requestSchema(operation);
      // A patch schema that names no property (`type: object`) patches the record's.
      if (Object.keys(propertiesOf(schema)).length === 0 && role && operation.method === 'patch')
        schema = role.collection.plan.schema;
      const body = sampleBody(schema, `${label} ${what}`, which, variant);
      return (
        typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}
      ) as Record<string, unknown>;
    },

    echoProblems(schema, sent, answered, where = 'answered') {
      const got = (typeof answered === 'object' && answered !== null ? answered : {}) as Record<
        string,
        unknown
      >;
      const declared = writableProperties(schema);
      return Object.keys(sent)
        .filter((name) => name in declared && !sameValue(declared[name]!, sent[name], got[name]))
        .map(
          (name) =>
            `\`${name}\` was sent as ${JSON.stringify(sent[name])}, ${where} as ${got[name] === undefined ? '(absent)' : JSON.stringify(got[name])}`,
        );
    },

    echoed(ctx, exchange, operation, sent, expected = kit.success(operation)) {
      kit.conforms(ctx, exchange, operation, expected);
      const schema = echoSchema(operation);
      const problems = kit.echoProblems(schema, sent, kit.recordOf(operation, exchange));
      if (problems.length > 0) kit.fail('sent values answered altered', problems, exchange);
    },

    acceptedOrRefused(ctx, exchange, operation, sent) {
      const refused = kit.clientError(operation);
      if (refused.accepts(exchange.status)) {
        kit.conforms(ctx, exchange, operation, refused);
        return false;
      }
      const success = kit.success(operation);
      if (!success.accepts(exchange.status))
        kit.fail(
          `${exchange.status} answers where the spec wants ${success.label} or ${refused.label}`,
          [
            `expected ${success.label} echoing the body exactly, or ${kit.errorText(operation, refused)}; got ${exchange.status}`,
          ],
          exchange,
        );
      kit.echoed(ctx, exchange, operation, sent, success);
      return true;
    },

    itemsOf(list, exchange) {
      const items = unwrap(list, exchange.json);
      return Array.isArray(items) ? (items as Record<string, unknown>[]) : [];
    },

    recordOf(operation, exchange) {
      const record = unwrap(operation, exchange.json);
      return (typeof record === 'object' && record !== null ? record : {}) as Record<
        string,
        unknown
      >;
    },

    async create(ctx, collection, what, body) {
      const operation = collection.create;
      if (!operation) throw new RuleSkipped(`${collection.plan.name} has no create operation`);
      const sent = body ?? kit.validBody(operation, what);
      const exchange = await kit.call(ctx, operation, { body: JSON.stringify(sent) });
      kit.echoed(ctx, exchange, operation, sent);
      const id = kit.recordOf(operation, exchange)[collection.plan.idProperty];
      if (id === undefined)
        kit.fail(
          `created records without their ${collection.plan.idProperty}`,
          [`the answer to a create holds no \`${collection.plan.idProperty}\``],
          exchange,
        );
      return { exchange, sent, id };
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
        throw new RuleSkipped(
          `no ${parent.plan.name} record to go under: its list is empty, and ${ctx.target.readOnly ? 'read-only runs create none' : 'the suite cannot create one'}`,
        );
      return id;
    },

    ownRecord(ctx, collection) {
      return shared(ctx, `own ${collection.plan.name}`, () =>
        kit.create(ctx, collection, 'record'),
      );
    },

    async listPages(ctx, collection, enough = () => false) {
      const list = collection.list!;
      const { idProperty } = collection.plan;
      const records: Record<string, unknown>[] = [];
      const pages: Exchange[] = [];
      const seen = new Set<string>();
      let ask: { params?: Record<string, unknown>; url?: string } = { params: {} };
      let serverPaged = false;
      while (pages.length < MAX_PAGES) {
        const page = await kit.call(ctx, list, ask);
        kit.conforms(ctx, page, list, kit.success(list));
        pages.push(page);
        const items = kit.itemsOf(list, page);
        const fresh = items.filter((record) => !seen.has(key(record[idProperty])));
        // Some records new, some from a page before: the pages overlap at their boundary (a
        // page all of old ones is a server ignoring what asks for the next, and ends it).
        // Only where the server said where the next page starts: a page or offset the suite
        // counts shifts rightly when another client writes between two reads.
        if (serverPaged && fresh.length > 0 && fresh.length < items.length && pages.length > 1)
          kit.fail(
            'pages that repeat a record at their boundary',
            [
              `page ${pages.length} holds ${idProperty} ${items
                .filter((record) => !fresh.includes(record))
                .map((record) => JSON.stringify(record[idProperty]))
                .join(', ')} again, which a page before held`,
            ],
            pages.at(-2)!,
            page,
          );
        for (const record of fresh) seen.add(key(record[idProperty]));
        records.push(...items);
        // A page of nothing new: the last, or a server that ignores what asks for the next.
        if (enough(records) || (pages.length > 1 && fresh.length === 0)) break;
        const next = nextPage(list, page, ask.params ?? {}, items);
        if (!next) break;
        serverPaged = next.kind === 'link' || next.counted !== true;
        if (next.kind === 'params') ask = { params: next.params };
        else if (underBase(ctx.target.baseUrl, next.url)) ask = { url: next.url };
        // A next link elsewhere: the credentials are not sent there.
        else break;
      }
      return { records, pages };
    },

    async listedAsSent(ctx, collection, creations) {
      const list = collection.list;
      if (creations.length === 0 || !list) return;
      const { idProperty } = collection.plan;
      const wanted = new Set(creations.map(({ id }) => key(id)));
      const { records, pages } = await kit.listPages(ctx, collection, (read) =>
        [...wanted].every((id) => read.some((record) => key(record[idProperty]) === id)),
      );
      const listed = pages.at(-1)!;
      const pagesRead =
        pages.length === 1 ? 'the next list' : `the next list (${pages.length} pages read)`;
      const byId = new Map(records.map((record) => [key(record[idProperty]), record]));
      for (const { exchange, sent, id } of creations) {
        const found = byId.get(key(id));
        if (!found)
          kit.fail(
            'created records missing from the next list',
            [`the created record (${idProperty} ${JSON.stringify(id)}) is not in ${pagesRead}`],
            exchange,
            listed,
          );
        const problems = kit.echoProblems(
          echoSchema(collection.create ?? list),
          sent,
          found,
          `listed (${idProperty} ${JSON.stringify(id)})`,
        );
        if (problems.length > 0)
          kit.fail('listed values altered from what was sent', problems, exchange, listed);
      }
    },

    async readAsSent(ctx, collection, creations) {
      const read = collection.read;
      if (!read) return;
      const { idProperty } = collection.plan;
      for (const { exchange, sent, id } of creations) {
        const answer = await kit.call(ctx, read, { params: kit.itemParams(collection, id) });
        if (answer.status === 404)
          kit.fail(
            'created records not found when read',
            [
              `the created record (${idProperty} ${JSON.stringify(id)}) is not found by ${read.operationId}`,
            ],
            exchange,
            answer,
          );
        kit.conforms(ctx, answer, read, kit.success(read));
        const record = kit.recordOf(read, answer);
        const problems = [
          ...(key(record?.[idProperty]) === key(id)
            ? []
            : [
                `the read answers ${idProperty} ${JSON.stringify(record?.[idProperty])} for ${JSON.stringify(id)}`,
              ]),
          ...kit.echoProblems(echoSchema(collection.create ?? read), sent, record, 'read back'),
        ];
        if (problems.length > 0)
          kit.fail('read values altered from what was sent', problems, exchange, answer);
      }
    },

    madeUpParams(operation) {
      return Object.fromEntries(
        operation.parameters
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => [parameter.name, madeUpValue(parameter.schema, label)]),
      );
    },
  };

  /** What an answer holds, out of the envelope of its collection's action. */
  function unwrap(operation: PlanOperation, json: unknown): unknown {
    const role = roles.get(operation.operationId);
    const property = role && role.collection.plan.envelopes[role.action];
    if (property === undefined) return json;
    return typeof json === 'object' && json !== null
      ? (json as Record<string, unknown>)[property]
      : undefined;
  }

  /** The schema a write's answer echoes: its request schema, else the record's. */
  function echoSchema(operation: PlanOperation): Schema {
    const role = roles.get(operation.operationId);
    const request = jsonRequestOf(operation)?.schema;
    if (request && Object.keys(propertiesOf(request)).length > 0) return request;
    return role?.collection.plan.schema ?? request ?? {};
  }

  return kit;
}

/**
 * A URL under the base URL as the path (relative to it) and the query it holds; `undefined`
 * for a URL elsewhere, where the suite sends no credential.
 */
function underBase(
  baseUrl: string,
  url: string,
): { path: string; query: [string, string][] } | undefined {
  const parsed = new URL(url, `${baseUrl}/`);
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  if (parsed.origin !== base.origin || !parsed.pathname.startsWith(`${basePath}/`))
    return undefined;
  return { path: parsed.pathname.slice(basePath.length), query: [...parsed.searchParams] };
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
function key(id: unknown): string {
  return `${typeof id}:${JSON.stringify(id)}`;
}

/** Whether a value came back as sent: exactly, or as the same instant for a date-time. */
function sameValue(schema: Schema, sent: unknown, got: unknown): boolean {
  if (isDeepStrictEqual(sent, got)) return true;
  if (
    textKeyword(schema, 'format') === 'date-time' &&
    typeof sent === 'string' &&
    typeof got === 'string'
  )
    return !Number.isNaN(Date.parse(sent)) && Date.parse(sent) === Date.parse(got);
  return false;
}

/** A path parameter value that names nothing: beyond what a deployment holds, of the right type. */
function madeUpValue(schema: Schema, label: string): unknown {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') || types.includes('number'))
    return Math.min(keyword(schema, 'maximum') ?? 987_654_321, 987_654_321);
  if (textKeyword(schema, 'format') === 'uuid') return randomUUID();
  if (textKeyword(schema, 'enum') || textKeyword(schema, 'pattern'))
    return sampleValue(schema, label);
  return `${label}-none`.replace(/\s+/g, '-');
}

/** HTTP asks every 401 to name the scheme it wants; specs seldom promise it. */
function adviseOnChallenge(
  ctx: RuleContext,
  exchange: Exchange,
  operation: PlanOperation,
  plan: ContractPlan,
): void {
  const challenge = exchange.headers['www-authenticate'];
  if (challenge === undefined) {
    ctx.advise(
      '401 answers carry no WWW-Authenticate header, which HTTP asks of every 401 (RFC 9110, section 11.6.1)',
    );
    return;
  }
  const wanted = new Set(
    operation.security.flatMap((requirement) =>
      Object.keys(requirement).flatMap((name) => {
        const scheme = plan.securitySchemes[name];
        const kind = scheme && kindOf(scheme);
        return kind === 'bearer' ? ['bearer'] : kind === 'basic' ? ['basic'] : [];
      }),
    ),
  );
  const offered = challenge.toLowerCase();
  if (
    wanted.size > 0 &&
    ![...wanted].some((scheme) => new RegExp(`(^|[\\s,])${scheme}\\b`).test(offered))
  )
    ctx.advise(
      `401 answers challenge with "${challenge}", not the ${[...wanted].map((s) => s[0]!.toUpperCase() + s.slice(1)).join(' or ')} scheme the interface uses`,
    );
}
