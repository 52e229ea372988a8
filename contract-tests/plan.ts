// The plan's format (src/cli/contract-plan-format.ts, the one the CLI writes) and what the
// rules ask of it.
import type { PlanOperation, PlanResponse, Schema } from '../src/cli/contract-plan-format.js';
import { isJsonMediaType } from '../src/openapi/media-types.js';

export type {
  Schema,
  HttpMethod,
  PlanParameter,
  PlanResponse,
  PlanItems,
  PlanLink,
  PlanRequirement,
  PlanOperation,
  PlanSecurityScheme,
  CollectionAction,
  PlanCollection,
  RuleFamily,
  ContractPlan,
  PlanOutgoing,
} from '../src/cli/contract-plan-format.js';

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
