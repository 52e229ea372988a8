import type { ExampleSource } from '../openapi/examples.js';
import type { SchemaObject } from '../openapi/load.js';
import type { Operation } from '../openapi/operations.js';
import type { SchemaCompiler } from '../openapi/schemas.js';
import type { OperationHandler } from './handler.js';

/**
 * How an operation with no state behind it answers: its spec example, or data generated from
 * its schema, with its success status. A path parameter named like a property of the answer
 * (`id`, or `petId` for `id`) carries the requested value into it, when the answer's schema
 * allows it (see echoed). The body is found on the first call, not before: a large spec's
 * operations cost nothing until they are called.
 * @example exampleHandler(getPetById, examples, compiler)({ params: { petId: '3' }, ... }, context) // { status: 200, body: { id: 3, name: 'Rex' } }
 */
export function exampleHandler(
  operation: Operation,
  examples: ExampleSource,
  compiler?: SchemaCompiler,
): OperationHandler {
  const status = operation.successStatus;
  return ({ params }) => {
    const example = examples.body(operation, String(status));
    if (!example) return { status };
    const schema = operation.responses[String(status)]?.content?.[example.mediaType]?.schema;
    const check = compiler && schema ? compiler.response(schema as SchemaObject) : undefined;
    const body = check
      ? echoed(example.body, params, (value) => check(value).length === 0)
      : example.body;
    return { status, body, headers: { 'Content-Type': `${example.mediaType}; charset=utf-8` } };
  };
}

/**
 * The example with each path parameter it names set to the requested value, in the type the
 * example holds there (`'3'` becomes 3 where the example has a number); the example as it is
 * when none applies, or when the result would break the answer's schema (a 500 is worse than
 * an example that does not echo).
 * @example echoed({ id: 10, name: 'Rex' }, { petId: '3' }, () => true) // { id: 3, name: 'Rex' }
 */
export function echoed(
  body: unknown,
  params: Readonly<Record<string, unknown>>,
  fits: (value: unknown) => boolean,
): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(params)) {
    const property =
      name in record ? name : /(Id|_id)$/.test(name) && 'id' in record ? 'id' : undefined;
    if (property === undefined) continue;
    const typed = likeExample(record[property], value);
    if (typed === undefined) continue;
    copy ??= { ...record };
    copy[property] = typed;
  }
  return copy && fits(copy) ? copy : body;
}

/** `value` in the type of `example`'s value, or undefined when it cannot be. */
function likeExample(example: unknown, value: unknown): unknown {
  if (typeof example === 'string') return String(value);
  if (typeof example !== 'number') return undefined;
  const number = typeof value === 'number' ? value : Number(String(value).trim() || NaN);
  if (!Number.isFinite(number) || (Number.isInteger(example) && !Number.isInteger(number)))
    return undefined;
  return number;
}
