import type { SchemaObject } from '../openapi/load.js';
import { isJsonMediaType } from '../openapi/media-types.js';
import { type Operation, type Parameter, type ParameterLocation } from '../openapi/operations.js';
import { typesOf } from '../openapi/schema-parts.js';
import type { SchemaCheck, SchemaCompiler } from '../openapi/schemas.js';
import { errors } from '../vocabulary/error-catalogue.js';
import type { MockRequest } from '../vocabulary/request.js';
import {
  readCookieParameters,
  readHeaders,
  readPath,
  readQuery,
  type ReadValues,
} from './parameter-styles.js';
import { readQueryString } from './query-string.js';
import type { ReadBody } from './request-body.js';

/** A request as the spec describes it, checked: parameters converted to their types. */
export interface ValidRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  cookies: Record<string, unknown>;
  /** The parsed body, its values converted to the schema's types; undefined when there was none. */
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
  cookie: SchemaCheck | undefined;
  pathParameters: readonly Parameter[];
  queryParameters: readonly Parameter[];
  headerParameters: readonly Parameter[];
  /** The conditional fields (`If-Match`, `If-None-Match`) it requires: missing, a 428, not a 400. */
  conditionsRequired: readonly string[];
  cookieParameters: readonly Parameter[];
  /** The query parameters whose schema offers alternatives, each judged on its own (see below). */
  queryAlternatives: readonly JudgedApart[];
  /** A 3.2 `in: querystring` parameter, the whole query string, and its check. */
  queryString: { parameter: Parameter; check: SchemaCheck } | undefined;
}

/**
 * A query parameter whose schema is a `oneOf` or `anyOf`: converting its value first can make it
 * match more arms than it does as sent (`?tag=a` against `oneOf: [string, array of strings]`
 * becomes `['a']` for the second arm, and then matches both), so it is judged as sent first, and
 * converted only when no arm takes it as it came.
 */
interface JudgedApart {
  name: string;
  asSent: SchemaCheck;
  converted: SchemaCheck;
}

/**
 * Checks requests against the spec with its compiled schemas: path, query, header and cookie
 * parameters, read as their styles write them (an unknown query parameter is refused, and so
 * is one sent empty that the spec does not allow empty), then the body against the schema of
 * its media type (a `readOnly` property is refused). Form, multipart and text bodies arrive as
 * strings and are converted to the schema's types first. Every problem is listed in one
 * `validation_failed`: a 400 when the request's form is wrong (a parameter, a body that does not
 * decode or is missing), a 422 when only a parsed body breaks its schema (error-mapping.ts
 * answers it as 400 where the operation documents no 422).
 * @example validator.check(createCategory, input) // throws ApiError 400 "/body must have required property 'name'"
 */
export interface RequestValidator {
  /** @throws {ApiError} 400 or 422 `validation_failed` listing every problem. */
  check(operation: Operation, input: RequestInput): ValidRequest;
  /** Compiles the schemas of an operation now rather than on its first request. */
  prepare(operation: Operation): void;
}

export function createRequestValidator(compiler: SchemaCompiler): RequestValidator {
  const compiledOperations = new WeakMap<Operation, CompiledOperation>();
  // A text body is checked as the one property of an object, so that it is converted in place.
  const wrappers = new WeakMap<SchemaObject, SchemaObject>();
  const wrapperOf = (schema: SchemaObject): SchemaObject => {
    let wrapper = wrappers.get(schema);
    if (!wrapper)
      wrappers.set(schema, (wrapper = { type: 'object', properties: { body: schema } }));
    return wrapper;
  };

  function compile(operation: Operation): CompiledOperation {
    let compiled = compiledOperations.get(operation);
    if (!compiled) {
      const at = (location: ParameterLocation) =>
        operation.parameters.filter((parameter) => parameter.in === location);
      const alternatives = at('query').filter(offersAlternatives);
      const checkOf = (location: ParameterLocation, closed: boolean) => {
        const parameters = at(location);
        if (parameters.length === 0 && !closed) return undefined;
        return compiler.parameters(
          objectSchema(parameters, closed, location === 'query' ? alternatives : []),
        );
      };
      const [queryString] = at('querystring');
      compiled = {
        queryString: queryString && {
          parameter: queryString,
          check: compiler.parameters(objectSchema([queryString], false)),
        },
        path: checkOf('path', false),
        query: checkOf('query', true),
        header: checkOf('header', false),
        cookie: checkOf('cookie', false),
        pathParameters: at('path'),
        queryParameters: at('query'),
        headerParameters: at('header'),
        conditionsRequired: at('header')
          .filter((parameter) => parameter.required && CONDITIONS.test(parameter.name))
          .map((parameter) => parameter.name),
        cookieParameters: at('cookie'),
        queryAlternatives: alternatives.map((parameter) => ({
          name: parameter.name,
          // The request direction converts nothing: the value is judged as it was sent.
          asSent: compiler.request(parameter.schema),
          converted: compiler.parameters(objectSchema([parameter], false)),
        })),
      };
      compiledOperations.set(operation, compiled);
    }
    return compiled;
  }

  function check(operation: Operation, input: RequestInput): ValidRequest {
    const problems: string[] = [];
    // No parameter to read or check: an operation without any, asked without a query.
    const { params, query, headers, cookies } =
      operation.parameters.length === 0 && input.search === ''
        ? { params: {}, query: {}, headers: {}, cookies: {} }
        : checkParameters(operation, input, problems);

    const spec = operation.requestBody;
    // Problems of the request's form (parameters, a body that does not decode) make it a 400; a
    // body that parses but breaks its schema alone is content (422 where documented).
    let form = problems.length;
    let body: unknown;
    if (spec && input.body) {
      body = input.body.value;
      problems.push(...input.body.problems);
      form += input.body.problems.length;
      const schema = spec.content.get(input.body.mediaType) ?? {};
      switch (input.body.kind) {
        case 'json':
        case 'xml':
          problems.push(...compiler.request(schema)(body, '/body'));
          break;
        case 'form':
          // A form is an object; a schema that is not one cannot describe it, so it is not held against it.
          if (describesObject(schema)) problems.push(...compiler.form(schema)(body, '/body'));
          break;
        case 'text': {
          const wrapped = { body };
          problems.push(...compiler.form(wrapperOf(schema))(wrapped, ''));
          body = wrapped.body;
          break;
        }
        case 'bytes':
          break;
      }
    } else if (spec?.required) {
      form++;
      problems.push(`/body is required: send ${[...spec.content.keys()].join(' or ')}`);
    }

    if (problems.length === 0) return { params, query, headers, cookies, body };
    throw form > 0 ? errors.validationFailed(problems) : errors.contentInvalid(problems);
  }

  /** The parameters of a request read as their styles write them and checked; what is wrong goes to `problems`. */
  function checkParameters(
    operation: Operation,
    input: RequestInput,
    problems: string[],
  ): Omit<ValidRequest, 'body'> {
    const compiled = compile(operation);
    for (const name of compiled.conditionsRequired)
      if (input.headers[name.toLowerCase()] === undefined) throw errors.preconditionRequired(name);
    const read = (values: ReadValues): Record<string, unknown> => {
      problems.push(...values.problems);
      return values.values;
    };
    const params = read(readPath(input.params, compiled.pathParameters));
    const { queryString } = compiled;
    const query = queryString
      ? read(readQueryString(input.search, queryString.parameter, operation.credentialsInQuery))
      : input.search === ''
        ? {}
        : read(
            readQuery(input.search, compiled.queryParameters, {
              where: '/query',
              ignored: operation.credentialsInQuery,
            }),
          );
    const headers = read(readHeaders(input.headers, compiled.headerParameters));
    const cookie = input.headers.cookie;
    const cookies = read(
      readCookieParameters(
        typeof cookie === 'string' ? cookie : cookie?.join('; '),
        compiled.cookieParameters,
      ),
    );
    if (compiled.path) problems.push(...compiled.path(params, '/path'));
    if (queryString) {
      if (query[queryString.parameter.name] !== undefined)
        problems.push(...queryString.check(query, '/query'));
    } else if (compiled.query && (input.search !== '' || compiled.queryParameters.some(isRequired)))
      problems.push(...compiled.query(query, '/query'));
    for (const { name, asSent, converted } of compiled.queryAlternatives) {
      if (query[name] === undefined || asSent(query[name]).length === 0) continue;
      const one = Object.create(null) as Record<string, unknown>;
      one[name] = query[name];
      problems.push(...converted(one, '/query'));
      query[name] = one[name];
    }
    if (compiled.header) problems.push(...compiled.header(headers, '/headers'));
    if (compiled.cookie) problems.push(...compiled.cookie(cookies, '/cookies'));
    return { params, query, headers, cookies };
  }

  return {
    check,
    prepare(operation) {
      compile(operation);
      for (const [mediaType, schema] of operation.requestBody?.content ?? []) {
        if (isJsonMediaType(mediaType)) compiler.request(schema);
        else if (mediaType.startsWith('text/')) compiler.form(wrapperOf(schema));
        else if (describesObject(schema)) compiler.form(schema);
      }
    },
  };
}

/** The conditional request fields of RFC 9110 §13 that name a version of a record. */
const CONDITIONS = /^if-(none-)?match$/i;

function isRequired(parameter: Parameter): boolean {
  return parameter.required;
}

/** Whether a schema can describe an object: it says `object`, or says no type at all. */
function describesObject(schema: SchemaObject): boolean {
  const types = typesOf(schema);
  return types.length === 0 || types.includes('object');
}

/** Whether a parameter's schema offers alternatives (`oneOf`, `anyOf`): see JudgedApart. */
function offersAlternatives(parameter: Parameter): boolean {
  return Array.isArray(parameter.schema.oneOf) || Array.isArray(parameter.schema.anyOf);
}

/**
 * The parameters of one location as one object schema, so they are checked in one call; those
 * `apart` are only named there (any value), their values checked on their own.
 */
function objectSchema(
  parameters: readonly Parameter[],
  closed: boolean,
  apart: readonly Parameter[] = [],
): SchemaObject {
  return {
    type: 'object',
    properties: Object.fromEntries(
      parameters.map((parameter) => [
        parameter.name,
        apart.includes(parameter) ? {} : parameter.schema,
      ]),
    ),
    required: parameters.filter(isRequired).map((parameter) => parameter.name),
    ...(closed ? { additionalProperties: false } : {}),
  } as SchemaObject;
}
