// A documented refusal of a request the suite composed is no violation: the values were the
// suite's guess, and the server may know better (a kernel name it does not have, a title it
// holds already). The suite tries again with better values: a unique text for each it made
// up, values the server itself lists for fields of the same name, the spec's examples, only
// the required fields; a server that refuses them all leaves the rule not judged, with why.
import { randomBytes } from 'node:crypto';
import type { Exchange } from './http.js';
import type { Expectation } from './kit.js';
import { responseFor, type PlanOperation, type Schema } from './plan.js';
import { keyword, propertiesOf, requiredOf, textKeyword } from './schema-parts.js';
import { NotJudged } from './verdicts.js';

/** Refusals that say nothing of the values sent: the credential, the rate. */
const NOT_ABOUT_VALUES = new Set([401, 403, 407, 429]);

/**
 * Whether a status refuses a request as the operation documents it: a 4xx or 5xx it lists
 * by number or by class (`4XX`), not only under `default`, and none about the credential or
 * the rate.
 * @example isDocumentedRefusal(postSilences, 400) // true: postSilences documents 400
 */
export function isDocumentedRefusal(operation: PlanOperation, status: number): boolean {
  if (status < 400 || NOT_ABOUT_VALUES.has(status)) return false;
  const found = responseFor(operation, status);
  return found !== undefined && found.key !== 'default';
}

/** `id`, `kernel_id`, `ownerId`: a field that names a record. */
const NAMES_A_RECORD = /^id$|[-_]id$|[a-z]Id$/i;

/** Values the server's answers hold, by the name of the field that holds them. */
export type ListedValues = Map<string, unknown[]>;

/**
 * Adds the texts, numbers and booleans an answer holds to `into`, by the name of their field
 * at any depth (`{"kernelspecs": {"python3": {"name": "python3"}}}` lists `name: python3`).
 */
export function collectValues(json: unknown, into: ListedValues, depth = 0): void {
  if (depth > 8 || typeof json !== 'object' || json === null) return;
  if (Array.isArray(json)) {
    for (const item of json.slice(0, 50)) collectValues(item, into, depth + 1);
    return;
  }
  for (const [name, value] of Object.entries(json)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) {
      const known = into.get(name) ?? [];
      if (!known.includes(value)) into.set(name, [...known, value]);
    } else collectValues(value, into, depth + 1);
  }
}

/** What the retries need of the kit. */
export interface RetryContext {
  /** The body's schema (an operation's JSON request). */
  schema: Schema;
  /** Prefix of every text the suite makes up. */
  label: string;
  /** Values the server lists, by field name. */
  listed: ListedValues;
  /** Whether a value fits a schema. */
  fits(schema: Schema, value: unknown): boolean;
  /** Fields never changed: the record's key, a rule's own subject. */
  kept: ReadonlySet<string>;
  /** Whether the retries may leave optional fields out (not when a rule chose the fields). */
  mayDrop: boolean;
}

/**
 * Bodies to try after a documented refusal of `sent`, best first, none the same as another
 * or as `sent`: its made-up texts made unique; then also the server's own values and the
 * spec's examples for fields of the same name; then those with only the required fields.
 * @example betterBodies({ kernel: { name: 'contract-ab kernel name' } }, ctx) // [{ what: 'with unique texts', body: { kernel: { name: 'contract-ab kernel name 5f3a1c' } } }, ...]
 */
export function betterBodies(
  sent: Record<string, unknown>,
  ctx: RetryContext,
): { what: string; body: Record<string, unknown> }[] {
  const suffix = randomBytes(3).toString('hex');
  const unique = rewrite(sent, ctx.schema, ctx, (value, schema) =>
    typeof value === 'string' && value.startsWith(ctx.label) && isPlainText(schema)
      ? `${value} ${suffix}`
      : value,
  );
  const listed = rewrite(unique, ctx.schema, ctx, (value, schema, name) => {
    // A field that names a record stays: another's id would act on a record not the run's.
    if (textKeyword(schema, 'enum') !== undefined || NAMES_A_RECORD.test(name)) return value;
    const candidates = [
      ...(ctx.listed.get(name) ?? []),
      ...[
        textKeyword<unknown>(schema, 'example'),
        ...(textKeyword<unknown[]>(schema, 'examples') ?? []),
      ].filter((example) => example !== undefined),
    ];
    return (
      candidates.find(
        (candidate) =>
          typeof candidate === typeof value && candidate !== value && ctx.fits(schema, candidate),
      ) ?? value
    );
  });
  const required = new Set(requiredOf(ctx.schema));
  const requiredOnly = ctx.mayDrop
    ? Object.fromEntries(Object.entries(listed).filter(([name]) => required.has(name)))
    : listed;
  const tried = [JSON.stringify(sent)];
  return [
    { what: 'with unique texts', body: unique },
    { what: "with the values the server lists and the spec's examples", body: listed },
    { what: 'with the required fields only', body: requiredOnly },
  ].filter(({ body }) => {
    const text = JSON.stringify(body);
    if (tried.includes(text)) return false;
    tried.push(text);
    return true;
  });
}

/** A copy of `body` with each scalar value at any depth replaced as `change` says. */
function rewrite(
  body: Record<string, unknown>,
  schema: Schema,
  ctx: RetryContext,
  change: (value: unknown, schema: Schema, name: string) => unknown,
): Record<string, unknown> {
  const walk = (value: unknown, at: Schema, name: string, depth: number): unknown => {
    if (Array.isArray(value)) {
      const items = (textKeyword<Schema>(at, 'items') ?? {}) as Schema;
      return value.map((item) => walk(item, items, name, depth + 1));
    }
    if (typeof value === 'object' && value !== null) {
      const properties = propertiesOf(at);
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) => [
          key,
          depth === 0 && ctx.kept.has(key)
            ? inner
            : walk(inner, properties[key] ?? {}, key, depth + 1),
        ]),
      );
    }
    return change(value, at, name);
  };
  return walk(body, schema, '', 0) as Record<string, unknown>;
}

/** Free text: no format, pattern, enum or length bound that a suffix could break. */
function isPlainText(schema: Schema): boolean {
  return (
    textKeyword(schema, 'format') === undefined &&
    textKeyword(schema, 'pattern') === undefined &&
    textKeyword(schema, 'enum') === undefined &&
    keyword(schema, 'maxLength') === undefined
  );
}

/**
 * Throws where an answer the rule does not expect is a refusal its operation documents: the
 * request the suite composed was refused for a reason the server knows (a made-up name it
 * does not hold), so the rule's point was not reached. Not judged, with why; never failed.
 * @throws {NotJudged} for a documented refusal `expected` does not take
 */
export function notJudgedIfRefused(
  operation: PlanOperation,
  exchange: Exchange,
  expected: Expectation,
): void {
  if (expected.accepts(exchange.status) || !isDocumentedRefusal(operation, exchange.status)) return;
  const said = (exchange.text ?? '').replace(/\s+/g, ' ').trim().slice(0, 160);
  throw new NotJudged(
    `${operation.operationId} answered a request the suite composed with the ${exchange.status} it documents, where the rule looks for ${expected.label}: the server refused a value the suite made up${said === '' ? '' : ` (${said})`}`,
  );
}
