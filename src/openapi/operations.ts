import type { OpenAPIV3_1 } from 'openapi-types';
import type { OpenApiDocument, OperationObject, SchemaObject } from './load.js';
import { essenceOf, isJsonMediaType } from './media-types.js';
import { apiKeysInQuery, securitySchemesOf } from './security-schemes.js';

type SecurityRequirement = OpenAPIV3_1.SecurityRequirementObject;
type ParameterObject = OpenAPIV3_1.ParameterObject;
type ResponseObject = OpenAPIV3_1.ResponseObject;
type MediaTypeObject = OpenAPIV3_1.MediaTypeObject;

/** The method keys a Path Item may hold (fixed by OpenAPI itself, not by our spec). */
const PATH_ITEM_METHODS = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
  // OpenAPI 3.2: the QUERY method (a safe request with a body, RFC draft httpbis-safe-method-w-body).
  'query',
] as const;
type HttpMethod = (typeof PATH_ITEM_METHODS)[number];

/**
 * The method of an operation, lower case: one of the Path Item's keys, or a method 3.2's
 * `additionalOperations` names (`link`, `purge`).
 */
type OperationMethod = HttpMethod | (string & {});

/** Where a parameter is sent: `querystring` (3.2) is the whole query string, read by its media type. */
export type ParameterLocation = 'path' | 'query' | 'querystring' | 'header' | 'cookie';

/**
 * How a parameter's value is written (OpenAPI's `style`): `form` (`?id=3&id=4`, or `?id=3,4`
 * without explode), `simple` (`3,4`), `label` (`.3.4`), `matrix` (`;id=3,4`),
 * `spaceDelimited` (`?id=3%204`), `pipeDelimited` (`?id=3|4`), `deepObject` (`?filter[name]=x`).
 */
export type ParameterStyle =
  'form' | 'simple' | 'label' | 'matrix' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';

const PARAMETER_STYLES: readonly string[] = [
  'form',
  'simple',
  'label',
  'matrix',
  'spaceDelimited',
  'pipeDelimited',
  'deepObject',
];

/** One parameter of an operation, as the mock checks it. */
export interface Parameter {
  /** As the spec writes it; a header's in lower case. */
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  /** Its schema, or the schema of its `content` (`{}` when it gives none). */
  readonly schema: SchemaObject;
  /** Its `style`, or the default of its location: `form` in the query and cookies, else `simple`. */
  readonly style: ParameterStyle;
  /** Its `explode`, or the default of its style: true for `form` only. */
  readonly explode: boolean;
  /** A query parameter that may be sent with an empty value (`allowEmptyValue`). */
  readonly allowEmptyValue: boolean;
  /** Its value is a JSON document (`content: application/json`), not a styled value. */
  readonly json: boolean;
  /** The media type of its `content`, lower case without parameters (a `querystring`'s reading). */
  readonly mediaType?: string;
  /** The values its `example`, `examples` and its schema's examples give, in that order. */
  readonly examples: readonly unknown[];
}

/** How one property of a form or multipart body is written (OpenAPI's Encoding Object). */
export interface PropertyEncoding {
  /** The media type of its part, lower case (multipart). */
  readonly contentType?: string;
  readonly style?: ParameterStyle;
  readonly explode?: boolean;
}

/** The request body an operation takes. */
export interface RequestBody {
  readonly required: boolean;
  /**
   * The media types it accepts (lower case, without parameters: `application/json`), each
   * with its schema (`{}` when it has none).
   */
  readonly content: ReadonlyMap<string, SchemaObject>;
  /** For form and multipart media types, how each property is written, by property name. */
  readonly encodings: ReadonlyMap<string, Readonly<Record<string, PropertyEncoding>>>;
}

/** One operation of the spec, with what the mock needs to serve it. */
export interface Operation {
  readonly operationId: string;
  readonly method: OperationMethod;
  /** The path as the spec writes it, e.g. `/pets/{petId}`. */
  readonly path: string;
  /** The operation object, `$ref`s resolved. */
  readonly definition: OperationObject;
  /** Its own parameters and those of its path, by location. */
  readonly parameters: readonly Parameter[];
  readonly requestBody: RequestBody | undefined;
  /** Its responses by status (`'200'`, `'4XX'`, `'default'`). */
  readonly responses: Readonly<Record<string, ResponseObject>>;
  /** The requirements in force: the operation's own `security`, else the document's. */
  readonly security: readonly SecurityRequirement[];
  /** Whether those requirements demand a credential (an empty requirement allows none). */
  readonly requiresCredential: boolean;
  /**
   * The query parameters that carry an API key (not parameters): those of its requirements,
   * and any other API key of the document it does not declare as a parameter (a client that
   * sends its key everywhere is let in where none is needed, as a server ignores it).
   */
  readonly credentialsInQuery: readonly string[];
  /** The status the operation answers on success: its lowest 2xx response. */
  readonly successStatus: number;
}

/**
 * Every operation of a (resolved) document, in the spec's order.
 * @example listOperations(spec.resolved).map((op) => op.operationId) // ['listCategories', ...]
 */
export function listOperations(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  const schemes = securitySchemesOf(document);
  const anyKeyInQuery = apiKeysInQuery(
    [Object.fromEntries([...schemes.keys()].map((name) => [name, []]))],
    schemes,
  );
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!item) continue;
    const shared = (item.parameters ?? []) as ParameterObject[];
    for (const [method, definition] of operationsOfItem(item)) {
      const parameters = mergeParameters(
        shared,
        (definition.parameters ?? []) as ParameterObject[],
      );
      const security = definition.security ?? document.security ?? [];
      operations.push({
        operationId: definition.operationId ?? `${method} ${path}`,
        method,
        path,
        definition,
        parameters,
        requestBody: requestBodyOf(definition),
        responses: (definition.responses ?? {}) as Record<string, ResponseObject>,
        security,
        requiresCredential: requiresCredential(security),
        credentialsInQuery: [
          ...new Set([
            ...apiKeysInQuery(security, schemes),
            ...anyKeyInQuery.filter(
              (name) =>
                !parameters.some(
                  (parameter) => parameter.in === 'query' && parameter.name === name,
                ),
            ),
          ]),
        ],
        successStatus: lowestSuccessStatus(definition),
      });
    }
  }
  return operations;
}

/** A Path Item as 3.2 writes it: `query` and `additionalOperations` beside the other methods. */
type PathItem = NonNullable<OpenApiDocument['paths']>[string] & {
  query?: OperationObject;
  additionalOperations?: Record<string, OperationObject>;
};

/**
 * The operations of a Path Item, by lower-case method: its method keys, then the methods of
 * 3.2's `additionalOperations` (keyed as sent: `LINK`), but for one that repeats a fixed key
 * (the spec forbids it; the fixed key wins).
 * @example operationsOfItem({ get: list, additionalOperations: { PURGE: purge } }) // [['get', list], ['purge', purge]]
 */
function operationsOfItem(item: PathItem): [OperationMethod, OperationObject][] {
  const found: [OperationMethod, OperationObject][] = [];
  for (const method of PATH_ITEM_METHODS) {
    const definition = item[method];
    if (definition) found.push([method, definition]);
  }
  const additional = item.additionalOperations;
  if (typeof additional === 'object' && additional !== null)
    for (const [name, definition] of Object.entries(additional)) {
      const method = name.toLowerCase();
      if (typeof definition !== 'object' || definition === null) continue;
      if (found.some(([known]) => known === method)) continue;
      found.push([method, definition]);
    }
  return found;
}

/**
 * Whether security requirements demand a credential: an empty requirement object
 * means anonymous access is allowed.
 * @internal for its tests: no part of the package's surface
 */
export function requiresCredential(requirements: readonly SecurityRequirement[]): boolean {
  return (
    requirements.length > 0 &&
    requirements.every((requirement) => Object.keys(requirement).length > 0)
  );
}

/**
 * The response an operation documents for a status: the exact status, else its range
 * (`4XX`), else `default`.
 */
export function responseFor(
  operation: Operation,
  status: number,
): { key: string; response: ResponseObject } | undefined {
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    const response = operation.responses[key];
    if (response) return { key, response };
  }
  return undefined;
}

/**
 * The JSON content of a response: its media type (the first JSON one), its media object and
 * its schema (`{}` when it gives none); undefined when it has no JSON content.
 * @example jsonMediaOf(operation.responses['200'])?.type // 'application/json'
 */
export function jsonMediaOf(
  response: ResponseObject | undefined,
): { type: string; media: MediaTypeObject; schema: SchemaObject } | undefined {
  const content = response?.content ?? {};
  const type = Object.keys(content).find(isJsonMediaType);
  const media = type === undefined ? undefined : content[type];
  if (type === undefined || !media) return undefined;
  return { type, media, schema: (media.schema ?? {}) as SchemaObject };
}

/** The JSON schema of a response, when it has JSON content. */
export function jsonSchemaOf(response: ResponseObject | undefined): SchemaObject | undefined {
  return jsonMediaOf(response)?.schema;
}

/**
 * The schemas of every answer an operation documents: each media type's body and each
 * header's (the roots of the checks of its answers).
 */
export function answerSchemasOf(operation: Operation): SchemaObject[] {
  const schemas: SchemaObject[] = [];
  const contentSchemas = (content: Record<string, MediaTypeObject> | undefined) => {
    for (const media of Object.values(content ?? {}))
      if (media?.schema) schemas.push(media.schema as SchemaObject);
  };
  for (const response of Object.values(operation.responses)) {
    contentSchemas(response.content);
    // Resolved: a header is never a `$ref` here.
    for (const header of Object.values(response.headers ?? {})) {
      const { schema, content } = header as OpenAPIV3_1.HeaderObject;
      if (schema) schemas.push(schema as SchemaObject);
      contentSchemas(content);
    }
  }
  return schemas;
}

/**
 * Operation parameters override path parameters of the same name and location. Header
 * parameters named Accept, Content-Type or Authorization are left out, as OpenAPI says: the
 * mock reads those headers itself.
 */
function mergeParameters(shared: ParameterObject[], own: ParameterObject[]): Parameter[] {
  const merged = new Map<string, ParameterObject>();
  for (const parameter of [...shared, ...own])
    merged.set(`${parameter.in} ${parameter.name}`, parameter);
  return [...merged.values()]
    .filter(
      (parameter) =>
        parameter.in !== 'header' || !/^(accept|content-type|authorization)$/i.test(parameter.name),
    )
    .map(parameterOf);
}

function parameterOf(parameter: ParameterObject): Parameter {
  const location = parameter.in as ParameterLocation;
  const style = PARAMETER_STYLES.includes(parameter.style ?? '')
    ? (parameter.style as ParameterStyle)
    : location === 'query' || location === 'cookie'
      ? 'form'
      : 'simple';
  const [mediaType, media] = Object.entries(parameter.content ?? {})[0] ?? [];
  return {
    name: location === 'header' ? parameter.name.toLowerCase() : parameter.name,
    in: location,
    required: location === 'path' || parameter.required === true,
    schema: (media?.schema ?? parameter.schema ?? {}) as SchemaObject,
    style,
    explode: parameter.explode ?? style === 'form',
    allowEmptyValue: parameter.allowEmptyValue === true,
    json: mediaType !== undefined && isJsonMediaType(mediaType),
    ...(mediaType === undefined ? {} : { mediaType: essenceOf(mediaType) }),
    examples: parameterExamples(parameter, (media?.schema ?? parameter.schema) as unknown),
  };
}

/** What a parameter's `example`, `examples` (their `value`s) and its schema's examples give. */
function parameterExamples(parameter: ParameterObject, schema: unknown): unknown[] {
  const found: unknown[] = [];
  if (parameter.example !== undefined) found.push(parameter.example);
  for (const example of Object.values(parameter.examples ?? {}))
    if (typeof example === 'object' && example !== null && 'value' in example)
      found.push(example.value);
  if (typeof schema === 'object' && schema !== null) {
    const { example, examples } = schema as { example?: unknown; examples?: unknown };
    if (example !== undefined) found.push(example);
    if (Array.isArray(examples)) found.push(...(examples as unknown[]));
  }
  return found;
}

function requestBodyOf(definition: OperationObject): RequestBody | undefined {
  const body = definition.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
  if (!body) return undefined;
  const content = new Map<string, SchemaObject>();
  const encodings = new Map<string, Record<string, PropertyEncoding>>();
  for (const [type, media] of Object.entries(body.content ?? {})) {
    // `application/json; charset=utf-8` is the same media type as `application/json`.
    const essence = essenceOf(type);
    if (content.has(essence)) continue;
    // A stream of items (3.2 `itemSchema`, e.g. `application/jsonl`) is checked item by item.
    const { itemSchema } = media as { itemSchema?: SchemaObject };
    content.set(essence, (media.schema ?? itemSchema ?? {}) as SchemaObject);
    if (media.encoding) encodings.set(essence, encodingsOf(media.encoding));
  }
  return { required: body.required === true, content, encodings };
}

function encodingsOf(
  encoding: Record<string, OpenAPIV3_1.EncodingObject>,
): Record<string, PropertyEncoding> {
  const out: Record<string, PropertyEncoding> = {};
  for (const [name, { contentType, style, explode }] of Object.entries(encoding)) {
    out[name] = {
      ...(contentType ? { contentType: contentType.toLowerCase() } : {}),
      ...(style && PARAMETER_STYLES.includes(style) ? { style: style as ParameterStyle } : {}),
      ...(explode === undefined ? {} : { explode }),
    };
  }
  return out;
}

function lowestSuccessStatus(definition: OperationObject): number {
  const statuses = Object.keys(definition.responses ?? {})
    .map(Number)
    .filter((status) => status >= 200 && status < 300)
    .sort((a, b) => a - b);
  return statuses[0] ?? 200;
}
