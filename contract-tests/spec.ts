import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createAnswerJudge, type JudgedAnswer } from '../src/openapi/answer-judge.js';
import { URI_FORMATS } from '../src/openapi/formats.js';
import { jsonRequestOf, type ContractPlan, type PlanOperation, type Schema } from './plan.js';

export type { Schema } from './plan.js';
export { schemaName } from '../src/openapi/answer-judge.js';

/** Which way a value travels: a request ignores `readOnly` properties, a response `writeOnly` ones. */
type Direction = 'request' | 'response';

/** An answer as the spec judges it. */
interface Answer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  text: string;
  /** The parsed JSON body; `undefined` when the body is not JSON. */
  json: unknown;
  /** The request it answers, when known: a HEAD's answer has no body to check. */
  request?: { method: string };
}

/** One way an answer breaks the spec: `what` groups alike failures, `details` say where. */
interface Problem {
  what: string;
  details: string[];
  /** The part of the answer at fault, as the validating proxy names it (`status`, `headers`, `error-shape`…). */
  rule?: string;
}

/** The interface as the spec describes it, judged with ajv (JSON Schema 2020-12). */
export interface ContractSpec {
  plan: ContractPlan;
  operation(operationId: string): PlanOperation;
  /** The ways an answer breaks what the spec documents for it; empty when it fits. */
  checkAnswer(operation: PlanOperation, answer: Answer): Problem[];
  /** The reasons a value breaks a schema; empty when it fits. */
  validate(schema: Schema, value: unknown, direction: Direction): string[];
  /** Whether a JSON request body is valid for the operation. */
  acceptsRequest(operation: PlanOperation, body: unknown): boolean;
}

/** The checks of each plan, made once: every run against the same plan shares its compiled schemas. */
const specs = new WeakMap<ContractPlan, ContractSpec>();

/**
 * The checks of a plan's spec. Schemas are compiled once each, per direction, and once for
 * every run of the same plan.
 * @example specOf(plan).checkAnswer(plan.operations[0], answer) // []
 */
export function specOf(plan: ContractPlan): ContractSpec {
  let spec = specs.get(plan);
  if (!spec) {
    spec = checksOf(plan);
    specs.set(plan, spec);
  }
  return spec;
}

/** The checks of a plan's spec, compiled as they are first asked for. */
function checksOf(plan: ContractPlan): ContractSpec {
  const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false, validateSchema: false });
  addFormats.default(ajv);
  // URIs as RFC 3986 defines them (ajv-formats' url refuses loopback hosts and relative ones).
  for (const [name, pattern] of Object.entries(URI_FORMATS)) ajv.addFormat(name, pattern);
  // OpenAPI's own formats, which JSON Schema does not define.
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  for (const format of ['float', 'double'])
    ajv.addFormat(format, { type: 'number', validate: () => true });
  const compiled = { request: new WeakMap<Schema, ValidateFunction>(), response: new WeakMap() };
  const byId = new Map(plan.operations.map((operation) => [operation.operationId, operation]));

  const validate: ContractSpec['validate'] = (schema, value, direction) => {
    let check = compiled[direction].get(schema) as ValidateFunction | undefined;
    if (!check) {
      check = ajv.compile(relaxed(schema, direction === 'request' ? 'readOnly' : 'writeOnly'));
      compiled[direction].set(schema, check);
    }
    if (check(value)) return [];
    return (check.errors ?? []).map(
      (e) =>
        `body${e.instancePath} ${e.message}${e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})` : ''}`,
    );
  };

  // The one judge of an answer, which the validating proxy asks too (src/openapi/answer-judge.ts).
  const judge = createAnswerJudge({
    body: (schema, value) => validate(schema as Schema, value, 'response'),
    header: (name, schema, text) =>
      validate(schema as Schema, headerValue(text, schema as Schema), 'response').map(
        (reason) => `${name}: ${reason.replace(/^body/, 'value')}`,
      ),
  });

  return {
    plan,
    operation(operationId) {
      const found = byId.get(operationId);
      if (!found) throw new Error(`the plan has no operation "${operationId}"`);
      return found;
    },
    validate,
    acceptsRequest(operation, body) {
      const json = jsonRequestOf(operation);
      return json !== undefined && validate(json.schema, body, 'request').length === 0;
    },
    checkAnswer(operation, answer) {
      const seen: JudgedAnswer = {
        method: answer.request?.method.toUpperCase(),
        status: answer.status,
        headers: answer.headers,
        text: answer.text,
      };
      return judge(operation, seen).map(({ what, details, rule }) => ({
        rule,
        what,
        details:
          rule === 'body' || rule === 'error-shape'
            ? details.map((reason) =>
                reason.startsWith('body') ? `the spec's schema: ${reason}` : reason,
              )
            : [...details],
      }));
    },
  };
}

/** A header's text as the type its schema gives (headers travel as text). */
function headerValue(value: string, schema: Schema): unknown {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value))
    return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

type Marker = 'readOnly' | 'writeOnly';

/**
 * The schema with every property marked `readOnly` (for requests) or `writeOnly` (for
 * responses) taken out of `required`, as OpenAPI means them. Shared sub-schemas are rewritten once.
 */
function relaxed(schema: Schema, marker: Marker, memo = new WeakMap<object, Schema>()): Schema {
  if (typeof schema !== 'object' || schema === null) return schema;
  const done = memo.get(schema);
  if (done) return done;
  const out: Record<string, unknown> = { ...schema };
  memo.set(schema, out as Schema);
  const hidden = new Set<string>();
  for (const part of [schema, ...(schema.allOf ?? [])])
    for (const [name, property] of Object.entries(part.properties ?? {}))
      if (carries(property, marker)) hidden.add(name);
  const sub = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map((item) => relaxed(item as Schema, marker, memo))
      : typeof value === 'object' && value !== null
        ? relaxed(value as Schema, marker, memo)
        : value;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required' && Array.isArray(value))
      out.required = value.filter((name) => !hidden.has(name as string));
    else if (key === 'allOf' && Array.isArray(value))
      out.allOf = value.map((part: Schema) => {
        const rewritten = relaxed(part, marker, memo);
        return Array.isArray(part.required)
          ? { ...rewritten, required: part.required.filter((name) => !hidden.has(name)) }
          : rewritten;
      });
    else if (['properties', 'patternProperties', '$defs', 'dependentSchemas'].includes(key))
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, inner]) => [name, sub(inner)]),
      );
    else if (
      [
        'items',
        'additionalProperties',
        'anyOf',
        'oneOf',
        'not',
        'if',
        'then',
        'else',
        'prefixItems',
        'contains',
        'unevaluatedProperties',
        'propertyNames',
      ].includes(key)
    )
      out[key] = sub(value);
  }
  return out as Schema;
}

/** Whether a schema carries `readOnly: true` (or `writeOnly`), itself or in an `allOf` part. */
export function carries(schema: Schema, marker: Marker): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  return schema[marker] === true || (schema.allOf ?? []).some((part) => carries(part, marker));
}
