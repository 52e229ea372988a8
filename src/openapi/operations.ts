import type { OpenAPIV3_1 } from 'openapi-types';
import type { OpenApiDocument, OperationObject, SchemaObject } from './load.js';

type SecurityRequirement = OpenAPIV3_1.SecurityRequirementObject;
type ParameterObject = OpenAPIV3_1.ParameterObject;
type ResponseObject = OpenAPIV3_1.ResponseObject;
type MediaTypeObject = OpenAPIV3_1.MediaTypeObject;

/** The method keys a Path Item may hold (fixed by OpenAPI itself, not by our spec). */
export const PATH_ITEM_METHODS = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
] as const;
export type HttpMethod = (typeof PATH_ITEM_METHODS)[number];

/** Where a parameter is sent. */
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

/** One parameter of an operation, as the mock checks it. */
export interface Parameter {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  readonly schema: SchemaObject;
  /** For query arrays: `form` with explode (repeated keys, the default) or comma-separated. */
  readonly explode: boolean;
}

/** The JSON request body an operation takes. */
export interface RequestBody {
  readonly required: boolean;
  /** The media types it accepts (lower case), each with its schema (`{}` when it has none). */
  readonly content: ReadonlyMap<string, SchemaObject>;
}

/** One operation of the spec, with what the mock needs to serve it. */
export interface Operation {
  readonly operationId: string;
  readonly method: HttpMethod;
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
  /** The status the operation answers on success: its lowest 2xx response. */
  readonly successStatus: number;
}

/**
 * Every operation of a (resolved) document, in the spec's order.
 * @example listOperations(spec.resolved).map((op) => op.operationId) // ['listCategories', ...]
 */
export function listOperations(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!item) continue;
    const shared = (item.parameters ?? []) as ParameterObject[];
    for (const method of PATH_ITEM_METHODS) {
      const definition = item[method];
      if (!definition) continue;
      const security = definition.security ?? document.security ?? [];
      operations.push({
        operationId: definition.operationId ?? `${method} ${path}`,
        method,
        path,
        definition,
        parameters: mergeParameters(shared, (definition.parameters ?? []) as ParameterObject[]),
        requestBody: requestBodyOf(definition),
        responses: (definition.responses ?? {}) as Record<string, ResponseObject>,
        security,
        requiresCredential: requiresCredential(security),
        successStatus: lowestSuccessStatus(definition),
      });
    }
  }
  return operations;
}

/**
 * Whether security requirements demand a credential: an empty requirement object
 * means anonymous access is allowed.
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

/** `application/json`, `application/problem+json` and the like. */
export function isJsonMediaType(type: string): boolean {
  const essence = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return essence === 'application/json' || /^application\/[\w.-]+\+json$/.test(essence);
}

/** Operation parameters override path parameters of the same name and location. */
function mergeParameters(shared: ParameterObject[], own: ParameterObject[]): Parameter[] {
  const merged = new Map<string, ParameterObject>();
  for (const parameter of [...shared, ...own])
    merged.set(`${parameter.in} ${parameter.name}`, parameter);
  return [...merged.values()].map((parameter) => ({
    name: parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name,
    in: parameter.in as ParameterLocation,
    required: parameter.in === 'path' || parameter.required === true,
    schema: (parameter.schema ?? {}) as SchemaObject,
    explode: parameter.explode ?? (parameter.style ?? 'form') === 'form',
  }));
}

function requestBodyOf(definition: OperationObject): RequestBody | undefined {
  const body = definition.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
  if (!body) return undefined;
  const content = new Map<string, SchemaObject>();
  for (const [type, media] of Object.entries(body.content ?? {}))
    content.set(type.toLowerCase(), (media.schema ?? {}) as SchemaObject);
  return { required: body.required === true, content };
}

function lowestSuccessStatus(definition: OperationObject): number {
  const statuses = Object.keys(definition.responses ?? {})
    .map(Number)
    .filter((status) => status >= 200 && status < 300)
    .sort((a, b) => a - b);
  return statuses[0] ?? 200;
}
