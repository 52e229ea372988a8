// One model of an API's operations, whatever the format of its description: Swagger 2.0's
// body/formData parameters and OpenAPI 3.x's request bodies read alike.
import { isObject, type Json, type JsonObject } from './document.js';

export const HTTP_METHODS = [
  'get',
  'put',
  'post',
  'delete',
  'patch',
  'options',
  'head',
  'trace',
] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface ApiParameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  schema: JsonObject;
  style?: string;
  explode?: boolean;
}

/** One way to send a request body. */
export interface ApiBody {
  mediaType: string;
  schema: JsonObject;
  required: boolean;
}

export interface ApiResponse {
  /** `200`, `2XX`, `default`... as written. */
  status: string;
  mediaTypes: string[];
  /** The schema of its JSON media type, else of its first. */
  schema?: JsonObject;
}

/** A security scheme, in one vocabulary for both formats. */
export interface ApiSecurityScheme {
  name: string;
  type: 'apiKey' | 'http' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  /** Of an apiKey. */
  in?: 'header' | 'query' | 'cookie';
  /** The header, query or cookie name of an apiKey. */
  parameterName?: string;
  /** Of an http scheme, lower case: `basic`, `bearer`... */
  scheme?: string;
}

/** Each entry is one alternative; each alternative lists the schemes it needs together. */
export type SecurityRequirements = string[][];

export interface ApiOperation {
  method: HttpMethod;
  path: string;
  operationId?: string;
  parameters: ApiParameter[];
  /** Empty when the operation takes no body. */
  bodies: ApiBody[];
  responses: ApiResponse[];
  /** The security that applies (the operation's, else the document's). */
  security: SecurityRequirements;
}

const JSON_MEDIA = /^application\/(.+\+)?json(;|$)/i;

export function isJsonMedia(mediaType: string): boolean {
  return JSON_MEDIA.test(mediaType) || mediaType === '*/*';
}

function list(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
}

function object(value: Json | undefined): JsonObject {
  return isObject(value) ? value : {};
}

function strings(value: Json | undefined): string[] {
  return list(value).filter((item): item is string => typeof item === 'string');
}

/** Every operation of a resolved document, in the order of its `paths`. */
export function operationsOf(document: JsonObject): ApiOperation[] {
  const swagger = document.swagger === '2.0';
  const operations: ApiOperation[] = [];
  for (const [path, item] of Object.entries(object(document.paths))) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const rawParameters = mergeParameters(list(item.parameters), list(operation.parameters));
      operations.push({
        method,
        path,
        ...(typeof operation.operationId === 'string'
          ? { operationId: operation.operationId }
          : {}),
        parameters: rawParameters
          .map((parameter) => (swagger ? swaggerParameter(parameter) : openApiParameter(parameter)))
          .filter((parameter): parameter is ApiParameter => parameter !== undefined),
        bodies: swagger
          ? swaggerBodies(document, operation, rawParameters)
          : openApiBodies(operation),
        responses: swagger ? swaggerResponses(document, operation) : openApiResponses(operation),
        security: securityOf(operation.security ?? document.security),
      });
    }
  }
  return operations;
}

/** Path-level parameters, overridden by operation-level ones of the same name and place. */
function mergeParameters(pathLevel: Json[], operationLevel: Json[]): JsonObject[] {
  const merged = new Map<string, JsonObject>();
  for (const parameter of [...pathLevel, ...operationLevel]) {
    if (isObject(parameter))
      merged.set(`${String(parameter.in)}:${String(parameter.name)}`, parameter);
  }
  return [...merged.values()];
}

function isLocation(value: Json | undefined): value is ParameterLocation {
  return value === 'path' || value === 'query' || value === 'header' || value === 'cookie';
}

function openApiParameter(parameter: JsonObject): ApiParameter | undefined {
  if (!isLocation(parameter.in) || typeof parameter.name !== 'string') return undefined;
  let schema = object(parameter.schema);
  if (!isObject(parameter.schema) && isObject(parameter.content)) {
    const [first] = Object.values(parameter.content);
    schema = object(isObject(first) ? first.schema : undefined);
  }
  return {
    name: parameter.name,
    in: parameter.in,
    required: parameter.in === 'path' || parameter.required === true,
    schema,
    ...(typeof parameter.style === 'string' ? { style: parameter.style } : {}),
    ...(typeof parameter.explode === 'boolean' ? { explode: parameter.explode } : {}),
  };
}

/** The JSON Schema part of a Swagger 2.0 parameter or items object. */
function swaggerSchema(parameter: JsonObject): JsonObject {
  const schema: JsonObject = {};
  for (const [key, value] of Object.entries(parameter)) {
    if (
      ['name', 'in', 'required', 'description', 'collectionFormat', 'allowEmptyValue'].includes(key)
    )
      continue;
    if (key === 'items' && isObject(value)) schema.items = swaggerSchema(value);
    else if (key === 'type' && value === 'file') {
      schema.type = 'string';
      schema.format = 'binary';
    } else if (!key.startsWith('x-')) schema[key] = value;
  }
  return schema;
}

function swaggerParameter(parameter: JsonObject): ApiParameter | undefined {
  if (!isLocation(parameter.in) || typeof parameter.name !== 'string') return undefined;
  return {
    name: parameter.name,
    in: parameter.in,
    required: parameter.in === 'path' || parameter.required === true,
    schema: swaggerSchema(parameter),
    ...(parameter.collectionFormat === 'multi' ? { explode: true } : {}),
  };
}

function openApiBodies(operation: JsonObject): ApiBody[] {
  const body = object(operation.requestBody);
  return Object.entries(object(body.content)).map(([mediaType, media]) => ({
    mediaType,
    schema: object(object(media).schema),
    required: body.required === true,
  }));
}

function swaggerBodies(
  document: JsonObject,
  operation: JsonObject,
  parameters: JsonObject[],
): ApiBody[] {
  const consumes = strings(operation.consumes ?? document.consumes);
  const body = parameters.find((parameter) => parameter.in === 'body');
  if (body) {
    const types = consumes.length > 0 ? consumes : ['application/json'];
    return types.map((mediaType) => ({
      mediaType,
      schema: object(body.schema),
      required: body.required === true,
    }));
  }
  const fields = parameters.filter((parameter) => parameter.in === 'formData');
  if (fields.length === 0) return [];
  const schema: JsonObject = {
    type: 'object',
    properties: Object.fromEntries(
      fields.map((field) => [String(field.name), swaggerSchema(field)]),
    ),
    required: fields.filter((field) => field.required === true).map((field) => String(field.name)),
  };
  const forms = consumes.filter((type) =>
    /^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(type),
  );
  const hasFile = fields.some((field) => field.type === 'file');
  const types =
    forms.length > 0
      ? forms
      : [hasFile ? 'multipart/form-data' : 'application/x-www-form-urlencoded'];
  return types.map((mediaType) => ({
    mediaType,
    schema,
    required: fields.some((field) => field.required === true),
  }));
}

function openApiResponses(operation: JsonObject): ApiResponse[] {
  return Object.entries(object(operation.responses)).map(([status, response]) => {
    const content = object(object(response).content);
    const mediaTypes = Object.keys(content);
    const chosen = mediaTypes.find(isJsonMedia) ?? mediaTypes[0];
    const schema = chosen === undefined ? undefined : object(content[chosen]).schema;
    return { status, mediaTypes, ...(isObject(schema) ? { schema } : {}) };
  });
}

function swaggerResponses(document: JsonObject, operation: JsonObject): ApiResponse[] {
  const produces = strings(operation.produces ?? document.produces);
  return Object.entries(object(operation.responses)).map(([status, response]) => {
    const schema = object(response).schema;
    const hasSchema = isObject(schema);
    return {
      status,
      mediaTypes: hasSchema ? (produces.length > 0 ? produces : ['application/json']) : [],
      ...(hasSchema ? { schema } : {}),
    };
  });
}

function securityOf(value: Json | undefined): SecurityRequirements {
  return list(value)
    .filter(isObject)
    .map((requirement) => Object.keys(requirement));
}

/** The security schemes a document declares. */
export function securitySchemesOf(document: JsonObject): ApiSecurityScheme[] {
  const swagger = document.swagger === '2.0';
  const declared = swagger
    ? object(document.securityDefinitions)
    : object(object(document.components).securitySchemes);
  const schemes: ApiSecurityScheme[] = [];
  for (const [name, scheme] of Object.entries(declared)) {
    if (!isObject(scheme)) continue;
    const type = String(scheme.type);
    if (swagger && type === 'basic') schemes.push({ name, type: 'http', scheme: 'basic' });
    else if (type === 'apiKey')
      schemes.push({
        name,
        type,
        in: scheme.in === 'query' || scheme.in === 'cookie' ? scheme.in : 'header',
        parameterName: String(scheme.name),
      });
    else if (type === 'http')
      schemes.push({ name, type, scheme: String(scheme.scheme ?? '').toLowerCase() });
    else if (type === 'oauth2' || type === 'openIdConnect' || type === 'mutualTLS')
      schemes.push({ name, type });
  }
  return schemes;
}

/** The success answer of an operation: its lowest 2xx, else `default`. */
export function successOf(operation: ApiOperation): ApiResponse | undefined {
  const successes = operation.responses
    .filter((response) => /^2(\d\d|XX)$/i.test(response.status))
    .sort((a, b) => a.status.localeCompare(b.status));
  return successes[0] ?? operation.responses.find((response) => response.status === 'default');
}
