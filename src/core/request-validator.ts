import type { SchemaObject } from '../openapi/load.js';
import type { Operation, Parameter, ParameterLocation } from '../openapi/operations.js';
import { typesOf } from '../openapi/schema-parts.js';
import type { SchemaCheck, SchemaCompiler } from '../openapi/schemas.js';
import { errors } from '../vocabulary/error-catalogue.js';
import type { MockRequest } from '../vocabulary/request.js';
import type { ReadBody } from './request-body.js';

/** A request as the spec describes it, checked: parameters converted to their types. */
export interface ValidRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  /** The parsed body; undefined when there was none. */
  body: unknown;
}

export interface RequestInput {
  /** Path parameters, decoded, as strings. */
  params: Record<string, string>;
  /** The query string, without `?`. */
  search: string;
  headers: MockRequest['headers'];
  body: ReadBody | undefined;
}

interface CompiledOperation {
  path: SchemaCheck | undefined;
  query: SchemaCheck | undefined;
  header: SchemaCheck | undefined;
  queryParameters: readonly Parameter[];
  headerParameters: readonly Parameter[];
}

/**
 * Checks requests against the spec with its compiled schemas: path, query and header
 * parameters (an unknown query parameter is refused), then the body against the schema
 * of its media type (a `readOnly` property is refused). Every problem is listed in one
 * 400 `validation_failed`.
 * @example validator.check(createCategory, input) // throws ApiError 400 "/body must have required property 'name'"
 */
export interface RequestValidator {
  /** @throws {ApiError} 400 `validation_failed` listing every problem. */
  check(operation: Operation, input: RequestInput): ValidRequest;
  /** Compiles the schemas of an operation now rather than on its first request. */
  prepare(operation: Operation): void;
}

export function createRequestValidator(compiler: SchemaCompiler): RequestValidator {
  const compiledOperations = new WeakMap<Operation, CompiledOperation>();

  function compile(operation: Operation): CompiledOperation {
    let compiled = compiledOperations.get(operation);
    if (!compiled) {
      const at = (location: ParameterLocation) =>
        operation.parameters.filter((parameter) => parameter.in === location);
      const checkOf = (location: ParameterLocation, closed: boolean) => {
        const parameters = at(location);
        if (parameters.length === 0 && !closed) return undefined;
        return compiler.parameters(objectSchema(parameters, closed));
      };
      compiled = {
        path: checkOf('path', false),
        query: checkOf('query', true),
        header: checkOf('header', false),
        queryParameters: at('query'),
        headerParameters: at('header'),
      };
      compiledOperations.set(operation, compiled);
    }
    return compiled;
  }

  function check(operation: Operation, input: RequestInput): ValidRequest {
    const compiled = compile(operation);
    const problems: string[] = [];
    const params: Record<string, unknown> = { ...input.params };
    const query = input.search === '' ? {} : readQuery(input.search, compiled.queryParameters);
    const headers: Record<string, unknown> = {};
    for (const parameter of compiled.headerParameters) {
      const value = input.headers[parameter.name];
      if (value !== undefined) headers[parameter.name] = value;
    }
    if (compiled.path) problems.push(...compiled.path(params, '/path'));
    if (compiled.query && (input.search !== '' || compiled.queryParameters.some(isRequired)))
      problems.push(...compiled.query(query, '/query'));
    if (compiled.header) problems.push(...compiled.header(headers, '/headers'));

    const spec = operation.requestBody;
    let body: unknown;
    if (spec && input.body) {
      body = input.body.value;
      const schema = spec.content.get(input.body.mediaType);
      if (schema && !Buffer.isBuffer(body))
        problems.push(...compiler.request(schema)(body, '/body'));
    } else if (spec?.required) {
      problems.push(`/body is required: send ${[...spec.content.keys()].join(' or ')}`);
    }

    if (problems.length > 0) throw errors.validationFailed(problems);
    return { params, query, headers, body };
  }

  return {
    check,
    prepare(operation) {
      compile(operation);
      for (const schema of operation.requestBody?.content.values() ?? []) compiler.request(schema);
    },
  };
}

function isRequired(parameter: Parameter): boolean {
  return parameter.required;
}

/** The parameters of one location as one object schema, so they are checked in one call. */
function objectSchema(parameters: readonly Parameter[], closed: boolean): SchemaObject {
  return {
    type: 'object',
    properties: Object.fromEntries(
      parameters.map((parameter) => [parameter.name, parameter.schema]),
    ),
    required: parameters.filter(isRequired).map((parameter) => parameter.name),
    ...(closed ? { additionalProperties: false } : {}),
  } as SchemaObject;
}

/**
 * The query as the parameters describe it: a repeated key (or, without explode, a
 * comma-separated value) is an array where the schema asks for one, and otherwise stays
 * a list, which the schema then refuses, rather than silently keeping one of the values.
 */
function readQuery(search: string, parameters: readonly Parameter[]): Record<string, unknown> {
  const query: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const searchParams = new URLSearchParams(search);
  for (const name of new Set(searchParams.keys())) {
    const values = searchParams.getAll(name);
    const parameter = parameters.find((candidate) => candidate.name === name);
    const isArray = parameter && typesOf(parameter.schema).includes('array');
    if (isArray && !parameter.explode && values.length === 1)
      query[name] = (values[0] ?? '').split(',');
    else query[name] = isArray || values.length > 1 ? values : values[0];
  }
  return query;
}
