// Drives a server that claims to implement an API description, over HTTP: each collection
// through create, list, read, update (PUT and PATCH, when both are there) and delete, then
// every other operation once, its required parameters filled. Nothing here knows one API
// from another; the result is data, for a report or a test to judge.
import { isObject, type Json, type JsonObject } from './document.js';
import { findCollections, preferredBody, type Collection, type ListShape } from './collections.js';
import {
  operationsOf,
  securitySchemesOf,
  type ApiOperation,
  type ApiParameter,
} from './operations.js';
import {
  createValueMaker,
  encodeBody,
  pathText,
  plainText,
  queryPairs,
  type ValueMaker,
} from './values.js';

/** What a request carries to be let in, beside its own parameters. */
export interface Credentials {
  headers?: Record<string, string>;
  query?: Record<string, string>;
  cookies?: Record<string, string>;
  /**
   * `Authorization` for the operations that only HTTP basic (with API keys) lets in, and the
   * basic schemes: `Basic <base64 of user:password>` is sent to them instead of the bearer token.
   */
  basic?: { authorization: string; schemes: readonly string[]; others: readonly string[] };
}

export interface DriveOptions {
  /** The server's base URL, the API's base path included (`http://127.0.0.1:4010/v1`). */
  baseUrl: string;
  /** The description with its `$ref`s resolved (see loadDocument). */
  document: JsonObject;
  credentials?: Credentials;
  /** Seeds the generated bodies and parameters. @default 1 */
  seed?: number;
  /** @default 10000 */
  requestTimeoutMs?: number;
  /** Past this, requests are no longer sent and are counted as unsent. @default 120000 */
  budgetMs?: number;
  /** The collections to drive, instead of those findCollections reads in the document. */
  collections?: readonly Collection[];
  /**
   * Check the round trip, not only the statuses: the list after a create holds the new record
   * (when the list's first page is unfiltered), and a read after the delete answers 404
   * (a step `gone`).
   */
  verify?: boolean;
}

export type StepName = 'create' | 'list' | 'read' | 'update' | 'delete' | 'gone';

export interface StepResult {
  step: StepName;
  /** `POST /pets`. */
  operation: string;
  /** `passed`: a 2xx; `failed`: another answer or none; `blocked`: not sent, for want of an id. */
  outcome: 'passed' | 'failed' | 'blocked';
  status?: number;
  /** Why it failed or was blocked, in a few words. */
  reason?: string;
}

export interface CollectionResult {
  path: string;
  itemPath?: string;
  steps: StepResult[];
}

export interface CallResult {
  operation: string;
  /** The operation called, as the document describes it. */
  api: ApiOperation;
  status?: number;
  /** The JSON body of the answer, when it had one. */
  json?: Json;
  /** No answer: a refused connection, a timeout, an exhausted budget. */
  error?: string;
  /** A few words of the body of a 5xx answer. */
  detail?: string;
}

export interface DriveSummary {
  collections: number;
  /** CRUD steps sent. */
  crudAttempted: number;
  crudPassed: number;
  crudBlocked: number;
  /** Every request sent, CRUD steps and other operations. */
  requests: number;
  status2xx: number;
  status3xx: number;
  status4xx: number;
  status5xx: number;
  /** Requests without an answer. */
  noAnswer: number;
  /** Operations left unsent when the budget ran out. */
  unsent: number;
}

export interface DriveResult {
  collections: CollectionResult[];
  /** The operations that are no CRUD step, each called once. */
  calls: CallResult[];
  summary: DriveSummary;
}

/**
 * How many bodies a create is sent with, at most: the value maker misses some schemas' rules
 * (a `oneOf` of content parts), and a client whose body was refused sends a right one. A
 * conflict gets one more try.
 */
const BODY_TRIES = 3;

function isRetried(status: number | undefined, tries: number): boolean {
  return status === 409 ? tries === 1 : status === 400 || status === 422;
}

/** The error of a request not sent because the budget ran out. */
const UNSENT = 'budget exhausted';

/** One request and what came back. */
interface Exchange {
  status?: number;
  error?: string;
  json?: Json;
  location?: string;
}

interface Context {
  options: Required<Omit<DriveOptions, 'credentials' | 'collections'>> & {
    credentials: Credentials;
  };
  values: ValueMaker;
  deadline: number;
  exchanges: Exchange[];
  /** The path values (parent scope, then id) of a record kept in each parent collection. */
  parents: Map<Collection, Promise<Json[] | undefined>>;
}

/**
 * The credentials to send to a server of this description with one secret: a bearer token
 * in `Authorization` (what the mock checks), and the secret as every API key the description
 * declares in another header, the query or a cookie.
 */
export function credentialsFor(document: JsonObject, secret: string, basic?: string): Credentials {
  const credentials: Credentials & Required<Omit<Credentials, 'basic'>> = {
    headers: { Authorization: `Bearer ${secret}` },
    query: {},
    cookies: {},
  };
  const schemes = securitySchemesOf(document);
  const basicSchemes = schemes.filter(
    (scheme) => scheme.type === 'http' && scheme.scheme === 'basic',
  );
  if (basic !== undefined && basicSchemes.length > 0)
    credentials.basic = {
      authorization: `Basic ${Buffer.from(basic).toString('base64')}`,
      schemes: basicSchemes.map((scheme) => scheme.name),
      // Schemes the bearer token cannot meet: other HTTP schemes (digest...), mutual TLS.
      others: schemes
        .filter(
          (scheme) =>
            (scheme.type === 'http' && scheme.scheme !== 'bearer' && scheme.scheme !== 'basic') ||
            scheme.type === 'mutualTLS',
        )
        .map((scheme) => scheme.name),
    };
  for (const scheme of schemes) {
    if (scheme.type !== 'apiKey' || !scheme.parameterName) continue;
    if (scheme.in === 'query') credentials.query[scheme.parameterName] = secret;
    else if (scheme.in === 'cookie') credentials.cookies[scheme.parameterName] = secret;
    else if (scheme.parameterName.toLowerCase() !== 'authorization')
      credentials.headers[scheme.parameterName] = secret;
  }
  return credentials;
}

/**
 * Whether no alternative of the operation's security is met by the bearer token and the API
 * keys, and one is met with HTTP basic instead.
 */
function needsBasic(operation: ApiOperation, basic: NonNullable<Credentials['basic']>): boolean {
  const blocked = new Set([...basic.schemes, ...basic.others]);
  const metByBearer = operation.security.some((alternative) =>
    alternative.every((name) => !blocked.has(name)),
  );
  return (
    operation.security.length > 0 &&
    !metByBearer &&
    operation.security.some((alternative) =>
      alternative.every((name) => !basic.others.includes(name)),
    )
  );
}

export function labelOf(operation: ApiOperation): string {
  return `${operation.method.toUpperCase()} ${operation.path}`;
}

/** Drives every collection, then every other operation, one request at a time. */
export async function driveApi(options: DriveOptions): Promise<DriveResult> {
  const context: Context = {
    options: {
      seed: 1,
      requestTimeoutMs: 10_000,
      budgetMs: 120_000,
      verify: false,
      ...options,
      credentials: options.credentials ?? {},
    },
    values: createValueMaker(options.seed ?? 1),
    deadline: Date.now() + (options.budgetMs ?? 120_000),
    exchanges: [],
    parents: new Map(),
  };
  const operations = operationsOf(options.document);
  const collections = options.collections ?? findCollections(operations);
  // By label: given collections may hold operations read from another copy of the document.
  const used = new Set<string>();
  const collectionResults: CollectionResult[] = [];
  for (const collection of collections) {
    collectionResults.push(await driveCollection(context, collection, used));
  }
  const calls: CallResult[] = [];
  for (const operation of operations.filter((candidate) => !used.has(labelOf(candidate)))) {
    calls.push(await callOnce(context, operation));
  }
  return { collections: collectionResults, calls, summary: summarize(context, collectionResults) };
}

/** The path parameter names of an operation, in order. */
function parameterNames(operation: ApiOperation): string[] {
  return [...operation.path.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1] ?? '');
}

/**
 * The path values of one collection's operations, kept by position (the collection path's
 * parameters first, then the item's), since its paths may name them differently.
 */
class PathValues {
  constructor(private readonly scope: Json[]) {}

  /** The named values for an operation, the id in the item parameter's place. */
  for(operation: ApiOperation, id?: Json): Record<string, Json> {
    const names = parameterNames(operation);
    const given: Record<string, Json> = {};
    names.forEach((name, index) => {
      const value = index < this.scope.length ? this.scope[index] : undefined;
      if (value !== undefined) given[name] = value;
    });
    const itemName = names[this.scope.length];
    if (id !== undefined && itemName !== undefined) given[itemName] = id;
    return given;
  }

  /** Keeps the values `send` made up for the collection path's parameters, for the next steps. */
  keep(operation: ApiOperation, given: Record<string, Json>, scopeLength: number): void {
    parameterNames(operation)
      .slice(0, scopeLength)
      .forEach((name, index) => {
        if (this.scope[index] === undefined && given[name] !== undefined)
          this.scope[index] = given[name];
      });
  }
}

/** How many parameters a collection's own path has. */
function scopeLengthOf(collection: Collection): number {
  return (collection.path.match(/\{[^{}]+\}/g) ?? []).length;
}

/**
 * The path values of a record of `collection` that stays (its scope, then its id), made with
 * its create (or, without one, the first of its list), its own parent made first.
 */
function keptRecord(context: Context, collection: Collection): Promise<Json[] | undefined> {
  let kept = context.parents.get(collection);
  if (!kept) {
    kept = (async () => {
      const scope = collection.parent ? await keptRecord(context, collection.parent) : [];
      if (scope === undefined) return undefined;
      const values = new PathValues([...scope]);
      const itemParam = collection.itemParam ?? '';
      let id: Json | undefined;
      if (collection.create) {
        const given = values.for(collection.create);
        let body = bodyFor(context, collection.create);
        let exchange = await send(context, collection.create, given, body);
        for (let tries = 1; tries < BODY_TRIES && isRetried(exchange.status, tries); tries++) {
          body = bodyFor(context, collection.create);
          exchange = await send(context, collection.create, given, body);
        }
        values.keep(collection.create, given, scopeLengthOf(collection));
        // An error's body may have an `id` of its own: only a 2xx made a record.
        if (stepOf('create', collection.create, exchange).outcome === 'passed')
          id = createdKey(exchange, body?.value, collection);
      }
      // Without a create, or when it gave no id: the first record of the list (seeded).
      if (id === undefined && collection.list && collection.listShape) {
        const given = values.for(collection.list);
        const exchange = await send(context, collection.list, given);
        values.keep(collection.list, given, scopeLengthOf(collection));
        id = idsIn(exchange.json, collection.listShape, itemParam, collection)[0];
      }
      const made = collection.create ?? collection.list;
      if (id === undefined || !made) return undefined;
      const given = values.for(made);
      return [...parameterNames(made).map((name) => given[name] ?? null), id];
    })();
    context.parents.set(collection, kept);
  }
  return kept;
}

async function driveCollection(
  context: Context,
  collection: Collection,
  used: Set<string>,
): Promise<CollectionResult> {
  const steps: StepResult[] = [];
  const scopeLength = scopeLengthOf(collection);
  const parentValues = collection.parent ? await keptRecord(context, collection.parent) : [];
  // One value per parent parameter, so every step addresses the same parent.
  const values = new PathValues([...(parentValues ?? [])]);
  let id: Json | undefined;
  /** The record the create answered, whose values fill the list's required filters. */
  let created: JsonObject | undefined;
  /** The listed record whose id the item steps use, when the list gave it. */
  let listed: JsonObject | undefined;
  const itemParam = collection.itemParam ?? '';
  const { verify } = context.options;
  const blocked = (step: StepName, operation: ApiOperation, reason: string): StepResult => ({
    step,
    operation: labelOf(operation),
    outcome: 'blocked',
    reason,
  });
  const sendStep = async (
    operation: ApiOperation,
    itemId?: Json,
    body?: Body,
    queryGiven?: Record<string, Json>,
  ) => {
    const given = values.for(operation, itemId);
    const exchange = await send(context, operation, given, body, queryGiven);
    values.keep(operation, given, scopeLength);
    return exchange;
  };

  if (parentValues === undefined) {
    const reason = 'no parent record: its collection gave no id';
    for (const operation of [collection.create, collection.list]) {
      if (!operation) continue;
      used.add(labelOf(operation));
      steps.push(blocked(operation === collection.create ? 'create' : 'list', operation, reason));
    }
    for (const operation of [
      collection.read,
      collection.replace,
      collection.update,
      collection.remove,
    ]) {
      if (!operation) continue;
      used.add(labelOf(operation));
      steps.push(
        blocked(
          operation === collection.read
            ? 'read'
            : operation === collection.remove
              ? 'delete'
              : 'update',
          operation,
          reason,
        ),
      );
    }
    return {
      path: collection.path,
      ...(collection.itemPath ? { itemPath: collection.itemPath } : {}),
      steps,
    };
  }

  if (collection.create) {
    const operation = collection.create;
    used.add(labelOf(operation));
    let body = bodyFor(context, operation);
    let exchange = await sendStep(operation, undefined, body);
    // A conflict (a username or an enum key the seeds hold) is worth one more try, as a client
    // would; so is a body the description refuses (see BODY_TRIES).
    for (let tries = 1; tries < BODY_TRIES && isRetried(exchange.status, tries); tries++) {
      body = bodyFor(context, operation);
      exchange = await sendStep(operation, undefined, body);
    }
    const step = stepOf('create', operation, exchange);
    steps.push(step);
    // A refused create made nothing: the list's first record stands in for it.
    if (step.outcome === 'passed') {
      created = recordIn(exchange.json, itemParam, collection);
      id = createdKey(exchange, body?.value, collection);
    }
  }
  if (collection.list) {
    const operation = collection.list;
    used.add(labelOf(operation));
    const exchange = await sendStep(operation, undefined, undefined, created);
    const step = stepOf('list', operation, exchange);
    if (verify && step.outcome === 'passed' && id !== undefined && collection.listShape) {
      const listed = idsIn(exchange.json, collection.listShape, itemParam, collection);
      if (!listed.some((one) => String(one) === String(id)))
        Object.assign(step, {
          outcome: 'failed',
          reason: `the created record (${JSON.stringify(id)}) is not in the list (${listed.length} records)`,
        });
    }
    steps.push(step);
    if (id === undefined && collection.listShape) {
      id = idsIn(exchange.json, collection.listShape, itemParam, collection)[0];
      listed = recordsIn(exchange.json, collection.listShape).find(
        (record) => id !== undefined && keyNameOf(record, id) !== undefined,
      );
    }
  }
  // The property the id was read from, at the record's top level: an edit writing another
  // value there renames the record (Gitea's variables, renamed by a new `name`).
  const keyName = id === undefined ? undefined : keyNameOf(created ?? listed, id);
  const itemSteps: [StepName, ApiOperation | undefined][] = [
    ['read', collection.read],
    ['update', collection.replace],
    ['update', collection.update],
    ['delete', collection.remove],
  ];
  for (const [step, operation] of itemSteps) {
    if (!operation) continue;
    used.add(labelOf(operation));
    if (id === undefined) {
      steps.push(blocked(step, operation, 'no id: create and list gave none'));
      continue;
    }
    const body = operation.bodies.length > 0 ? bodyFor(context, operation) : undefined;
    const exchange = await sendStep(operation, id, body);
    const result = stepOf(step, operation, exchange);
    if (verify && step === 'read' && result.outcome === 'passed') {
      const read = idIn(exchange.json, itemParam, collection);
      if (read !== undefined && String(read) !== String(id))
        Object.assign(result, {
          outcome: 'failed',
          reason: `read ${JSON.stringify(id)}, got ${JSON.stringify(read)}`,
        });
    }
    steps.push(result);
    // An update may move the record (a renamed user): follow it where the answer says it is.
    // Without a known key property, the key the body wrote under the parameter's name (a
    // user's new `username` for `/user/{username}`), else the answer's, read as the create's was.
    const moved =
      step !== 'update' || result.outcome !== 'passed'
        ? undefined
        : collection.idProperty !== undefined
          ? (idIn(exchange.json, itemParam, collection) ??
            idIn(body?.value, itemParam, keyPlaceOf(collection)))
          : keyAfterUpdate(exchange.json, body?.value, itemParam, collection, keyName);
    if (moved !== undefined) id = moved;
    if (verify && step === 'delete' && result.outcome === 'passed' && collection.read) {
      const again = await sendStep(collection.read, id);
      steps.push({
        step: 'gone',
        operation: labelOf(collection.read),
        outcome: again.status === 404 ? 'passed' : 'failed',
        ...(again.status === undefined ? {} : { status: again.status }),
        ...(again.status === 404
          ? {}
          : { reason: `a read after the delete answered ${again.status ?? again.error}` }),
      });
    }
  }
  return {
    path: collection.path,
    ...(collection.itemPath ? { itemPath: collection.itemPath } : {}),
    steps,
  };
}

async function callOnce(context: Context, operation: ApiOperation): Promise<CallResult> {
  // A body described for a GET (Stripe's empty forms, Chaingateway's JSON) cannot be sent
  // with fetch, which refuses the request: the call is made without it, as the probe does.
  const bodiless = operation.method === 'get' || operation.method === 'head';
  const body = operation.bodies.length > 0 && !bodiless ? bodyFor(context, operation) : undefined;
  const exchange = await send(context, operation, {}, body);
  return {
    operation: labelOf(operation),
    api: operation,
    ...(exchange.status === undefined ? {} : { status: exchange.status }),
    ...(exchange.json === undefined ? {} : { json: exchange.json }),
    ...(exchange.error === undefined ? {} : { error: exchange.error }),
    ...((exchange.status ?? 0) >= 500 && problemOf(exchange.json)
      ? { detail: problemOf(exchange.json).slice(2) }
      : {}),
  };
}

function stepOf(step: StepName, operation: ApiOperation, exchange: Exchange): StepResult {
  if (exchange.error === UNSENT)
    return { step, operation: labelOf(operation), outcome: 'blocked', reason: UNSENT };
  const passed = exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300;
  return {
    step,
    operation: labelOf(operation),
    outcome: passed ? 'passed' : 'failed',
    ...(exchange.status === undefined ? {} : { status: exchange.status }),
    ...(passed
      ? {}
      : { reason: exchange.error ?? `answered ${exchange.status}${problemOf(exchange.json)}` }),
  };
}

/** A few words of an error body, for a reason. */
function problemOf(json: Json | undefined): string {
  if (!isObject(json)) return '';
  const text = [json.message, json.detail, json.title, json.error].find(
    (value) => typeof value === 'string',
  );
  return typeof text === 'string' ? `: ${text.split('\n')[0]?.slice(0, 120)}` : '';
}

export interface Body {
  mediaType: string;
  value: Json;
  schema: JsonObject;
}

function bodyFor(context: Context, operation: ApiOperation): Body | undefined {
  return requestBodyOf(context.values, operation);
}

/** One request as `fetch` takes it. */
export interface PreparedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | FormData | Uint8Array;
}

/** A request body made from the operation's preferred media type, when it takes one. */
export function requestBodyOf(values: ValueMaker, operation: ApiOperation): Body | undefined {
  const chosen = preferredBody(operation);
  if (!chosen) return undefined;
  return {
    mediaType: chosen.mediaType,
    value: values.request(chosen.schema),
    schema: chosen.schema,
  };
}

/**
 * One operation's request, its required parameters filled; `given` names path parameter
 * values (and is filled with those made here).
 */
export function prepareRequest(
  baseUrl: string,
  credentials: Credentials,
  values: ValueMaker,
  operation: ApiOperation,
  given: Record<string, Json> = {},
  body?: Body,
  /** Values for required query parameters, by name (the created record's, for a list's filters). */
  queryGiven: Readonly<Record<string, Json>> = {},
): PreparedRequest {
  const valueOf = (parameter: ApiParameter): Json => {
    if (parameter.in === 'path') return (given[parameter.name] ??= values.parameter(parameter));
    const chosen = parameter.in === 'query' ? queryGiven[parameter.name] : undefined;
    const scalar =
      typeof chosen === 'string' || typeof chosen === 'number' || typeof chosen === 'boolean';
    return scalar ? chosen : values.parameter(parameter);
  };
  const path = operation.path.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
    return pathText(parameter ? valueOf(parameter) : (given[name] ?? 'x'));
  });
  const query = new URLSearchParams(credentials.query);
  const headers: Record<string, string> = {
    Accept: 'application/json, */*;q=0.5',
    ...credentials.headers,
  };
  if (credentials.basic && needsBasic(operation, credentials.basic))
    headers.Authorization = credentials.basic.authorization;
  // An `Accept` the operation documents as a parameter (an enum of media types) is sent as it says.
  const accept = operation.parameters.find(
    (parameter) => parameter.in === 'header' && /^accept$/i.test(parameter.name),
  );
  if (accept) headers.Accept = plainText(values.parameter(accept));
  const cookies: Record<string, string> = { ...credentials.cookies };
  for (const parameter of operation.parameters.filter((p) => p.required && p.in !== 'path')) {
    const value = valueOf(parameter);
    if (parameter.in === 'query')
      for (const [key, text] of queryPairs(parameter, value)) query.append(key, text);
    else if (parameter.in === 'cookie') cookies[parameter.name] = plainText(value);
    // The body's framing is the client's to write: a `Content-Length` the document lists as
    // a parameter (HERE Tracking's shadows) sent as a made-up value did not match the body,
    // and the request was never sent ("Request body length does not match").
    else if (
      !/^(accept|content-type|authorization|content-length|transfer-encoding|host|connection)$/i.test(
        parameter.name,
      )
    )
      headers[parameter.name] = plainText(value);
  }
  const cookieText = Object.entries(cookies)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('; ');
  if (cookieText) headers.Cookie = cookieText;
  const encoded = body ? encodeBody(body.mediaType, body.value, body.schema) : undefined;
  if (encoded?.contentType) headers['Content-Type'] = encoded.contentType;
  const search = query.toString();
  return {
    url: `${baseUrl.replace(/\/+$/, '')}${path}${search ? `?${search}` : ''}`,
    method: operation.method.toUpperCase(),
    headers,
    ...(encoded ? { body: encoded.body } : {}),
  };
}

/**
 * A turn of the event loop, before a request is sent: making a large body holds this
 * process's loop for seconds (DocuSign's recipients, 9 s), longer than the server's keep-alive
 * timeout, and a connection the server closed meanwhile is seen as closed only once the loop
 * turns; without it the request went out on it, and failed with "other side closed".
 */
export async function seeClosedConnections(): Promise<void> {
  // A timer, then an immediate: the loop's poll phase, which reads the server's FIN, lies
  // between them (an immediate alone may come before it, in the same turn).
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setImmediate(resolve));
}

/** Sends one operation, its required parameters filled; `given` names path parameter values. */
async function send(
  context: Context,
  operation: ApiOperation,
  given: Record<string, Json>,
  body?: Body,
  /** Values for required query parameters, by name (the created record's, for a list's filters). */
  queryGiven: Readonly<Record<string, Json>> = {},
): Promise<Exchange> {
  if (Date.now() > context.deadline) return record(context, { error: UNSENT });
  const { credentials, baseUrl, requestTimeoutMs } = context.options;
  const { url, ...request } = prepareRequest(
    baseUrl,
    credentials,
    context.values,
    operation,
    given,
    body,
    queryGiven,
  );
  await seeClosedConnections();
  try {
    const response = await fetch(url, {
      ...request,
      redirect: 'manual',
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    const text = await response.text();
    const location = response.headers.get('location');
    return record(context, {
      status: response.status,
      ...jsonOf(response.headers.get('content-type'), text),
      ...(location ? { location } : {}),
    });
  } catch (err) {
    return record(context, { error: errorText(err) });
  }
}

function record(context: Context, exchange: Exchange): Exchange {
  context.exchanges.push(exchange);
  return exchange;
}

function jsonOf(contentType: string | null, text: string): { json?: Json } {
  if (!text || !/json/i.test(contentType ?? '')) return {};
  try {
    return { json: JSON.parse(text) as Json };
  } catch {
    return {};
  }
}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return (
    `${err.name === 'TimeoutError' ? 'timeout' : err.message}${cause}`.split('\n')[0] ?? 'error'
  );
}

/** Property names that may hold a record's id, for an item parameter of this name. */
function idNames(itemParam: string): string[] {
  const suffix = /(?:^|[a-z0-9_-])(id|uuid|key|slug|name|sid|code)$/i
    .exec(itemParam)?.[1]
    ?.toLowerCase();
  return [
    ...new Set([
      itemParam,
      // The parameter's last word, as a client reads it: Asana's `task_gid` names the `gid`.
      ...lastWordOf(itemParam),
      // Without the record's noun: Lago's `external_customer_id` names the `external_id`.
      ...withoutAWordOf(itemParam),
      'id',
      ...(suffix ? [suffix] : []),
      // Its initials, as a client reads an abbreviated id: a JSON Web Key's `kid` for `{keyId}`.
      ...initialsOf(itemParam),
      'uuid',
      'slug',
      'key',
      'sid',
      LINK,
      'name',
    ]),
  ];
}

/** A parameter of words ending in `id` by the initials of the others (`keyId`: `kid`). */
function initialsOf(itemParam: string): string[] {
  const words = itemParam
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
  if (words.length < 2 || words.at(-1) !== 'id') return [];
  return [
    `${words
      .slice(0, -1)
      .map((word) => word[0] ?? '')
      .join('')}id`,
  ];
}

/** The last word of a parameter of several (`task_gid`: `gid`), when it is an id's word. */
function lastWordOf(itemParam: string): string[] {
  const words = itemParam
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0);
  const last = words.at(-1)?.toLowerCase();
  return words.length > 1 && last !== undefined && ID_WORDS.has(last) ? [last] : [];
}

/**
 * A parameter of three words or more with one of its inner words left out, written as it is
 * (`external_customer_id`: `external_id`; `externalCustomerId`: `externalId`).
 */
function withoutAWordOf(itemParam: string): string[] {
  const words = itemParam
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0);
  if (words.length < 3) return [];
  const snake = /_/.test(itemParam);
  return words.slice(1, -1).map((_, index) => {
    const kept = words.filter((__, at) => at !== index + 1);
    return snake
      ? kept.join('_')
      : kept
          .map((word, at) => (at === 0 ? word : `${word[0]?.toUpperCase() ?? ''}${word.slice(1)}`))
          .join('');
  });
}

/** Words that end a parameter naming a record's id. */
const ID_WORDS = new Set(['id', 'gid', 'uuid', 'guid', 'sid', 'key', 'slug', 'code']);

/** In idNames, the place of the record's own link (a `uri`, `self` or `href` property). */
const LINK = '\u0000link';
const LINK_NAMES = new Set(['uri', 'self', 'href', 'self_link', 'selfLink']);

/** The last segment of a record's own link, when it is a path that ends in a number. */
function linkIn(value: JsonObject): Json | undefined {
  for (const name of LINK_NAMES) {
    const link = value[name];
    // A number, as an id is: a link that ends in a word may end in any field's value.
    if (typeof link === 'string' && /\/\d+\/?$/.test(link.split('?')[0] ?? ''))
      return lastSegment(link);
  }
  return undefined;
}

function lastSegment(link: string | number): Json {
  if (typeof link === 'number') return link;
  const last = link.split('?')[0]?.split('/').filter(Boolean).at(-1);
  if (last === undefined) return link;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function isId(value: Json | undefined): value is string | number {
  return (typeof value === 'string' && value.length > 0) || typeof value === 'number';
}

/** Where a record's key is read (a Collection is one). */
interface KeyPlace {
  /** The property that holds it, when known; else one named like the item parameter or an id. */
  idProperty?: string | undefined;
  /** The objects of the record that hold it (see Collection.idWithin). */
  idWithin?: readonly string[] | undefined;
  /** Whether the item path takes only an integer: a text of other characters is no key of it. */
  integerKey?: boolean | undefined;
  /** Whether the value read is already the one inside a wrapper: a wrapper is one level, not two. */
  wrapped?: boolean;
}

/** The key's place but for `integerKey`: where a body a client wrote holds the key. */
function keyPlaceOf({ idProperty, idWithin }: KeyPlace): KeyPlace {
  return { idProperty, idWithin };
}

/**
 * The id of a record, at its top level or inside a one-record wrapper (`{data: {...}}`): its
 * `idProperty` when known, else a property named like `itemParam` or like an id.
 */
export function idIn(
  value: Json | undefined,
  itemParam: string,
  place: KeyPlace = {},
): Json | undefined {
  if (!isObject(value)) return undefined;
  const { idProperty, idWithin = [], integerKey = false, wrapped = false } = place;
  const [holder, ...rest] = idWithin;
  if (holder !== undefined && isObject(value[holder]))
    return idIn(value[holder], itemParam, { idProperty, idWithin: rest, integerKey });
  const isKey = (candidate: Json | undefined): candidate is string | number =>
    isId(candidate) && fitsPath(candidate, integerKey);
  const names = idProperty === undefined ? idNames(itemParam) : [idProperty];
  // The property the parameter's last words name, as the description reads: DigitalOcean's
  // `{replica_name}` is a replica's `name` (beside its `id`), `{floating_ip}` an `ip`.
  const ending =
    idProperty === undefined
      ? (endingIn(value, itemParam, integerKey) ?? runTogetherIn(value, itemParam))
      : undefined;
  if (ending !== undefined) return ending;
  for (const name of names) {
    // A record's own link holds its id as its last segment (Vimeo's `uri: "/videos/7"`).
    if (name === LINK && idProperty === undefined) {
      const link = linkIn(value);
      if (link !== undefined) return link;
    } else if (isKey(value[name]))
      return LINK_NAMES.has(name) ? lastSegment(value[name]) : value[name];
  }
  // The one property named as the parameter with words before it: `{exception_id}` of an
  // `event_exception_id`, as a client reads it; in the record itself, not in one of its objects
  // (a service's `spec.externalName` is no `{name}`).
  const qualified =
    idProperty === undefined && !wrapped ? qualifiedIn(value, itemParam) : undefined;
  if (qualified !== undefined) return qualified;
  // The one object inside that holds an id: a wrapper may carry others (Apideck's `_raw: {}`).
  // Not deeper: the `name` of a commit's `verification.signer` is no file's path.
  if (wrapped) return undefined;
  const ids = Object.values(value)
    .filter(isObject)
    .map((inner) => idIn(inner, itemParam, { ...place, wrapped: true }))
    .filter((id) => id !== undefined);
  return ids.length === 1 ? ids[0] : undefined;
}

/** The id under the property named by the parameter's words, the longest ending first. */
function endingIn(value: JsonObject, itemParam: string, integerKey = false): Json | undefined {
  const name = endingNameIn(value, itemParam, integerKey);
  return name === undefined ? undefined : value[name];
}

/** The property named by the parameter's words that holds an id, the longest ending first. */
function endingNameIn(
  value: JsonObject,
  itemParam: string,
  integerKey = false,
): string | undefined {
  const byWords = new Map(Object.keys(value).map((name) => [wordsIn(name).join(' '), name]));
  const words = wordsIn(itemParam);
  for (let start = 0; start < words.length; start++) {
    const name = byWords.get(words.slice(start).join(' '));
    const held = name === undefined ? undefined : value[name];
    if (name !== undefined && isId(held) && fitsPath(held, integerKey)) return name;
  }
  return undefined;
}

/**
 * Whether a value can be put in the item path: one that takes an integer takes no other text,
 * and a client reads a record's key where it finds one that fits (Jira's option `id: "10001"`,
 * beside an `optionId` of free text).
 */
function fitsPath(value: string | number, integerKey: boolean): boolean {
  return !integerKey || typeof value === 'number' || /^-?[0-9]+$/.test(value);
}

/**
 * The id under the property a one-word parameter ends in, its words run together (`{filepath}`
 * names a file's `path`, beside its `name`), the longest such property.
 */
function runTogetherIn(value: JsonObject, itemParam: string): Json | undefined {
  const [only, ...others] = wordsIn(itemParam);
  if (only === undefined || others.length > 0) return undefined;
  const [longest] = Object.keys(value)
    .filter((name) => {
      const joined = wordsIn(name).join('');
      return joined.length >= 2 && joined.length < only.length && only.endsWith(joined);
    })
    .sort((a, b) => wordsIn(b).join('').length - wordsIn(a).join('').length);
  return longest !== undefined && isId(value[longest]) ? value[longest] : undefined;
}

/** The id under the one property whose words end in all the parameter's, after others. */
function qualifiedIn(value: JsonObject, itemParam: string): Json | undefined {
  const words = wordsIn(itemParam).join(' ');
  const found = Object.keys(value).filter((name) => wordsIn(name).join(' ').endsWith(` ${words}`));
  const [only] = found;
  return found.length === 1 && only !== undefined && isId(value[only]) ? value[only] : undefined;
}

function wordsIn(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/** The record holding the id, at the top level or inside a one-record wrapper. */
function recordIn(
  value: Json | undefined,
  itemParam: string,
  place: KeyPlace,
): JsonObject | undefined {
  if (!isObject(value)) return undefined;
  const { idProperty, idWithin = [], wrapped = false } = place;
  const [holder] = idWithin;
  if (
    holder !== undefined &&
    idIn(value[holder], itemParam, { idProperty, idWithin: idWithin.slice(1) })
  )
    return value;
  const names = idProperty === undefined ? idNames(itemParam) : [idProperty];
  if (names.some((name) => isId(value[name]))) return value;
  if (wrapped) return undefined;
  const records = Object.values(value)
    .filter(isObject)
    .map((inner) => recordIn(inner, itemParam, { ...place, wrapped: true }))
    .filter((record) => record !== undefined);
  return records.length === 1 ? records[0] : undefined;
}

/**
 * The key a create body wrote, when the answer tells none: the key property, else the one the
 * item parameter names (a body's `name` is no `{petId}`).
 */
function sentIdIn(value: Json | undefined, itemParam: string, place: KeyPlace): Json | undefined {
  if (!isObject(value)) return undefined;
  return place.idProperty === undefined && place.idWithin === undefined
    ? endingIn(value, itemParam)
    : idIn(value, itemParam, keyPlaceOf(place));
}

/**
 * The key of the record a create that passed made: in its answer, else in what it sent (under
 * the collection's noun, or its key), else the last segment of its Location.
 */
function createdKey(
  exchange: Exchange,
  sent: Json | undefined,
  collection: Collection,
): Json | undefined {
  const itemParam = collection.itemParam ?? '';
  return (
    idIn(exchange.json, itemParam, collection) ??
    ownIdIn(sent, collection) ??
    sentIdIn(sent, itemParam, collection) ??
    idInLocation(exchange.location)
  );
}

/**
 * Where a record is after an update, its key property unknown: at the key the body wrote under
 * the parameter's name (a user's new `username`), unless the answer shows the record kept
 * another there (Jira's field option answers `id: 3` to a body naming `id: 546`); else at
 * the key the answer holds.
 */
function keyAfterUpdate(
  answer: Json | undefined,
  sent: Json | undefined,
  itemParam: string,
  collection: Collection,
  /** The record's top-level property its key was read from: an edit writing it renames it. */
  keyName: string | undefined,
): Json | undefined {
  const { idWithin, integerKey } = collection;
  const written = isObject(sent) ? endingNameIn(sent, itemParam, integerKey) : undefined;
  if (written === undefined || !isObject(sent))
    return keyWritten(sent, keyName) ?? idIn(answer, itemParam, { idWithin, integerKey });
  const told = recordIn(answer, itemParam, { idWithin })?.[written];
  return isId(told) && fitsPath(told, integerKey ?? false) ? told : sent[written];
}

/**
 * The id a create body gives its record under the collection's noun, when the answer holds
 * none: Mojaloop's `POST /quotes` answers 202 with no body, and the quote is `quoteId` of what
 * the client sent (`/quotes/{ID}`).
 */
function ownIdIn(value: Json | undefined, collection: Collection): Json | undefined {
  if (!isObject(value) || collection.idProperty !== undefined) return undefined;
  const noun = (
    collection.path
      .split('/')
      .filter((segment) => !segment.includes('{'))
      .at(-1) ?? ''
  )
    .replace(/\.[A-Za-z0-9]+$/, '')
    .replace(/ies$/, 'y')
    .replace(/s$/, '');
  if (noun === '') return undefined;
  const names = [`${noun}Id`, `${noun}_id`, `${noun}ID`];
  const found = names.map((name) => value[name]).find(isId);
  return found;
}

/** The top-level property of a record that holds `id`. */
function keyNameOf(record: Json | undefined, id: Json): string | undefined {
  if (!isObject(record)) return undefined;
  return Object.keys(record).find(
    (name) => isId(record[name]) && String(record[name]) === String(id),
  );
}

/** The key a body writes under the property the record's key was read from. */
function keyWritten(body: Json | undefined, keyName: string | undefined): Json | undefined {
  if (!isObject(body) || keyName === undefined) return undefined;
  const value = body[keyName];
  return isId(value) ? value : undefined;
}

function recordsIn(value: Json | undefined, shape: ListShape): JsonObject[] {
  const records =
    shape.kind === 'array' ? value : isObject(value) ? value[shape.property] : undefined;
  return Array.isArray(records) ? records.filter(isObject) : [];
}

function idInLocation(location: string | undefined): Json | undefined {
  const last = location?.split('?')[0]?.split('/').filter(Boolean).at(-1);
  return last ? decodeURIComponent(last) : undefined;
}

function idsIn(
  value: Json | undefined,
  shape: ListShape,
  itemParam: string,
  place: KeyPlace,
): Json[] {
  const records =
    shape.kind === 'array' ? value : isObject(value) ? value[shape.property] : undefined;
  if (!Array.isArray(records)) return [];
  return (
    records
      // A list of names (`["Go", "Node"]` beside `/templates/{name}`) lists its records' keys.
      .map((record) => (isId(record) ? record : idIn(record, itemParam, place)))
      .filter((id): id is Json => id !== undefined)
  );
}

function summarize(context: Context, collections: CollectionResult[]): DriveSummary {
  const steps = collections.flatMap((collection) => collection.steps);
  const answered = context.exchanges.filter((exchange) => exchange.status !== undefined);
  const between = (low: number) =>
    answered.filter(
      (exchange) => (exchange.status ?? 0) >= low && (exchange.status ?? 0) < low + 100,
    ).length;
  const unsent = context.exchanges.filter((exchange) => exchange.error === UNSENT).length;
  return {
    collections: collections.length,
    crudAttempted: steps.filter((step) => step.outcome !== 'blocked').length,
    crudPassed: steps.filter((step) => step.outcome === 'passed').length,
    crudBlocked: steps.filter((step) => step.outcome === 'blocked').length,
    requests: context.exchanges.length - unsent,
    status2xx: between(200),
    status3xx: between(300),
    status4xx: between(400),
    status5xx: between(500),
    noAnswer: context.exchanges.length - answered.length - unsent,
    unsent,
  };
}
