import { swaggerToOpenApi30 } from './swagger-upgrader.js';
import { eachSchema, type Where } from './schema-walk.js';
import { fragmentOf } from './json-pointer.js';

/** The versions of OpenAPI the mock serves: Swagger 2.0 and OpenAPI 3.0 are read as 3.1. */
export type SpecVersion = '2.0' | '3.0' | '3.1' | '3.2';

/**
 * The version a parsed document declares (`swagger: "2.0"`, `openapi: 3.0.3`...); undefined
 * when it declares none the mock serves.
 * @example versionOf({ openapi: '3.0.3' }) // '3.0'
 */
export function versionOf(document: unknown): SpecVersion | undefined {
  if (typeof document !== 'object' || document === null) return undefined;
  const { openapi, swagger } = document as { openapi?: unknown; swagger?: unknown };
  // `swagger: 2.0` unquoted is the YAML number 2.
  if (typeof swagger === 'number') return swagger === 2 ? '2.0' : undefined;
  if (typeof swagger === 'string') return /^2\.0(\.|$)/.test(swagger) ? '2.0' : undefined;
  if (typeof openapi !== 'string') return undefined;
  return (['3.0', '3.1', '3.2'] as const).find(
    (version) => openapi === version || openapi.startsWith(`${version}.`),
  );
}

/** OpenAPI 3.0 keywords found in a 3.1 or 3.2 document, each with where it was found. */
export type Leftovers = Map<string, Where[]>;

/**
 * A Swagger 2.0 document upgraded to OpenAPI 3.0 by `@scalar/openapi-upgrader` (changed in
 * place: give it a copy to keep the original); other documents as they are.
 * @example upgradeSwagger({ swagger: '2.0', ... }).openapi // '3.0.4'
 */
export function upgradeSwagger(
  document: Record<string, unknown>,
  version: SpecVersion,
): Record<string, unknown> {
  if (version !== '2.0') return document;
  const media = operationMedia(document);
  const upgraded = swaggerToOpenApi30(document);
  keepOperationMedia(upgraded, media);
  return upgraded;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/** What a Swagger 2.0 operation produces and consumes, its own lists over the document's. */
interface OperationMedia {
  produces: string[] | undefined;
  consumes: string[] | undefined;
  /** Its own `produces`, not the document's. */
  ownProduces: boolean;
  ownConsumes: boolean;
  /** Responses, by status, that have no `schema`. */
  schemaless: Set<string>;
}

function mediaList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((type) => typeof type === 'string')
    ? (value as string[])
    : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Each operation's media types, by path and method, read before the upgrade drops them. */
function operationMedia(document: Record<string, unknown>): Map<string, OperationMedia> {
  const found = new Map<string, OperationMedia>();
  const produces = mediaList(document.produces);
  const consumes = mediaList(document.consumes);
  for (const [path, item] of Object.entries(record(document.paths) ?? {}))
    for (const method of METHODS) {
      const operation = record(record(item)?.[method]);
      if (!operation) continue;
      const own = {
        produces: mediaList(operation.produces),
        consumes: mediaList(operation.consumes),
      };
      const responses = Object.entries(record(operation.responses) ?? {});
      found.set(`${method} ${path}`, {
        produces: own.produces ?? produces,
        consumes: own.consumes ?? consumes,
        ownProduces: own.produces !== undefined,
        ownConsumes: own.consumes !== undefined,
        schemaless: new Set(
          responses
            .filter(([, response]) => {
              const read = record(response);
              return read !== undefined && read.$ref === undefined && read.schema === undefined;
            })
            .map(([status]) => status),
        ),
      });
    }
  return found;
}

/**
 * What @scalar/openapi-upgrader gets wrong: an operation's own `produces` and `consumes` give
 * way to the document's, and a response without a `schema` loses its media types altogether,
 * so an image endpoint (`produces: [image/png]`, a 200 without schema) would be asked for JSON.
 * An operation's own lists win; a schemaless success keeps the media types that are not JSON
 * (a body of them needs no schema; a schemaless JSON answer is read, as Swagger means, as none).
 */
function keepOperationMedia(
  document: Record<string, unknown>,
  media: ReadonlyMap<string, OperationMedia>,
): void {
  for (const [path, item] of Object.entries(record(document.paths) ?? {}))
    for (const method of METHODS) {
      const operation = record(record(item)?.[method]);
      const known = media.get(`${method} ${path}`);
      if (!operation || !known) continue;
      const { produces, consumes } = known;
      for (const [status, value] of Object.entries(record(operation.responses) ?? {})) {
        const response = record(value);
        if (!response || response.$ref !== undefined || !produces) continue;
        const content = record(response.content);
        const first = content ? Object.values(content)[0] : undefined;
        if (first !== undefined && known.ownProduces) {
          response.content = Object.fromEntries(produces.map((type) => [type, first]));
        } else if (first === undefined && known.schemaless.has(status) && /^2\d\d$/.test(status)) {
          const bodies = status === '204' ? [] : produces.filter((type) => !isJson(type));
          if (bodies.length > 0)
            response.content = Object.fromEntries(bodies.map((type) => [type, {}]));
        }
      }
      const body = record(operation.requestBody);
      const content = record(body?.content);
      const first = content ? Object.values(content)[0] : undefined;
      if (!body || !content || first === undefined || !consumes || !known.ownConsumes) continue;
      const form = Object.keys(content).some((type) => FORM_TYPES.includes(type));
      const types = consumes.filter((type) => FORM_TYPES.includes(type) === form);
      if (types.length > 0) body.content = Object.fromEntries(types.map((type) => [type, first]));
    }
}

function isJson(type: string): boolean {
  const essence = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return essence === 'application/json' || essence.endsWith('+json') || essence === '*/*';
}

/**
 * Reads the schemas of a document as OpenAPI 3.1 reads them, which is how the rest of the mock
 * reads them, changing them in place:
 * - in a 2.0 or 3.0 document, schemas are read as 3.0 means them: `nullable: true` allows
 *   null (next to a `type`; next to a `$ref` or an `allOf`, as "that schema or null", as 3.0
 *   tools read it; alone in a `oneOf`, as the null arm), a boolean `exclusiveMinimum` or
 *   `exclusiveMaximum` makes its `minimum` or `maximum` exclusive, the siblings of a `$ref`
 *   are ignored, and Swagger's `x-nullable` is `nullable`; `openapi` then says `3.1.1`;
 * - in a 3.1 or 3.2 document, the same 3.0 keywords left over are read the same way, and
 *   returned (with where they were found) for a warning: they are defects there.
 * It may be run again on the resolved document, for schemas that came from other files.
 * @example readSchemasAs31(document, '3.1') // Map { 'nullable' => [['components', 'schemas', 'Pet', ...]] }
 */
export function readSchemasAs31(
  document: Record<string, unknown>,
  version: SpecVersion,
  leftovers: Leftovers = new Map(),
): Leftovers {
  const older = version === '2.0' || version === '3.0';
  eachSchema(document, (schema, where) => {
    // First, so that the schema read out of `type` is read as its version means too.
    if (schemaInType(schema))
      leftovers.set(TYPE_AS_SCHEMA, [...(leftovers.get(TYPE_AS_SCHEMA) ?? []), where()]);
    const found = readAs30(schema, where, { swagger: version === '2.0', refSiblings: older });
    // Defects of every version, read as their authors meant them.
    for (const defect of readLeniently(schema))
      leftovers.set(defect, [...(leftovers.get(defect) ?? []), where()]);
    if (older) return;
    for (const keyword of found)
      leftovers.set(keyword, [...(leftovers.get(keyword) ?? []), where()]);
  });
  if (older) document.openapi = '3.1.1';
  return leftovers;
}

/**
 * One warning line for each kind of 3.0 keyword left in a 3.1 or 3.2 document.
 * @example leftoverWarnings(found, '3.1') // ['nullable is an OpenAPI 3.0 keyword, found 3 times in this 3.1 document (first at #/components/schemas/Pet/properties/tag): read as OpenAPI 3.0 means it, the value may also be null']
 */
export function leftoverWarnings(leftovers: Leftovers, version: SpecVersion): string[] {
  return [...leftovers].map(([keyword, places]) => {
    const count = places.length === 1 ? 'once' : `${places.length} times`;
    const first = fragmentOf(places[0] ?? []);
    const lenient = LENIENT[keyword];
    if (lenient) return `${keyword}, ${count} (first at ${first}): ${lenient}`;
    return `${keyword} is an OpenAPI 3.0 keyword, found ${count} in this ${version} document (first at ${first}): read as OpenAPI 3.0 means it, ${MEANING[keyword] ?? ''}`;
  });
}

/** See schemaInType. */
const TYPE_AS_SCHEMA = 'a schema written as the value of type';

/** Defects of any version the mock reads as their authors meant them, and how. */
const LENIENT: Readonly<Record<string, string>> = {
  [TYPE_AS_SCHEMA]:
    'read as the schema itself (its keywords beside those of the schema that holds it), not as a type',
  'items written as a list':
    'a list of one schema is read as the schema of every item, a longer one as a tuple (prefixItems)',
  'a name repeated in required': 'each name is read once',
  'an empty enum':
    'it would allow no value at all, which no service means (an enum whose values were never filled in): read as no enum, the other keywords check the value',
};

/**
 * Rewrites, in place, a schema written one level too deep, as the value of its own `type`
 * (`itemType: {type: {type: string, enum: [...]}}`), into the schema
 * its author meant: the inner schema's keywords where the outer has none of its own. ajv
 * refused to compile the whole record's schema (`type must be JSONType or JSONType[]`), and
 * its create answered 500 `spec_defect`. Returns whether it found one.
 */
function schemaInType(schema: Record<string, unknown>): boolean {
  const { type } = schema;
  if (typeof type !== 'object' || type === null || Array.isArray(type)) return false;
  delete schema.type;
  for (const [keyword, value] of Object.entries(type))
    if (!(keyword in schema)) schema[keyword] = value;
  return true;
}

/**
 * Rewrites, in place, what no version allows but real descriptions write, as their authors
 * meant it; returns which of LENIENT's defects it found. `items: [S]` (JSON Schema's old
 * tuple form, which OpenAPI never allowed, and which ajv's 2020-12 refuses) is read as
 * `items: S` when it holds one schema, and as `prefixItems` otherwise; a name repeated in
 * `required` once; `enum: []` (which ajv refuses to compile, and which would refuse every
 * value) as no enum.
 */
function readLeniently(schema: Record<string, unknown>): string[] {
  const found: string[] = [];
  const { items, required, enum: values } = schema;
  if (Array.isArray(items)) {
    found.push('items written as a list');
    if (items.length === 1) schema.items = items[0];
    else {
      schema.prefixItems = items;
      if ('additionalItems' in schema) schema.items = schema.additionalItems;
      else delete schema.items;
    }
    delete schema.additionalItems;
  }
  if (Array.isArray(required) && new Set(required).size < required.length) {
    found.push('a name repeated in required');
    schema.required = [...new Set(required)];
  }
  if (Array.isArray(values) && values.length === 0) {
    found.push('an empty enum');
    delete schema.enum;
  }
  return found;
}

const MEANING: Readonly<Record<string, string>> = {
  nullable: 'the value may also be null',
  'boolean exclusiveMinimum': 'the minimum is exclusive',
  'boolean exclusiveMaximum': 'the maximum is exclusive',
};

/**
 * Rewrites one schema's OpenAPI 3.0 keywords into their 3.1 form, in place; returns the
 * keywords it found (those that are defects in a 3.1 document).
 */
function readAs30(
  schema: Record<string, unknown>,
  where: () => Where,
  options: { swagger: boolean; refSiblings: boolean },
): string[] {
  const found: string[] = [];
  if (options.swagger && 'x-nullable' in schema) {
    if (schema['x-nullable'] === true) schema.nullable = true;
    delete schema['x-nullable'];
  }
  if (typeof schema.$ref === 'string' && options.refSiblings) {
    // OpenAPI 3.0: "any properties added SHALL be ignored", but for the nullable idiom.
    for (const key of Object.keys(schema))
      if (key !== '$ref' && key !== 'nullable') Reflect.deleteProperty(schema, key);
  }
  if ('nullable' in schema) {
    found.push('nullable');
    if (schema.nullable === true) allowNull(schema, isUnionArm(where()));
    delete schema.nullable;
  }
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[exclusive] !== 'boolean') continue;
    found.push(`boolean ${exclusive}`);
    if (schema[exclusive] === true && typeof schema[bound] === 'number') {
      schema[exclusive] = schema[bound];
      Reflect.deleteProperty(schema, bound);
    } else Reflect.deleteProperty(schema, exclusive);
  }
  return found;
}

/** `nullable: true` as 3.1 says it; without a `type` to extend, a union with null. */
function allowNull(schema: Record<string, unknown>, unionArm: boolean): void {
  const { type } = schema;
  if (typeof type === 'string') schema.type = [type, 'null'];
  else if (Array.isArray(type)) {
    if (!type.includes('null')) schema.type = [...(type as unknown[]), 'null'];
  } else if (typeof schema.$ref === 'string') {
    schema.anyOf = [{ $ref: schema.$ref }, { type: 'null' }];
    delete schema.$ref;
  } else if (Array.isArray(schema.allOf)) {
    const { allOf } = schema;
    schema.anyOf = [allOf.length === 1 ? allOf[0] : { allOf }, { type: 'null' }];
    delete schema.allOf;
  } else if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) {
    const key = Array.isArray(schema.oneOf) ? 'oneOf' : 'anyOf';
    const arms = schema[key] as unknown[];
    if (!arms.some(isNullSchema)) schema[key] = [...arms, { type: 'null' }];
  } else if (unionArm && Object.keys(schema).every((key) => !CONSTRAINTS.has(key))) {
    // `oneOf: [{ nullable: true }, { $ref }]`: how some 3.0 exporters write "or null".
    schema.type = 'null';
  }
  // Otherwise nothing to attach it to (3.0.3: it then has no effect).
}

/** Keywords that constrain a value: a schema with none of them allows anything. */
const CONSTRAINTS = new Set([
  'enum',
  'const',
  'format',
  'properties',
  'items',
  'required',
  'additionalProperties',
  'not',
  'pattern',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
]);

function isUnionArm(where: Where): boolean {
  const keyword = where[where.length - 2];
  return keyword === 'oneOf' || keyword === 'anyOf';
}

function isNullSchema(schema: unknown): boolean {
  return (
    typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'null'
  );
}
