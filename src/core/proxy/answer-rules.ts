import type { OpenAPIV3_1 } from 'openapi-types';
import { referenceHeaderFormat } from '../../openapi/formats.js';
import type { SchemaObject } from '../../openapi/load.js';
import { isJsonMediaType, responseFor, type Operation } from '../../openapi/operations.js';
import type { Envelope, Resource } from '../../openapi/resources.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import type { Breach } from './request-rules.js';

type ResponseObject = OpenAPIV3_1.ResponseObject;
type HeaderObject = OpenAPIV3_1.HeaderObject;

/** An answer of the target as the proxy saw it go by. */
export interface ObservedAnswer {
  /** The request's method: a HEAD's answer has no body to check. */
  method: string;
  status: number;
  /** By lower-case name, as Node gives them. */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * The body's bytes, decoded from its Content-Encoding; undefined when it was too large to
   * keep (the proxy streams it on, unchecked).
   */
  body: Buffer | undefined;
}

/**
 * Checks the target's answers against the spec: the status documented for the operation (the
 * exact one, its range, or `default`), the headers it documents as required and their schemas,
 * the media type, the body against the schema of that status and media type (an error's is the
 * `error-shape` rule, which also wants a `status` in an error body to be the answer's), and, for
 * a list of a collection the mock infers, that no id repeats.
 * @example checkAnswer(listCategories, { method: 'GET', status: 200, headers, body }) // [{ rule: 'duplicate-ids', message: '...' }]
 */
export function createAnswerRules(
  compiler: SchemaCompiler,
  resources: readonly Resource[],
): (operation: Operation, answer: ObservedAnswer) => Breach[] {
  const lists = new Map<Operation, { resource: Resource; envelope: Envelope }>();
  for (const resource of resources)
    for (const [operation, action] of resource.actions) {
      const envelope = resource.envelopes.get(operation);
      if (action === 'list' && envelope) lists.set(operation, { resource, envelope });
    }
  /** The documented headers of each response as one object schema, made once. */
  const headerSchemas = new WeakMap<ResponseObject, SchemaObject | undefined>();

  function headerBreaches(response: ResponseObject, answer: ObservedAnswer): Breach[] {
    let schema = headerSchemas.get(response);
    if (!headerSchemas.has(response)) {
      schema = headerSchemaOf(response);
      headerSchemas.set(response, schema);
    }
    if (!schema) return [];
    const values: Record<string, string> = {};
    for (const name of Object.keys(schema.properties as object)) {
      const value = answer.headers[name];
      if (value !== undefined) values[name] = typeof value === 'string' ? value : value.join(', ');
    }
    return compiler
      .parameters(schema)(values, '/headers')
      .map((message) => ({ rule: 'headers', message }));
  }

  return (operation, answer) => {
    const documented = responseFor(operation, answer.status);
    if (!documented) {
      const statuses = Object.keys(operation.responses).join(', ');
      return [
        {
          rule: 'status',
          message: `${operation.operationId} does not document ${answer.status} (it documents ${statuses || 'no response'})`,
        },
      ];
    }
    const { response } = documented;
    const found = headerBreaches(response, answer);
    const { body } = answer;
    const content = response.content ?? {};
    const types = Object.keys(content);
    const bodiless =
      answer.method === 'HEAD' ||
      answer.status === 204 ||
      answer.status === 304 ||
      body?.length === 0;
    if (bodiless) {
      if (types.length > 0 && body?.length === 0 && answer.method !== 'HEAD')
        found.push({
          rule: 'body',
          message: `the answer has no body; the spec gives ${answer.status} a body of ${types.join(' or ')}`,
        });
      return found;
    }
    const sent = headerText(answer.headers['content-type']);
    if (types.length === 0) {
      found.push({
        rule: 'content-type',
        message: `the answer has a body (${sent ?? 'no Content-Type'}); the spec gives ${answer.status} none`,
      });
      return found;
    }
    const essence = sent?.split(';')[0]?.trim().toLowerCase();
    const matched = essence === undefined ? undefined : matchType(types, essence);
    if (matched === undefined) {
      found.push({
        rule: 'content-type',
        message: `the answer is ${sent === undefined ? 'without Content-Type' : `"${sent}"`}; the spec gives ${answer.status} ${types.join(' or ')}`,
      });
      return found;
    }
    if (body === undefined || essence === undefined || !isJsonMediaType(essence)) return found;
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch (err) {
      found.push({ rule: 'body', message: `the body is not JSON: ${(err as Error).message}` });
      return found;
    }
    const schema = (content[matched]?.schema ?? {}) as SchemaObject;
    const rule = answer.status >= 400 ? 'error-shape' : 'body';
    for (const message of compiler.response(schema)(value, '/response'))
      found.push({ rule, message });
    // An error body that repeats the status (the bundled Error schema, RFC 9457's Problem
    // Details) must repeat the one it was sent with: the contract suite's check (contract-tests/
    // spec.ts), which imports nothing from src/, so the rule is written in both.
    const reported = (value as { status?: unknown } | null)?.status;
    if (answer.status >= 400 && typeof reported === 'number' && reported !== answer.status)
      found.push({
        rule: 'error-shape',
        message: `the error body says status ${reported}, the HTTP status is ${answer.status}`,
      });
    const list = lists.get(operation);
    if (list && answer.status < 300)
      found.push(...duplicateIds(list.resource, list.envelope, value));
    return found;
  };
}

/** The spec's media type an answer's matches: exact, then `type/*`, then `*\/*`. */
function matchType(types: readonly string[], essence: string): string | undefined {
  const lower = types.map((type) => type.toLowerCase());
  const range = `${essence.split('/')[0] ?? ''}/*`;
  for (const wanted of [essence, range, '*/*']) {
    const at = lower.indexOf(wanted);
    if (at !== -1) return types[at];
  }
  return undefined;
}

function headerText(value: string | readonly string[] | undefined): string | undefined {
  return value === undefined || typeof value === 'string' ? value : value.join(', ');
}

/** The documented headers of a response (Content-Type aside, as OpenAPI says) as one object schema. */
function headerSchemaOf(response: ResponseObject): SchemaObject | undefined {
  const headers = Object.entries((response.headers ?? {}) as Record<string, HeaderObject>).filter(
    ([name]) => name.toLowerCase() !== 'content-type',
  );
  if (headers.length === 0) return undefined;
  return {
    type: 'object',
    properties: Object.fromEntries(
      headers.map(([name, header]) => {
        const schema = (header.schema ?? {}) as SchemaObject;
        const format = referenceHeaderFormat(name, schema.format);
        return [name.toLowerCase(), format === undefined ? schema : { ...schema, format }];
      }),
    ),
    required: headers.filter(([, header]) => header.required).map(([name]) => name.toLowerCase()),
  } as SchemaObject;
}

/** The ids a list holds more than once. */
function duplicateIds(resource: Resource, envelope: Envelope, body: unknown): Breach[] {
  const records =
    envelope.kind === 'plain'
      ? body
      : (body as Record<string, unknown> | null)?.[envelope.property];
  if (!Array.isArray(records)) return [];
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const record of records) {
    const id = (record as Record<string, unknown> | null)?.[resource.idProperty];
    if (id === undefined) continue;
    const key = JSON.stringify(id);
    if (seen.has(key)) repeated.add(key);
    seen.add(key);
  }
  if (repeated.size === 0) return [];
  return [
    {
      rule: 'duplicate-ids',
      message: `the list of ${resource.name} holds ${resource.idProperty} ${[...repeated].join(', ')} more than once`,
    },
  ];
}
