// The headers an operation's answer documents, given values that mean what they say.
import { randomUUID } from 'node:crypto';
import type { SchemaObject } from '../openapi/load.js';
import { responseFor, type Operation } from '../openapi/operations.js';
import type { DataGenerator } from '../openapi/sample.js';
import { CheckedJson, type Answer } from '../vocabulary/answer.js';
import { errors } from '../vocabulary/error-catalogue.js';
import { entityTagOf } from './resources/entity-tags.js';

/** One header a response requires, and how the mock gives it when the handler did not. */
interface DeclaredHeader {
  readonly name: string;
  readonly lower: string;
  /** A value made for it: fresh each time (a request id), or made once; none for what only the handler knows. */
  readonly make: ((body: unknown) => string) | undefined;
}

/** Headers only the handler can give a meaning to: an answer that requires one and lacks it breaks the spec. */
const BOUND = new Set(['location', 'link', 'content-location']);
/** Headers the HTTP layer writes, which OpenAPI says to ignore when a response declares them. */
const IGNORED = new Set(['content-type', 'content-length', 'transfer-encoding']);

/**
 * Fills in the headers a response documents that an answer lacks, and refuses one without a
 * header it requires, as the answer check refuses a body without a required property: an
 * `ETag` is the strong tag of the body, a `Location` or `Link` must come from the handler (it
 * alone knows the record and the page), any other header (rate limits, request ids) is a value
 * valid against its schema, a UUID made fresh for each answer. Planned once per operation and
 * status; an operation whose answers document no header costs one map look-up.
 * @throws {ApiError} 500 `invalid_response` for a required header the answer lacks and the mock cannot make.
 * @example withHeaders(getItem, { status: 200, body: item }).headers // { ETag: '"…"' }
 */
export function createAnswerHeaders(
  generator: DataGenerator,
): (operation: Operation, answer: Answer) => Answer {
  const plans = new WeakMap<Operation, Map<number, readonly DeclaredHeader[]>>();

  function planOf(operation: Operation, status: number): readonly DeclaredHeader[] {
    let byStatus = plans.get(operation);
    if (!byStatus) plans.set(operation, (byStatus = new Map()));
    let plan = byStatus.get(status);
    if (!plan) byStatus.set(status, (plan = declaredHeaders(operation, status, generator)));
    return plan;
  }

  return function withHeaders(operation, answer) {
    const plan = planOf(operation, answer.status);
    if (plan.length === 0) return answer;
    const given = new Set(Object.keys(answer.headers ?? {}).map((name) => name.toLowerCase()));
    let added: Record<string, string> | undefined;
    const missing: string[] = [];
    for (const header of plan) {
      if (given.has(header.lower)) continue;
      if (header.make) (added ??= {})[header.name] = header.make(answer.body);
      else missing.push(`/headers must have required header '${header.name}'`);
    }
    if (missing.length > 0) throw errors.invalidResponse(missing);
    return added ? { ...answer, headers: { ...answer.headers, ...added } } : answer;
  };
}

function declaredHeaders(
  operation: Operation,
  status: number,
  generator: DataGenerator,
): readonly DeclaredHeader[] {
  const headers = responseFor(operation, status)?.response.headers ?? {};
  const plan: DeclaredHeader[] = [];
  for (const [name, declared] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    // An optional header is the handler's to give (an ETag, a Link): none is made up.
    if (IGNORED.has(lower) || !('required' in declared) || declared.required !== true) continue;
    const schema = ('schema' in declared ? declared.schema : undefined) as SchemaObject | undefined;
    plan.push({ name, lower, make: BOUND.has(lower) ? undefined : maker(lower, schema) });
  }
  return plan;

  function maker(lower: string, schema: SchemaObject | undefined): (body: unknown) => string {
    if (lower === 'etag')
      return (body) => entityTagOf(body instanceof CheckedJson ? body.bytes.toString() : body);
    if (schema?.format === 'uuid') return () => randomUUID();
    let made: string | undefined;
    return () => (made ??= asHeader(schema ? generator.value(schema, `/headers/${lower}`) : ''));
  }
}

/** A generated value as a header field writes it. */
function asHeader(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(String).join(', ');
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}
