import type { OpenAPIV3_1 } from 'openapi-types';
import type { SchemaObject } from '../openapi/load.js';
import { essenceOf } from '../openapi/media-types.js';
import { type Operation, type Parameter } from '../openapi/operations.js';
import { requiredOf } from '../openapi/schema-parts.js';
import { itemSchemaOf } from '../openapi/streams.js';
import { inside, report, type DiffRun, type Where } from './change.js';
import { messageRuleId, type MessageKind, type Part } from './rules.js';
import { diffSchemas } from './schema-diff.js';

type ResponseObject = OpenAPIV3_1.ResponseObject;
type ParameterObject = OpenAPIV3_1.ParameterObject;

/** The parts an operation's request and answers belong to: its own, a callback's, a webhook's. */
export interface Parts {
  readonly request: Part;
  readonly response: Part;
}

/** One side of an operation: what listOperations makes of it, and its path item's parameters. */
export interface OperationSide {
  readonly operation: Operation;
  readonly pathParameters: readonly ParameterObject[];
}

/**
 * Reports what changed in one operation present on both sides: its deprecation, its id, its
 * parameters, its request body and its answers. Security and callbacks are compared apart.
 */
export function diffOperation(
  run: DiffRun,
  parts: Parts,
  where: Where,
  old: OperationSide,
  now: OperationSide,
): void {
  const before = old.operation.definition;
  const after = now.operation.definition;
  if (before.deprecated !== true && after.deprecated === true)
    report(run, 'operation-deprecated', inside(where, 'deprecated'), 'the operation is deprecated');
  if (before.operationId && after.operationId && before.operationId !== after.operationId)
    report(
      run,
      'operation-id-changed',
      inside(where, 'operationId'),
      `operationId ${before.operationId} -> ${after.operationId}: generated clients rename the method`,
    );
  diffParameters(run, parts.request, where, old, now);
  diffRequestBody(run, parts.request, where, old.operation, now.operation);
  diffResponses(run, parts.response, where, old.operation, now.operation);
}

/** A parameter's identity: its place and name; a path parameter's place in the path, as it may be renamed. */
function keyOf(operation: Operation, parameter: Parameter): string {
  if (parameter.in !== 'path') return `${parameter.in} ${parameter.name}`;
  const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
  return `path #${names.indexOf(parameter.name)}`;
}

/** Where a parameter is written: in the operation's list, else in its path item's. */
function parameterWhere(where: Where, side: OperationSide, parameter: Parameter): Where {
  const same = (candidate: ParameterObject) =>
    candidate.in === parameter.in &&
    (parameter.in === 'header'
      ? candidate.name.toLowerCase() === parameter.name
      : candidate.name === parameter.name);
  const own = ((side.operation.definition.parameters ?? []) as ParameterObject[]).findIndex(same);
  if (own >= 0) return inside(where, 'parameters', own);
  const shared = side.pathParameters.findIndex(same);
  return { operation: where.operation, path: [...where.path.slice(0, -1), 'parameters', shared] };
}

function diffParameters(
  run: DiffRun,
  part: Part,
  where: Where,
  old: OperationSide,
  now: OperationSide,
): void {
  const say = (kind: MessageKind, at: Where, message: string) =>
    report(run, messageRuleId(part, kind), at, message);
  const byKey = (side: OperationSide) =>
    new Map(
      side.operation.parameters.map((parameter) => [keyOf(side.operation, parameter), parameter]),
    );
  const before = byKey(old);
  const after = byKey(now);
  for (const [key, parameter] of after) {
    if (before.has(key)) continue;
    const name = `${parameter.in} parameter ${parameter.name}`;
    if (parameter.required)
      say(
        'required-parameter-added',
        parameterWhere(where, now, parameter),
        `required ${name} added`,
      );
    else
      say(
        'optional-parameter-added',
        parameterWhere(where, now, parameter),
        `optional ${name} added`,
      );
  }
  for (const [key, was] of before) {
    const name = `${was.in} parameter ${was.name}`;
    const is = after.get(key);
    if (!is) {
      say('parameter-removed', parameterWhere(where, old, was), `${name} removed`);
      continue;
    }
    const at = parameterWhere(where, now, is);
    if (!was.required && is.required)
      say('parameter-became-required', at, `${name} became required`);
    if (was.required && !is.required)
      say('parameter-became-optional', at, `${name} became optional`);
    if (was.style !== is.style || was.explode !== is.explode || was.json !== is.json)
      say(
        'parameter-style-changed',
        at,
        `${name} is written differently: ${styleOf(was)} -> ${styleOf(is)}`,
      );
    diffSchemas(run, part, inside(at, 'schema'), was.schema, is.schema);
  }
}

function styleOf(parameter: Parameter): string {
  if (parameter.json) return 'JSON content';
  return `style ${parameter.style}${parameter.explode ? ', exploded' : ''}`;
}

function diffRequestBody(
  run: DiffRun,
  part: Part,
  where: Where,
  old: Operation,
  now: Operation,
): void {
  const say = (kind: MessageKind, at: Where, message: string) =>
    report(run, messageRuleId(part, kind), at, message);
  const at = inside(where, 'requestBody');
  const before = old.requestBody;
  const after = now.requestBody;
  if (!before) {
    if (!after) return;
    if (after.required) say('required-body-added', at, 'a required request body was added');
    else say('optional-body-added', at, 'an optional request body was added');
    return;
  }
  if (!after) return say('body-removed', at, 'the request body was removed');
  if (!before.required && after.required)
    say('body-became-required', at, 'the request body became required');
  if (before.required && !after.required)
    say('body-became-optional', at, 'the request body became optional');
  diffContent(run, part, inside(at, 'content'), before.content, after.content);
}

/** Media types removed, added, and the schemas of those on both sides. */
function diffContent(
  run: DiffRun,
  part: Part,
  where: Where,
  before: ReadonlyMap<string, SchemaObject>,
  after: ReadonlyMap<string, SchemaObject>,
): void {
  for (const [type, schema] of before) {
    const at = inside(where, type);
    const now = after.get(type);
    if (now === undefined)
      report(run, messageRuleId(part, 'media-type-removed'), at, `media type ${type} removed`);
    else diffSchemas(run, part, inside(at, 'schema'), schema, now);
  }
  for (const type of after.keys())
    if (!before.has(type))
      report(
        run,
        messageRuleId(part, 'media-type-added'),
        inside(where, type),
        `media type ${type} added`,
      );
}

/** A response's media types, lower case without parameters, with their schemas. */
function contentOf(response: ResponseObject): Map<string, SchemaObject> {
  const content = new Map<string, SchemaObject>();
  for (const [type, media] of Object.entries(response.content ?? {})) {
    const essence = essenceOf(type);
    // A stream's items are what its readers read: 3.2's `itemSchema`, compared as a schema is.
    if (!content.has(essence))
      content.set(essence, itemSchemaOf(essence, media) ?? ((media.schema ?? {}) as SchemaObject));
  }
  return content;
}

function isSuccess(status: string): boolean {
  return /^2(\d\d|XX)$/i.test(status);
}

/** Whether a status is still documented: as itself, or by its range (`2XX`). */
function documents(responses: Readonly<Record<string, unknown>>, status: string): boolean {
  return status in responses || (/^\d{3}$/.test(status) && `${status[0]}XX` in responses);
}

function diffResponses(
  run: DiffRun,
  part: Part,
  where: Where,
  old: Operation,
  now: Operation,
): void {
  const say = (kind: MessageKind, at: Where, message: string) =>
    report(run, messageRuleId(part, kind), at, message);
  const at = (status: string) => inside(where, 'responses', status);
  for (const status of Object.keys(old.responses))
    if (!documents(now.responses, status)) {
      if (isSuccess(status))
        say('success-status-removed', at(status), `success status ${status} removed`);
      else say('status-removed', at(status), `status ${status} removed`);
    }
  for (const status of Object.keys(now.responses))
    if (!documents(old.responses, status)) {
      if (isSuccess(status))
        say('success-status-added', at(status), `success status ${status} added`);
      else say('status-added', at(status), `status ${status} added`);
    }
  for (const [status, before] of Object.entries(old.responses)) {
    const after = now.responses[status];
    if (!after) continue;
    const oldContent = contentOf(before);
    const newContent = contentOf(after);
    if (oldContent.size === 0) answerBodyAdded(say, inside(at(status), 'content'), newContent);
    else diffContent(run, part, inside(at(status), 'content'), oldContent, newContent);
    diffHeaders(say, inside(at(status), 'headers'), before, after);
  }
}

type Say = (kind: MessageKind, at: Where, message: string) => void;

/**
 * An answer that had no body now has one: each property it requires is one its writer must now
 * send (a callback's receiver, when the API reads the answer), so it is reported as added.
 */
function answerBodyAdded(say: Say, where: Where, after: ReadonlyMap<string, SchemaObject>): void {
  for (const [type, schema] of after) {
    const at = inside(where, type);
    say('media-type-added', at, `media type ${type} added`);
    for (const name of requiredOf(schema))
      say(
        'required-property-added',
        inside(at, 'schema', 'properties', name),
        `the answer now has a body (${type}) that requires ${name}`,
      );
  }
}

/** An answer's documented headers by lower-case name: whether each is required. */
function headersOf(response: ResponseObject): Map<string, { name: string; required: boolean }> {
  const headers = new Map<string, { name: string; required: boolean }>();
  for (const [name, header] of Object.entries(response.headers ?? {}))
    headers.set(name.toLowerCase(), {
      name,
      required: (header as { required?: boolean }).required === true,
    });
  return headers;
}

function diffHeaders(say: Say, where: Where, before: ResponseObject, after: ResponseObject): void {
  const old = headersOf(before);
  const now = headersOf(after);
  for (const [key, { name, required }] of old) {
    const counterpart = now.get(key);
    const at = inside(where, name);
    if (!counterpart) {
      if (required) say('required-header-removed', at, `required header ${name} removed`);
      else say('header-removed', at, `header ${name} removed`);
    } else if (!required && counterpart.required)
      say('header-became-required', at, `header ${name} became required`);
    else if (required && !counterpart.required)
      say('header-became-optional', at, `header ${name} became optional`);
  }
  for (const [key, { name, required }] of now)
    if (required && !old.has(key))
      say('required-header-added', inside(where, name), `required header ${name} added`);
}
