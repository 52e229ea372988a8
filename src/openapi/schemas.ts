import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { SchemaObject } from './load.js';
import { carries } from './schema-parts.js';

/** The reasons a value breaks a schema, as `<where> <what>`; empty when it conforms. */
export type SchemaCheck = (value: unknown, where?: string) => string[];

/**
 * Compiles schemas of a (resolved) spec for the three places the mock checks them. Each
 * schema object is compiled once per compiler and direction.
 */
export interface SchemaCompiler {
  /** For request bodies: a `readOnly` property is refused, and never required. */
  request(schema: SchemaObject): SchemaCheck;
  /** For response bodies: a `writeOnly` property is refused, and never required. */
  response(schema: SchemaObject): SchemaCheck;
  /**
   * For parameters, which arrive as strings: the check converts the values of `record`
   * to the types their schemas give, in place, then checks them.
   */
  parameters(schema: SchemaObject): SchemaCheck;
}

/** Marks a property the current direction refuses (see FORBIDDEN). */
const FORBIDDEN_KEYWORD = 'x-petstore-forbidden';

/**
 * @example const check = createSchemaCompiler().response(categorySchema); check({ id: 1, name: 'Dog' }) // []
 */
export function createSchemaCompiler(): SchemaCompiler {
  const ajv = newAjv(false);
  const coercing = newAjv('array');
  const cache = new Map<string, WeakMap<SchemaObject, SchemaCheck>>();
  const transforms = { request: new WeakMap(), response: new WeakMap() };

  function compiled(
    kind: 'request' | 'response' | 'parameters',
    schema: SchemaObject,
    make: () => SchemaCheck,
  ): SchemaCheck {
    let byKind = cache.get(kind);
    if (!byKind) cache.set(kind, (byKind = new WeakMap()));
    let check = byKind.get(schema);
    if (!check) byKind.set(schema, (check = make()));
    return check;
  }

  return {
    request: (schema) =>
      compiled('request', schema, () =>
        checkWith(ajv.compile(hideProperties(schema, 'readOnly', transforms.request))),
      ),
    response: (schema) =>
      compiled('response', schema, () =>
        checkWith(ajv.compile(hideProperties(schema, 'writeOnly', transforms.response))),
      ),
    parameters: (schema) =>
      compiled('parameters', schema, () =>
        checkWith(coercing.compile(hideProperties(schema, 'readOnly', transforms.request))),
      ),
  };
}

function newAjv(coerceTypes: false | 'array'): Ajv2020 {
  // validateSchema off: checking each schema against the 2020-12 meta-schema first compiles
  // that meta-schema, a fifth of a second per instance at start-up; ajv still refuses a
  // schema it cannot compile (a bad type, a keyword of the wrong kind), at start-up, because
  // createApp compiles every schema of the spec then.
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    coerceTypes,
    logger: false,
    validateSchema: false,
  });
  addFormats.default(ajv);
  // OpenAPI's own formats, which JSON Schema does not define.
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  const forbidden: { (reason: string): boolean; errors?: Partial<ErrorObject>[] } = (reason) => {
    forbidden.errors = [{ keyword: FORBIDDEN_KEYWORD, message: reason, params: {} }];
    return false;
  };
  ajv.addKeyword({
    keyword: FORBIDDEN_KEYWORD,
    schemaType: 'string',
    errors: true,
    validate: forbidden,
  });
  return ajv;
}

function checkWith(validate: ValidateFunction): SchemaCheck {
  return (value, where = '') =>
    validate(value) ? [] : (validate.errors ?? []).map((error) => describe(error, where));
}

/** One ajv error in words a client developer reads: where, then what. */
function describe(error: ErrorObject, where: string): string {
  const at = `${where}${error.instancePath}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${at}/${String(params.additionalProperty)} is not a known property`;
    case 'enum':
      return `${at} must be one of ${JSON.stringify(params.allowedValues)}`;
    case 'const':
      return `${at} must be ${JSON.stringify(params.allowedValue)}`;
    case 'type':
      return `${at} must be ${article(String(params.type))}`;
    default:
      return `${at} ${error.message ?? 'is not valid'}`;
  }
}

function article(type: string): string {
  const types = type.split(',');
  return types.map((t) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`)).join(' or ');
}

type Hidden = 'readOnly' | 'writeOnly';

/**
 * The schema with every property marked `readOnly` (or `writeOnly`) refused and taken out
 * of `required`, as OpenAPI means them: `readOnly` fields are never sent by a client, even
 * when the schema requires them in answers. Shared sub-schemas are rewritten once.
 */
function hideProperties(
  schema: SchemaObject,
  marker: Hidden,
  memo: WeakMap<object, SchemaObject>,
): SchemaObject {
  if (typeof schema !== 'object' || schema === null) return schema;
  const done = memo.get(schema);
  if (done) return done;
  const hidden = new Set<string>();
  collectHidden(schema, marker, hidden);
  const rewritten = rewrite(schema, marker, hidden, memo);
  memo.set(schema, rewritten);
  return rewritten;
}

/** Names of the properties, of this schema or of its `allOf` parts, that carry the marker. */
function collectHidden(schema: SchemaObject, marker: Hidden, into: Set<string>): void {
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (carries(property as SchemaObject, marker)) into.add(name);
  }
  for (const part of (schema.allOf ?? []) as SchemaObject[]) collectHidden(part, marker, into);
}

function rewrite(
  schema: SchemaObject,
  marker: Hidden,
  hidden: ReadonlySet<string>,
  memo: WeakMap<object, SchemaObject>,
): SchemaObject {
  const sub = (value: unknown) => hideProperties(value as SchemaObject, marker, memo);
  const out: Record<string, unknown> = { ...schema };
  if (Array.isArray(schema.required))
    out.required = schema.required.filter((name) => !hidden.has(name));
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [
        name,
        hidden.has(name)
          ? {
              [FORBIDDEN_KEYWORD]:
                marker === 'readOnly'
                  ? 'is read-only: the service sets it, a client cannot send it'
                  : 'is write-only: it is never sent back',
            }
          : sub(property),
      ]),
    );
  }
  if (schema.allOf)
    out.allOf = (schema.allOf as SchemaObject[]).map((part) => rewrite(part, marker, hidden, memo));
  for (const key of ['anyOf', 'oneOf', 'prefixItems'] as const) {
    const list = (schema as Record<string, unknown>)[key];
    if (Array.isArray(list)) out[key] = list.map(sub);
  }
  for (const key of [
    'items',
    'additionalProperties',
    'not',
    'if',
    'then',
    'else',
    'contains',
    'unevaluatedProperties',
    'unevaluatedItems',
    'propertyNames',
  ]) {
    const value = (schema as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null) out[key] = sub(value);
  }
  for (const key of ['patternProperties', 'dependentSchemas', '$defs']) {
    const map = (schema as Record<string, unknown>)[key];
    if (typeof map === 'object' && map !== null)
      out[key] = Object.fromEntries(Object.entries(map).map(([name, value]) => [name, sub(value)]));
  }
  return out as SchemaObject;
}
