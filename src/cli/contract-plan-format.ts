/**
 * The plan: what the contract suite knows of the interface, as plain JSON data. `petstore-kit
 * contract` builds it from the spec with the mock's own reading of OpenAPI
 * (src/cli/contract-plan.ts) and hands it to the suite (contract-tests/suite.ts), which imports
 * these types; the rules read nothing else, and speak only HTTP.
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
interface PlanRequestBody {
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
