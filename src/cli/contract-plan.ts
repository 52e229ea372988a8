import type { OpenAPIV3_1 } from 'openapi-types';
import { SpecError, type OpenApiDocument, type SchemaObject } from '../openapi/load.js';
import { listOperations, type Operation } from '../openapi/operations.js';
import { fragmentTokens } from '../openapi/json-pointer.js';
import { inferResources, type Resource } from '../openapi/resources.js';
import { callbacksOf, matchWebhooks, webhooksOf } from '../openapi/outgoing.js';
import { writeExpression } from '../openapi/runtime-expression.js';
import { securitySchemesOf } from '../openapi/security-schemes.js';
import { framingOf, itemSchemaOf, type StreamMediaObject } from '../openapi/streams.js';
import type {
  Schema,
  PlanResponse,
  PlanOperation,
  PlanSecurityScheme,
  CollectionAction,
  RuleFamily,
  ContractPlan,
  PlanOutgoing,
} from './contract-plan-format.js';

export type { PlanOperation, PlanSecurityScheme, ContractPlan } from './contract-plan-format.js';

/** The families of rules an interface document may number, in `x-contract-rules`. */
const RULE_FAMILIES: readonly RuleFamily[] = ['required', 'invalid', 'credentials', 'create'];

/**
 * The plan of a (resolved) spec: its operations, security schemes and collections.
 * @throws {SpecError} when `x-contract-rules` is not a map of known families to rule numbers.
 * @example buildContractPlan((await loadSpec(path)).resolved).collections[0]?.name // 'categories'
 */
export function buildContractPlan(document: OpenApiDocument): ContractPlan {
  const toSchema = schemaCopier(document);
  const operations = listOperations(document);
  const byLocation = new Map(operations.map((op) => [`${op.method} ${op.path}`, op.operationId]));

  const resources = inferResources(operations);
  return {
    title: document.info?.title ?? 'the interface',
    ruleNumbers: ruleNumbersOf(document),
    securitySchemes: planSecuritySchemes(document),
    operations: operations.map((operation) => planOperation(operation, toSchema, byLocation)),
    outgoing: planOutgoing(document, operations, resources, toSchema, byLocation),
    collections: resources
      // A collection below a record of another (`/projects/{projectId}/tickets`, at any depth:
      // `/orgs/{orgId}/projects/{projectId}/tickets`) is checked under a record of its parent;
      // one whose chain of parents does not reach a top-level collection, as operations only.
      .filter((resource, _index, all) => reachesTop(resource, all))
      .map((resource) => {
        const actions: Partial<Record<CollectionAction, string>> = {};
        const envelopes: Partial<Record<CollectionAction, string>> = {};
        for (const [operation, action] of resource.actions) {
          // The collection's own list: a view of it (`/pet/findByStatus`) needs its filters.
          if (action === 'list' && operation.path !== resource.collectionPath) continue;
          actions[action] = operation.operationId;
          const envelope = resource.envelopes.get(operation);
          if (envelope?.kind === 'wrapped') envelopes[action] = envelope.property;
        }
        const { itemParameter } = resource;
        // The last path parameter above the collection names its parent's record.
        const parentParameter = resource.scope.at(-1);
        return {
          name: resource.name,
          collectionPath: resource.collectionPath,
          ...(resource.itemPath ? { itemPath: resource.itemPath } : {}),
          ...(itemParameter ? { itemParameter } : {}),
          idProperty: resource.idProperty,
          idKind: resource.idKind,
          schema: toSchema(resource.schema),
          operations: actions,
          envelopes,
          ...(resource.parent !== undefined && parentParameter !== undefined
            ? { parent: { collection: resource.parent, parameter: parentParameter } }
            : {}),
        };
      }),
  };
}

/** The callbacks of every operation and the webhooks, with what sets each off. */
function planOutgoing(
  document: OpenApiDocument,
  operations: readonly Operation[],
  resources: readonly Resource[],
  toSchema: (schema: unknown) => Schema,
  byLocation: ReadonlyMap<string, string>,
): PlanOutgoing[] {
  const planned: PlanOutgoing[] = [];
  for (const operation of operations)
    for (const callback of callbacksOf(operation, document)) {
      const [first, ...rest] = callback.url ?? [];
      const tail = rest
        .map((part) => (typeof part === 'string' ? part : `{${writeExpression(part)}}`))
        .join('');
      const source =
        typeof first === 'object' && first.kind === 'request' ? first.source : undefined;
      planned.push({
        kind: 'callback',
        name: callback.name,
        request: planOperation(callback.operation, toSchema, byLocation),
        after: operation.operationId,
        ...(source?.in === 'body'
          ? { urlFrom: { in: 'body' as const, pointer: [...source.pointer], rest: tail } }
          : source && (source.in === 'query' || source.in === 'header')
            ? { urlFrom: { in: source.in, name: source.name, rest: tail } }
            : {}),
      });
    }
  const webhooks = webhooksOf(document);
  const { triggers } = matchWebhooks(webhooks, resources);
  for (const webhook of webhooks) {
    const trigger = triggers.find((one) => one.webhook === webhook);
    const write = trigger
      ? [...trigger.resource.actions].find(
          ([, action]) =>
            (trigger.change === 'created' && action === 'create') ||
            (trigger.change === 'updated' && (action === 'update' || action === 'replace')) ||
            (trigger.change === 'deleted' && action === 'delete'),
        )?.[0]
      : undefined;
    planned.push({
      kind: 'webhook',
      name: webhook.path,
      request: planOperation(webhook, toSchema, byLocation),
      ...(write ? { after: write.operationId } : {}),
    });
  }
  return planned;
}

/**
 * Whether a collection is top-level, or below a record of a collection that is, level by
 * level: each parent's path parameters are its child's but the last, which names its record.
 */
function reachesTop(resource: Resource, all: readonly Resource[]): boolean {
  if (!resource.collectionPath.includes('{')) return true;
  const parent = all.find((candidate) => candidate.name === resource.parent);
  if (!parent || parent === resource) return false;
  const above = resource.scope.slice(0, -1);
  const sameScope =
    parent.scope.length === above.length && parent.scope.every((name, i) => name === above[i]);
  return sameScope && parent.itemParameter === resource.scope.at(-1) && reachesTop(parent, all);
}

function planOperation(
  operation: Operation,
  toSchema: (schema: unknown) => Schema,
  byLocation: ReadonlyMap<string, string>,
): PlanOperation {
  const responses: Record<string, PlanResponse> = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    const headers: PlanResponse['headers'] = {};
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const { required, schema } = header as OpenAPIV3_1.HeaderObject;
      headers[name.toLowerCase()] = { required: required === true, schema: toSchema(schema ?? {}) };
    }
    const links: PlanResponse['links'] = {};
    for (const [name, link] of Object.entries(response.links ?? {})) {
      const { operationId, operationRef, parameters } = link as OpenAPIV3_1.LinkObject;
      const target = operationId ?? (operationRef && operationAt(operationRef, byLocation));
      if (target) links[name] = { operationId: target, parameters: { ...(parameters ?? {}) } };
    }
    const items = Object.entries(response.content ?? {}).flatMap(([type, media]) => {
      const schema = itemSchemaOf(type, media);
      if (schema === undefined || framingOf(type) === 'multipart') return [];
      const itemSchema = (media as StreamMediaObject).itemSchema !== undefined;
      return [[type, { schema: toSchema(schema), itemSchema }] as const];
    });
    responses[status] = {
      content: Object.fromEntries(
        Object.entries(response.content ?? {}).map(([type, media]) => [
          type,
          toSchema(media.schema ?? {}),
        ]),
      ),
      headers,
      links,
      ...(items.length > 0 ? { items: Object.fromEntries(items) } : {}),
      ...(typeof response.description === 'string' && response.description !== ''
        ? { description: response.description }
        : {}),
    };
  }
  const requestBody = operation.requestBody;
  return {
    operationId: operation.operationId,
    method: operation.method,
    path: operation.path,
    parameters: operation.parameters.map((parameter) => ({
      name: parameter.name,
      in: parameter.in,
      required: parameter.required,
      schema: toSchema(parameter.schema),
      style: parameter.style,
      explode: parameter.explode,
      ...(parameter.json ? { json: true } : {}),
      ...(parameter.mediaType ? { mediaType: parameter.mediaType } : {}),
    })),
    ...(requestBody
      ? {
          requestBody: {
            required: requestBody.required,
            content: Object.fromEntries(
              [...requestBody.content].map(([type, schema]) => [type, toSchema(schema)]),
            ),
          },
        }
      : {}),
    responses,
    security: operation.security.map((requirement) => ({ ...requirement })),
    successStatus: operation.successStatus,
  };
}

/** `#/paths/~1authors~1{authorId}/get` as the operationId at that path and method. */
function operationAt(ref: string, byLocation: ReadonlyMap<string, string>): string | undefined {
  const match = /^#\/paths\/([^/]+)\/([a-z]+)$/.exec(ref);
  if (!match) return undefined;
  const [, path, method] = fragmentTokens(ref) ?? [];
  return byLocation.get(`${method} ${path}`);
}

/** The document's security schemes as the mock reads and enforces them, as plain data. */
function planSecuritySchemes(document: OpenApiDocument): Record<string, PlanSecurityScheme> {
  return Object.fromEntries(
    [...securitySchemesOf(document)].map(([name, scheme]) => [name, { ...scheme }]),
  );
}

function ruleNumbersOf(document: OpenApiDocument): ContractPlan['ruleNumbers'] {
  const raw = (document as { 'x-contract-rules'?: unknown })['x-contract-rules'];
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new SpecError('x-contract-rules must map rule families to the numbers of their rules');
  const numbers: ContractPlan['ruleNumbers'] = {};
  for (const [family, number] of Object.entries(raw)) {
    if (!(RULE_FAMILIES as readonly string[]).includes(family))
      throw new SpecError(
        `x-contract-rules names the family "${family}", which the suite does not know (it knows: ${RULE_FAMILIES.join(', ')})`,
      );
    if (!Number.isInteger(number) || (number as number) < 1)
      throw new SpecError(
        `x-contract-rules gives ${family} the number ${JSON.stringify(number)}: a rule number is a whole number from 1`,
      );
    numbers[family as RuleFamily] = number as number;
  }
  return numbers;
}

/**
 * Copies schemas into plain data: shared sub-schemas stay shared, a schema met again inside
 * itself (a recursive one) becomes `{}` there, and a component schema carries its name.
 */
function schemaCopier(document: OpenApiDocument): (schema: unknown) => Schema {
  const names = new Map<unknown, string>();
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {}))
    if (!names.has(schema)) names.set(schema, name);
  const done = new Map<object, unknown>();
  const open = new Set<object>();

  function copy(value: unknown): unknown {
    if (typeof value !== 'object' || value === null) return value;
    const finished = done.get(value);
    if (finished !== undefined) return finished;
    if (open.has(value)) return {};
    open.add(value);
    let result: unknown;
    if (Array.isArray(value)) result = value.map(copy);
    else {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value))
        if (inner !== undefined) out[key] = copy(inner);
      const name = names.get(value);
      if (name !== undefined) out['x-schema-name'] = name;
      result = out;
    }
    open.delete(value);
    done.set(value, result);
    return result;
  }
  return (schema) => copy(schema as SchemaObject) as Schema;
}
