/**
 * The plan: what the suite knows of the interface, as plain JSON data. `petstore-kit
 * contract` builds it from the spec with the mock's own reading of OpenAPI (src/cli/contract-plan.ts:
 * every version the mock loads, the collections the mock infers) and hands it to the suite
 * (contract-tests/suite.ts); the rules read nothing else, and speak only HTTP.
 *
 * The format is written twice, once on each side of that JSON boundary (the suite imports
 * nothing from src/); test/contract-plan.test.ts holds the two equal.
 */

/** A JSON Schema as the spec writes it, `$ref`s resolved (a recursive one cut to `{}`). */
export interface Schema {
  type?: string | string[];
  required?: string[];
  properties?: Record<string, Schema>;
  readOnly?: boolean;
  writeOnly?: boolean;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  enum?: unknown[];
  format?: string;
  /** The name of the spec's component this schema is (`Error`, `Category`), when it is one. */
  'x-schema-name'?: string;
  [keyword: string]: unknown;
}

/** Lower case: a Path Item's method key (3.2 adds `query`), or one its `additionalOperations` names. */
export type HttpMethod =
  | 'get'
  | 'put'
  | 'post'
  | 'delete'
  | 'options'
  | 'head'
  | 'patch'
  | 'trace'
  | 'query'
  | (string & {});

/** One parameter of an operation. */
export interface PlanParameter {
  name: string;
  in: 'path' | 'query' | 'querystring' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
  /**
   * How its value is written (OpenAPI's `style`: `form`, `simple`, `label`, `matrix`,
   * `spaceDelimited`, `pipeDelimited`, `deepObject`); its location's default when absent.
   */
  style?: string;
  /** Its `explode`; the style's default (true for `form` only) when absent. */
  explode?: boolean;
  /** Its value is a JSON document (`content: application/json`), not a styled value. */
  json?: boolean;
  /** The media type of its `content` (a 3.2 `querystring`'s: how the whole query is written). */
  mediaType?: string;
}

/** The request body an operation takes, by media type (lower case). */
export interface PlanRequestBody {
  required: boolean;
  content: Record<string, Schema>;
}

/** One documented response of an operation. */
export interface PlanResponse {
  /** Its media types (as the spec writes them) and their schemas (`{}` when none is given). */
  content: Record<string, Schema>;
  /** Its headers, by lower-case name. */
  headers: Record<string, { required: boolean; schema: Schema }>;
  /** Its OpenAPI links, by name. */
  links: Record<string, PlanLink>;
  /** What the description says of it, read for what a refusal is about (a 409's unique field). */
  description?: string;
  /**
   * Its sequential media types (SSE, JSON Lines, JSON text sequences) and the schema of one
   * item: 3.2's `itemSchema` (`itemSchema: true`), else the media type's `schema` read as one.
   */
  items?: Record<string, PlanItems>;
}

/** The items of a streamed answer. */
export interface PlanItems {
  schema: Schema;
  /** Given as 3.2's `itemSchema`: an SSE item is then the whole event, not its data. */
  itemSchema: boolean;
}

/** An OpenAPI link: a call whose parameters come from this exchange. */
export interface PlanLink {
  /** The operation it leads to (an `operationRef` within the spec is read as its operationId). */
  operationId: string;
  /** Parameter name to a runtime expression (`$response.body#/id`) or a constant. */
  parameters: Record<string, unknown>;
}

/** A security requirement: scheme names to the scopes asked for; all must be met. */
export type PlanRequirement = Record<string, string[]>;

/** One operation of the spec. */
export interface PlanOperation {
  operationId: string;
  method: HttpMethod;
  /** Relative to the base URL, as the spec writes it: `/authors/{authorId}`. */
  path: string;
  parameters: PlanParameter[];
  requestBody?: PlanRequestBody;
  /** By status as the spec writes it: `'200'`, `'4XX'`, `'default'`. */
  responses: Record<string, PlanResponse>;
  /** The alternatives in force (any one suffices); `[]` or a `{}` among them: none needed. */
  security: PlanRequirement[];
  /** Its lowest documented 2xx status (200 when it documents none). */
  successStatus: number;
}

/** A security scheme of the spec. */
export interface PlanSecurityScheme {
  type: 'apiKey' | 'http' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  /** For `http`: `bearer`, `basic`, `digest`... (lower case). */
  scheme?: string;
  /** For `apiKey`: where the key goes, and under which name. */
  in?: 'header' | 'query' | 'cookie';
  name?: string;
}

/** What an operation does to its collection. */
export type CollectionAction = 'list' | 'create' | 'read' | 'replace' | 'update' | 'delete';

/** A collection the spec implies, as the mock infers it. */
export interface PlanCollection {
  /** e.g. `categories`. */
  name: string;
  collectionPath: string;
  itemPath?: string;
  /** The path parameter of the item path, e.g. `authorId`. */
  itemParameter?: string;
  /** The record property the item parameter holds, e.g. `id`. */
  idProperty: string;
  idKind: 'integer' | 'uuid' | 'string';
  /** The record schema: what the collection's answers hold. */
  schema: Schema;
  /** The operationId of each action the spec gives it. */
  operations: Partial<Record<CollectionAction, string>>;
  /**
   * Where an action's answer holds its record, or its list: the property of a wrapper
   * (`{data: [...], total}` → `data`); an action not named here answers the record itself.
   */
  envelopes: Partial<Record<CollectionAction, string>>;
  /**
   * For a collection below a record of another (`/projects/{projectId}/tickets`): that
   * collection's name, and the path parameter that names its record (`projectId`).
   */
  parent?: { collection: string; parameter: string };
}

/** Families of rules the interface document may number (see `x-contract-rules`). */
export type RuleFamily = 'required' | 'invalid' | 'credentials' | 'create';

/** What the suite knows of the interface. */
export interface ContractPlan {
  /** The spec's title, which heads the report. */
  title: string;
  /**
   * The numbers the interface document gives its rules, from the spec's `x-contract-rules`:
   * the suite names each check after the rule it checks ("createCategory rule 3: ...").
   */
  ruleNumbers: Partial<Record<RuleFamily, number>>;
  securitySchemes: Record<string, PlanSecurityScheme>;
  operations: PlanOperation[];
  collections: PlanCollection[];
  /** Its callbacks and webhooks. */
  outgoing?: PlanOutgoing[];
}

/** A request the API itself sends, that a receiver of the suite's can check (`--receiver`). */
export interface PlanOutgoing {
  kind: 'callback' | 'webhook';
  /** The callback's name (`onEvent`) or the webhook's (`newPet`). */
  name: string;
  /** The request sent: its method, body and the answers documented for it; its path is the callback's URL expression or the webhook's name. */
  request: PlanOperation;
  /** The operation after whose success it is sent: a callback's own, the write a webhook tells of. */
  after?: string;
  /** Where a callback's URL comes from in the request that sets it off, and what follows it. */
  urlFrom?:
    | { in: 'body'; pointer: string[]; rest: string }
    | { in: 'query' | 'header'; name: string; rest: string };
}

/**
 * The documented response of an operation for a status: the exact one, its range (`4XX`),
 * else `default`, as OpenAPI reads them.
 * @example responseFor(createCategory, 400)?.key // '400'
 */
export function responseFor(
  operation: PlanOperation,
  status: number,
): { key: string; response: PlanResponse } | undefined {
  for (const key of [
    String(status),
    `${String(status)[0]}XX`,
    `${String(status)[0]}xx`,
    'default',
  ]) {
    const response = operation.responses[key];
    if (response) return { key, response };
  }
  return undefined;
}

/**
 * Whether the spec documents a body for this answer of the operation (a 201 that gives only
 * a `Location` documents none).
 */
export function answersBody(operation: PlanOperation, status: number): boolean {
  return Object.keys(responseFor(operation, status)?.response.content ?? {}).length > 0;
}

/**
 * `application/json`, `application/problem+json` and the like, in any letter case and with
 * any parameter.
 * @example isJsonMediaType('Application/JSON; charset=UTF-8') // true
 */
export function isJsonMediaType(type: string): boolean {
  const essence = mediaEssence(type);
  return essence === 'application/json' || /^application\/[\w.-]+\+json$/.test(essence);
}

/**
 * A media type without its parameters, in lower case: media types are case-insensitive.
 * @example mediaEssence('Application/JSON; charset=UTF-8') // 'application/json'
 */
export function mediaEssence(type: string): string {
  return (type.split(';')[0] ?? '').trim().toLowerCase();
}

/** The JSON media type and schema of a request body, when it takes JSON. */
export function jsonRequestOf(
  operation: PlanOperation,
): { mediaType: string; schema: Schema } | undefined {
  const content = operation.requestBody?.content ?? {};
  const mediaType = Object.keys(content).find(isJsonMediaType);
  return mediaType === undefined ? undefined : { mediaType, schema: content[mediaType] ?? {} };
}

/** The JSON schema of a documented response, when it has JSON content. */
export function jsonResponseOf(response: PlanResponse | undefined): Schema | undefined {
  const type = Object.keys(response?.content ?? {}).find(isJsonMediaType);
  return type === undefined ? undefined : (response?.content[type] ?? {});
}

/** The statuses of the 4xx responses an operation documents by number. */
export function documented4xx(operation: PlanOperation): number[] {
  return Object.keys(operation.responses)
    .filter((key) => /^4\d\d$/.test(key))
    .map(Number);
}

/**
 * Whether the operation can be called without any credential: no requirement, or an empty
 * one among the alternatives.
 */
export function isOpen(operation: PlanOperation): boolean {
  return (
    operation.security.length === 0 ||
    operation.security.some((requirement) => Object.keys(requirement).length === 0)
  );
}
