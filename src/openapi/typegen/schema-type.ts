import type { At, Context } from './context.js';
import { isJsonObject } from '../../vocabulary/record.js';
import { componentOf, entriesOf, followed, targetOf } from './context.js';
import type { Member, TypeText } from './text.js';
import {
  NEVER,
  UNKNOWN,
  arrayOf,
  atom,
  indexed,
  intersection,
  literal,
  objectType,
  tupleOf,
  union,
} from './text.js';

/**
 * The TypeScript type of a JSON Schema (OpenAPI 3.1's dialect, which the loader has made of
 * 2.0 and 3.0), as openapi-typescript writes it.
 */
export function schemaType(schema: unknown, at: At, ctx: Context): TypeText {
  if (schema === false) return NEVER;
  if (!isJsonObject(schema)) return UNKNOWN;
  if (typeof schema.$ref === 'string') return refType(schema.$ref, at, ctx);
  // A recursive schema read from another file is a cycle of objects.
  if (ctx.open.has(schema)) return UNKNOWN;
  ctx.open.add(schema);
  try {
    return composedType(schema, at, ctx);
  } finally {
    ctx.open.delete(schema);
  }
}

/** A `$ref`: a component by its name, anything else written out where it is used. */
function refType(ref: string, at: At, ctx: Context): TypeText {
  const component = componentOf(ref, ctx);
  if (component) return indexed('components', component.section, component.name);
  const target = targetOf(ref, at, ctx);
  if (!target || (isJsonObject(target.value) && ctx.open.has(target.value))) return UNKNOWN;
  return schemaType(target.value, target.at, ctx);
}

function composedType(schema: Record<string, unknown>, at: At, ctx: Context): TypeText {
  if ('const' in schema) return literal(schema.const);
  const types = typesOf(schema);
  if (Array.isArray(schema.enum) && !types.includes('object') && !hasObjectKeywords(schema)) {
    const values = schema.enum.map(literal);
    return union(types.includes('null') ? [...values, atom('null')] : values);
  }
  const parts: TypeText[] = [];
  const core = coreType(schema, types, at, ctx);
  if (core) parts.push(core);
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  arms(schema.allOf).forEach((arm, i) => {
    const armAt = { ...at, path: [...at.path, 'allOf', String(i)] };
    // The parent's `required` list applies to the properties an inline arm declares.
    const inherited =
      isJsonObject(arm) && typeof arm.$ref !== 'string' && required.length > 0
        ? { ...arm, required: [...(Array.isArray(arm.required) ? arm.required : []), ...required] }
        : arm;
    const base = discriminatedBase(arm, ctx);
    if (base) {
      // As openapi-typescript: the base's discriminator becomes this schema's own value.
      parts.push(
        atom(`Omit<${schemaType(arm, armAt, ctx).text}, ${JSON.stringify(base.property)}>`),
      );
      const values = discriminatorValues(base, at);
      if (values)
        parts.push(objectType([{ name: base.property, type: union(values.map(literal)) }]));
    } else parts.push(withRequired(schemaType(inherited, armAt, ctx), arm, required, ctx));
  });
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const choices = arms(schema[keyword]).map((arm, i) =>
      schemaType(arm, { ...at, path: [...at.path, keyword, String(i)] }, ctx),
    );
    if (choices.length > 0) parts.push(union(choices));
  }
  if (parts.length > 0) return intersection(parts);
  if ('type' in schema) return emptyObject(ctx);
  return UNKNOWN;
}

/**
 * A named schema an `allOf` lists, with the properties the parent's `required` names made
 * required (openapi-typescript's `WithRequired`).
 */
function withRequired(type: TypeText, arm: unknown, required: unknown[], ctx: Context): TypeText {
  if (!isJsonObject(arm) || typeof arm.$ref !== 'string' || required.length === 0) return type;
  const target = targetOf(arm.$ref, { path: [], request: false }, ctx)?.value;
  const properties =
    isJsonObject(target) && isJsonObject(target.properties) ? target.properties : {};
  const names = required.filter(
    (name): name is string => typeof name === 'string' && name in properties,
  );
  if (names.length === 0) return type;
  ctx.helpers.add('WithRequired');
  return atom(`WithRequired<${type.text}, ${union(names.map(literal)).text}>`);
}

/** The discriminator of the named schema an `allOf` arm refers to, if it has one. */
function discriminatedBase(
  arm: unknown,
  ctx: Context,
): { property: string; mapping: Record<string, unknown> } | undefined {
  if (!isJsonObject(arm) || typeof arm.$ref !== 'string') return undefined;
  const component = componentOf(arm.$ref, ctx);
  if (component?.section !== 'schemas') return undefined;
  const target = targetOf(arm.$ref, { path: [], request: false }, ctx)?.value;
  const discriminator = isJsonObject(target) ? target.discriminator : undefined;
  if (!isJsonObject(discriminator) || typeof discriminator.propertyName !== 'string')
    return undefined;
  const mapping = isJsonObject(discriminator.mapping) ? discriminator.mapping : {};
  return { property: discriminator.propertyName, mapping };
}

/**
 * The values of the discriminator that name a named schema: the mapping's keys that refer to
 * it, else its name (OpenAPI's implicit mapping); undefined for a schema with no name.
 */
function discriminatorValues(
  base: { mapping: Record<string, unknown> },
  at: At,
): string[] | undefined {
  const [components, schemas, name] = at.path;
  if (at.path.length !== 3 || components !== 'components' || schemas !== 'schemas' || !name)
    return undefined;
  const self = `#/components/schemas/${name}`;
  const keys = Object.entries(base.mapping)
    .filter(([, target]) => target === self || target === name)
    .map(([key]) => key);
  return keys.length > 0 ? keys : [name];
}

function arms(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The `type` keyword as a list (empty when absent). */
function typesOf(schema: Record<string, unknown>): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type))
    return schema.type.filter((t): t is string => typeof t === 'string');
  return [];
}

function hasObjectKeywords(schema: Record<string, unknown>): boolean {
  return 'properties' in schema || 'additionalProperties' in schema;
}

/** What `type` (or, without one, the object keywords) says, before any composition. */
function coreType(
  schema: Record<string, unknown>,
  types: readonly string[],
  at: At,
  ctx: Context,
): TypeText | undefined {
  if (types.length === 0) {
    if (hasObjectKeywords(schema) || 'patternProperties' in schema)
      return objectOf(schema, at, ctx);
    return undefined;
  }
  const [only] = types;
  if (types.length === 1 && only !== undefined) return typeOf(only, schema, at, ctx);
  return union(types.map((type) => typeOf(type, schema, at, ctx) ?? emptyObject(ctx)));
}

function typeOf(
  type: string,
  schema: Record<string, unknown>,
  at: At,
  ctx: Context,
): TypeText | undefined {
  switch (type) {
    case 'null':
      return atom('null');
    case 'string':
      return atom('string');
    case 'number':
    case 'integer':
      return atom('number');
    case 'boolean':
      return atom('boolean');
    case 'array':
      return arrayType(schema, at, ctx);
    case 'object':
      return objectOf(schema, at, ctx);
    default:
      return UNKNOWN;
  }
}

function emptyObject(ctx: Context): TypeText {
  return atom(`Record<string, ${ctx.options.emptyObjectsUnknown ? 'unknown' : 'never'}>`);
}

/** The most tuples `--array-length` writes for one array, as openapi-typescript bounds it. */
const MOST_TUPLE_ELEMENTS = 30;

function arrayType(schema: Record<string, unknown>, at: At, ctx: Context): TypeText {
  const readonly = ctx.options.immutable;
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : undefined;
  if (prefix) {
    const items = prefix.map((item, i) =>
      schemaType(item, { ...at, path: [...at.path, 'prefixItems', String(i)] }, ctx),
    );
    const rest =
      schema.items === false || schema.items === undefined
        ? undefined
        : schemaType(schema.items, { ...at, path: [...at.path, 'items'] }, ctx);
    return tupleOf(items, rest, readonly);
  }
  const item =
    schema.items === undefined
      ? UNKNOWN
      : schemaType(schema.items, { ...at, path: [...at.path, 'items'] }, ctx);
  if (ctx.options.arrayLength) {
    const tuples = boundedTuples(schema, item, readonly);
    if (tuples) return tuples;
  }
  return arrayOf(item, readonly);
}

/** `minItems`/`maxItems` as tuples, when the union stays small. */
function boundedTuples(
  schema: Record<string, unknown>,
  item: TypeText,
  readonly: boolean,
): TypeText | undefined {
  const min = typeof schema.minItems === 'number' && schema.minItems >= 0 ? schema.minItems : 0;
  const max =
    typeof schema.maxItems === 'number' && schema.maxItems >= min ? schema.maxItems : undefined;
  if (min === 0 && max === undefined) return undefined;
  const size = max === undefined ? min : (max * (max + 1) - min * (min - 1)) / 2;
  if (size >= MOST_TUPLE_ELEMENTS) return undefined;
  const repeat = (n: number) => Array.from({ length: n }, () => item);
  if (max === undefined) return tupleOf(repeat(min), item, readonly);
  const tuples: TypeText[] = [];
  for (let n = min; n <= max; n++) tuples.push(tupleOf(repeat(n), undefined, readonly));
  return union(tuples);
}

/** An object's properties, then what any other property may be. */
function objectOf(schema: Record<string, unknown>, at: At, ctx: Context): TypeText | undefined {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties = entriesOf(schema.properties, ctx).filter(
    ([name, property]) =>
      !ctx.options.excludeDeprecated ||
      followed(property, { ...at, path: [...at.path, 'properties', name] }, ctx)?.deprecated !==
        true,
  );
  const members: Member[] = properties.map(([name, property]) => {
    const declared = isJsonObject(property) ? property : {};
    const presentByDefault =
      declared.default !== undefined && ctx.options.defaultNonNullable && !at.request;
    return {
      name,
      type: schemaType(property, { ...at, path: [...at.path, 'properties', name] }, ctx),
      optional: !required.has(name) && !presentByDefault,
      readonly: ctx.options.immutable || declared.readOnly === true,
      doc: property,
    };
  });
  const others: TypeText[] = [];
  const additional = schema.additionalProperties;
  if (additional === true || (isJsonObject(additional) && Object.keys(additional).length === 0))
    others.push(UNKNOWN);
  else if (isJsonObject(additional))
    others.push(schemaType(additional, { ...at, path: [...at.path, 'additionalProperties'] }, ctx));
  else if (additional === undefined && ctx.options.additionalProperties) others.push(UNKNOWN);
  for (const [pattern, property] of entriesOf(schema.patternProperties, ctx))
    others.push(
      schemaType(property, { ...at, path: [...at.path, 'patternProperties', pattern] }, ctx),
    );
  const known = members.length > 0 ? objectType(members) : undefined;
  if (others.length === 0) return known;
  const modifier = ctx.options.immutable ? 'readonly ' : '';
  // An index signature of its own: the known properties need not fit its type.
  const rest = objectType([], [`${modifier}[key: string]: ${union(others).text};`]);
  return intersection(known ? [known, rest] : [rest]);
}
