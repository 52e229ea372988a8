// Values for requests: bodies and parameters made from the description's schemas, and
// their encoding on the wire (JSON, forms, multipart, query styles).
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createGeneratorSync, type JsonSchema } from 'json-schema-faker';
import { isObject, type Json, type JsonObject } from './document.js';
import { isJsonMedia, type ApiParameter } from './operations.js';

/** How many values are made for a schema before one it refuses is sent anyway. */
const ATTEMPTS = 8;

/** Checks request values before they are sent, as a server would (formats included). */
const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false, logger: false });
addFormats.default(ajv);

/** How deep a request value goes: recursive schemas stop there. */
const MAX_DEPTH = 6;

/** How many composition parts down a schema is read: a cycle of parts alone stops there. */
const MAX_PARTS = 16;

/**
 * How deep the check of a made value reads its schema: a required property below MAX_DEPTH
 * is required all the same (a value whose optional branch reaches it is made again).
 */
const CHECK_DEPTH = 64;

/**
 * The longest string a request value is made with: a generator that picks a length up to
 * `maxLength` makes 70 MB strings of OpenAI's `maxLength: 70254592` (a minute of CPU each).
 */
const MAX_STRING_LENGTH = 256;

/** Keywords of OpenAPI (not JSON Schema) that a generator should not see. */
const DROPPED_KEYWORDS = new Set([
  'discriminator',
  'xml',
  'externalDocs',
  'example',
  'examples',
  'nullable',
  'deprecated',
  'readOnly',
  'writeOnly',
  'description',
  'title',
]);

export interface ValueMaker {
  /** A value for a request: readOnly properties left out, recursion cut at a fixed depth. */
  request(schema: JsonObject): Json;
  /** A value for one parameter (its example when it has one). */
  parameter(parameter: ApiParameter): Json;
}

/** A seeded maker: the same seed and schemas give the same values. */
export function createValueMaker(seed: number): ValueMaker {
  const generator = createGeneratorSync({
    seed,
    optionalsProbability: 0.5,
    maxDefaultItems: 2,
    maxItems: 3,
    maxDepth: MAX_DEPTH,
    failOnInvalidTypes: false,
    minDateTime: '2020-01-01',
    maxDateTime: '2026-01-01',
  });
  const checks = new WeakMap<JsonObject, ((value: unknown) => boolean) | undefined>();
  const checkOf = (schema: JsonObject) => {
    if (!checks.has(schema)) {
      let check: ((value: unknown) => boolean) | undefined;
      try {
        const validate = ajv.compile(forRequest(schema, 0, CHECK_DEPTH));
        check = (value) => validate(value);
      } catch {
        // A schema ajv cannot read (a pattern of another dialect): values go unchecked.
      }
      checks.set(schema, check);
    }
    return checks.get(schema);
  };
  const generate = (schema: JsonObject): Json => {
    const clean = forRequest(schema, 0);
    const check = checkOf(schema);
    let value: Json = null;
    // The generator misses some keywords (formats it does not know, `oneOf` alternatives
    // that each require fields): a value the schema refuses is made again, a few times.
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        value = generator.generate(clean as JsonSchema) as Json;
      } catch {
        return fallbackValue(clean, 0);
      }
      if (!check || check(value)) return value;
    }
    // A `oneOf` whose kinds overlap (any word is several texts at once) is met by one kind
    // that no other is: a client picks that kind and sends it.
    for (const kind of kindsOf(clean)) {
      try {
        const made = generator.generate(kind as JsonSchema) as Json;
        if (check?.(made)) return made;
      } catch {
        // a kind the generator cannot make: the next
      }
    }
    return value;
  };
  return {
    request: generate,
    parameter(parameter) {
      const example = parameter.schema.example ?? parameter.schema.default;
      if (example !== undefined && example !== null && typeof example !== 'object') return example;
      const enumerated = Array.isArray(parameter.schema.enum)
        ? parameter.schema.enum[0]
        : undefined;
      if (enumerated !== undefined) return enumerated;
      return generate(parameter.schema);
    },
  };
}

/**
 * The schema as plain JSON Schema for a request: readOnly properties out (and out of
 * `required`), OpenAPI-only keywords out, 3.0's boolean exclusive bounds turned into 2020-12's
 * numbers, and anything deeper than MAX_DEPTH (or a `$ref` left by a cycle) left open.
 */
export function forRequest(
  schema: JsonObject,
  depth: number,
  limit = MAX_DEPTH,
  /** How many `allOf`/`anyOf`/`oneOf` parts down the same value this schema is. */
  parts = 0,
): JsonObject {
  if (depth > limit || parts > MAX_PARTS || typeof schema.$ref === 'string') return {};
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED_KEYWORDS.has(key) || key.startsWith('x-')) continue;
    if (key === 'properties' && isObject(value)) {
      const properties: JsonObject = {};
      for (const [name, property] of Object.entries(value)) {
        if (isObject(property) && isReadOnly(property)) continue;
        if (isObject(property)) properties[name] = forRequest(property, depth + 1, limit);
      }
      out.properties = properties;
    } else if (
      (key === 'items' || key === 'additionalProperties' || key === 'not') &&
      isObject(value)
    ) {
      out[key] = forRequest(value, depth + 1, limit);
    } else if ((key === 'allOf' || key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      // A part describes the same value, not a deeper one: ShipEngine's weight `unit`, an
      // `allOf` of an enum, was left open below the depth and made as an object.
      out[key] = value.filter(isObject).map((part) => forRequest(part, depth, limit, parts + 1));
    } else if (
      (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') &&
      typeof value === 'boolean'
    ) {
      const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
      if (value && typeof schema[bound] === 'number') out[key] = schema[bound];
    } else if (key === 'maxLength' && typeof value === 'number' && value > MAX_STRING_LENGTH) {
      const least = typeof schema.minLength === 'number' ? schema.minLength : 0;
      out.maxLength = Math.max(MAX_STRING_LENGTH, least);
    } else if (key === 'type' && value === 'file') {
      out.type = 'string';
      out.format = 'binary';
    } else if (key !== 'required') {
      out[key] = value;
    }
  }
  // A client writes no empty text where nothing asks for one: an empty `code` names no record.
  if (isPlainText(schema)) out.minLength = 1;
  boundRepeat(out);
  requireDiscriminator(schema, out);
  if (schema.exclusiveMinimum === true) delete out.minimum;
  if (schema.exclusiveMaximum === true) delete out.maximum;
  if (Array.isArray(schema.required)) {
    // Only what was left out as readOnly: a name another `allOf` part declares stays required.
    const declared = isObject(schema.properties) ? schema.properties : {};
    const kept = isObject(out.properties) ? out.properties : {};
    out.required = schema.required.filter(
      (name): name is string => typeof name === 'string' && (!(name in declared) || name in kept),
    );
  }
  return out;
}

/**
 * The discriminator's property required in each kind that declares it, as OpenAPI says a
 * payload carries it: Gr4vy's report `spec` is one of five kinds told by an optional `model`,
 * and a spec without one was each kind at once, which `oneOf` refuses.
 */
function requireDiscriminator(schema: JsonObject, out: JsonObject): void {
  const name = isObject(schema.discriminator) ? schema.discriminator.propertyName : undefined;
  if (typeof name !== 'string') return;
  const kinds = [out.oneOf, out.anyOf].flatMap((list) =>
    Array.isArray(list) ? list.filter(isObject) : [],
  );
  for (const kind of kinds) {
    const parts = [kind, ...(Array.isArray(kind.allOf) ? kind.allOf.filter(isObject) : [])];
    const declares = parts.some((part) => isObject(part.properties) && name in part.properties);
    const required = Array.isArray(kind.required) ? kind.required : [];
    if (declares && !required.includes(name)) kind.required = [...required, name];
  }
}

/** A pattern that repeats one character class: `^\d+$`, `^[a-z0-9]*$`. */
const REPEATED_CLASS = /^\^(\\[dDwWsS]|\[(?:[^\]\\]|\\.)+\]|[A-Za-z0-9_-])([+*])\$$/;

/**
 * The text's length bounds written into a pattern that repeats one character class (Gr4vy's
 * card `number`: `^\d+$` of 16 to 19): the generator makes the pattern's text and pads it to
 * the length with any characters, which the pattern then refuses, every time.
 */
function boundRepeat(schema: JsonObject): void {
  const { pattern, minLength, maxLength } = schema;
  if (typeof pattern !== 'string' || (minLength === undefined && maxLength === undefined)) return;
  const match = REPEATED_CLASS.exec(pattern);
  if (!match) return;
  const least = typeof minLength === 'number' ? minLength : match[2] === '+' ? 1 : 0;
  const most = typeof maxLength === 'number' ? String(maxLength) : '';
  schema.pattern = `^${match[1] ?? ''}{${least},${most}}$`;
}

/** Each kind of a `oneOf` or `anyOf` on its own, with what the schema says beside them. */
function kindsOf(schema: JsonObject): JsonObject[] {
  const { oneOf, anyOf, ...rest } = schema;
  const kinds = [oneOf, anyOf].flatMap((list) =>
    Array.isArray(list) ? list.filter(isObject) : [],
  );
  return kinds.map((kind) => (Object.keys(rest).length === 0 ? kind : { allOf: [rest, kind] }));
}

/** A string schema that bounds nothing of its text: no length, pattern, format or listed values. */
function isPlainText(schema: JsonObject): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return (
    types.includes('string') &&
    ['minLength', 'maxLength', 'pattern', 'format', 'enum', 'const'].every(
      (keyword) => !(keyword in schema),
    )
  );
}

/** `readOnly: true` on a property, itself or in one of its `allOf` parts. */
function isReadOnly(schema: JsonObject): boolean {
  if (schema.readOnly === true) return true;
  return (
    Array.isArray(schema.allOf) && schema.allOf.some((part) => isObject(part) && isReadOnly(part))
  );
}

/** A plain value of the schema's type, for when the generator gives up. */
function fallbackValue(schema: JsonObject, depth: number): Json {
  if ('const' in schema) return schema.const ?? null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] ?? null;
  const [firstPart] = ['allOf', 'oneOf', 'anyOf'].flatMap((key) => {
    const list = schema[key];
    return Array.isArray(list) ? list.filter(isObject) : [];
  });
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === undefined && firstPart) return fallbackValue(firstPart, depth + 1);
  switch (type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'null':
      return null;
    case 'object': {
      const value: JsonObject = {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      const properties = isObject(schema.properties) ? schema.properties : {};
      for (const [name, property] of Object.entries(properties))
        if (required.includes(name) && isObject(property) && depth < MAX_DEPTH)
          value[name] = fallbackValue(property, depth + 1);
      return value;
    }
    default:
      return 'string';
  }
}

/** Text for a value in a URL, a header or a form field. */
export function plainText(value: Json): string {
  if (value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Query pairs for one parameter, in its style (form by default, deepObject, pipes...). */
export function queryPairs(parameter: ApiParameter, value: Json): [string, string][] {
  const { name } = parameter;
  const explode =
    parameter.explode ?? (parameter.style === undefined || parameter.style === 'form');
  if (Array.isArray(value)) {
    if (explode) return value.map((item) => [name, plainText(item)]);
    const separator =
      parameter.style === 'pipeDelimited' ? '|' : parameter.style === 'spaceDelimited' ? ' ' : ',';
    return [[name, value.map(plainText).join(separator)]];
  }
  if (isObject(value)) {
    if (parameter.style === 'deepObject')
      return Object.entries(value).map(([key, inner]) => [`${name}[${key}]`, plainText(inner)]);
    if (explode) return Object.entries(value).map(([key, inner]) => [key, plainText(inner)]);
    return [
      [
        name,
        Object.entries(value)
          .flatMap(([key, inner]) => [key, plainText(inner)])
          .join(','),
      ],
    ];
  }
  return [[name, plainText(value)]];
}

/** A path parameter's text, safe inside one path segment. */
export function pathText(value: Json): string {
  const text = Array.isArray(value) ? value.map(plainText).join(',') : plainText(value);
  return encodeURIComponent(text === '' ? 'x' : text);
}

/** A request body in its media type, with the Content-Type to send (none for multipart). */
export function encodeBody(
  mediaType: string,
  value: Json,
  schema: JsonObject,
): { body: string | FormData | Uint8Array; contentType?: string } {
  if (isJsonMedia(mediaType))
    return {
      body: JSON.stringify(value),
      contentType: mediaType === '*/*' ? 'application/json' : mediaType,
    };
  if (/x-www-form-urlencoded/i.test(mediaType)) {
    const form = new URLSearchParams();
    for (const [key, inner] of Object.entries(isObject(value) ? value : { value })) {
      for (const item of Array.isArray(inner) ? inner : [inner]) form.append(key, plainText(item));
    }
    return { body: form.toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  if (/multipart\/form-data/i.test(mediaType)) {
    const form = new FormData();
    const properties = isObject(schema.properties) ? schema.properties : {};
    for (const [key, inner] of Object.entries(isObject(value) ? value : { value })) {
      const property = properties[key];
      if (isObject(property) && property.format === 'binary')
        form.append(key, new Blob([plainText(inner)]), `${key}.bin`);
      else form.append(key, plainText(inner));
    }
    return { body: form };
  }
  if (/^text\//i.test(mediaType) || /[/+]xml/i.test(mediaType))
    return { body: plainText(value), contentType: mediaType };
  return { body: new TextEncoder().encode(plainText(value)), contentType: mediaType };
}
