import type { RuleFamily, Schema } from './plan.js';
import { sampleValue } from './samples.js';
import {
  allowedTypes,
  isClosed,
  isObjectSchema,
  keyword,
  requiredOf,
  textKeyword,
  writableProperties,
} from './schema-parts.js';

/** A request body the interface must refuse with a 4xx, and why. */
export interface InvalidBody {
  /** What is wrong with it, as a rule name reads it: "a body without `name`". */
  what: string;
  /** A required property left out, or a value the schema does not allow. */
  family: Extract<RuleFamily, 'required' | 'invalid'>;
  /** The raw text sent as JSON. */
  text: string;
}

/** The JSON types a value can have, and a sample of each. */
const SAMPLES: Record<string, unknown> = {
  number: 42.5,
  integer: 42,
  boolean: true,
  null: null,
  array: ['x'],
  object: { x: 1 },
  string: 'x',
};

/** A value that breaks each format ajv-formats checks. */
const BROKEN_FORMATS: Record<string, string> = {
  email: 'not-an-email',
  'idn-email': 'not-an-email',
  uuid: 'not-a-uuid',
  date: '2024-02-30',
  'date-time': '2024-02-29 at noon',
  time: '25:61:00',
  uri: 'not a uri',
  url: 'not a url',
  'uri-reference': 'not a\\reference',
  hostname: '-not-a-hostname-',
  ipv4: '999.0.0.1',
  ipv6: 'not:an:ipv6',
  byte: 'not base64!',
  duration: 'one day',
  regex: '[unclosed',
  'json-pointer': 'no-leading-slash',
};

/**
 * Bodies the schema refuses, derived from it so that they follow the spec when it changes:
 * each required property left out; each property given each JSON type it does not allow,
 * and values that break its format, enum, pattern, lengths, bounds or items; an unknown
 * property where the schema is closed; bodies that are not an object, empty or malformed.
 * Each is kept only when `breaks` confirms the schema refuses it.
 */
export function invalidBodies(
  schema: Schema,
  valid: Record<string, unknown>,
  options: { label: string; bodyRequired: boolean; breaks: (body: unknown) => boolean },
): InvalidBody[] {
  const bodies: { what: string; family: InvalidBody['family']; body: unknown; raw?: string }[] = [];
  const properties = writableProperties(schema);
  for (const name of requiredOf(schema)) {
    if (!(name in valid)) continue;
    bodies.push({
      what: `a body without \`${name}\``,
      family: 'required',
      body: without(valid, name),
    });
  }
  for (const [name, property] of Object.entries(properties)) {
    for (const { what, value } of brokenValues(property, `${options.label} ${name}`))
      bodies.push({
        what: `\`${name}\` ${what}`,
        family: 'invalid',
        body: { ...valid, [name]: value },
      });
    // One level down: a nested object that lacks what it requires.
    if (isObjectSchema(property) && typeof valid[name] === 'object' && valid[name] !== null) {
      const nested = valid[name] as Record<string, unknown>;
      for (const inner of requiredOf(property)) {
        if (!(inner in nested)) continue;
        bodies.push({
          what: `\`${name}\` without \`${inner}\``,
          family: 'invalid',
          body: { ...valid, [name]: without(nested, inner) },
        });
      }
    }
  }
  if (isClosed(schema))
    bodies.push({
      what: 'a body with a property the schema does not declare (it allows none)',
      family: 'invalid',
      body: { ...valid, contractUndeclared: 'x' },
    });
  if (isObjectSchema(schema)) {
    bodies.push(
      { what: 'a body that is an array', family: 'invalid', body: [valid] },
      { what: 'a body that is a string', family: 'invalid', body: options.label },
      { what: 'a body that is a number', family: 'invalid', body: 42 },
      { what: 'a body that is null', family: 'invalid', body: null },
    );
  }
  const invalid: InvalidBody[] = bodies
    .filter(({ body }) => options.breaks(body))
    .map(({ what, family, body }) => ({ what, family, text: JSON.stringify(body) }))
    // Past a megabyte (Mojaloop's 10,001 parties) a server may refuse the body for its size,
    // and close before its answer is read: that judges the server's limit, not the schema.
    .filter(({ text }) => text.length <= MAX_INVALID_BODY);
  // Sent as JSON with nothing in it: a request without a content type may get 415 instead.
  if (options.bodyRequired) invalid.push({ what: 'an empty body', family: 'invalid', text: '' });
  const first = Object.keys(valid)[0] ?? 'name';
  invalid.push({ what: 'a body that is malformed JSON', family: 'invalid', text: `{"${first}": ` });
  return invalid;
}

/** The largest invalid body sent, in characters. */
const MAX_INVALID_BODY = 1_000_000;

/** Values a property's schema refuses, each with how a rule name reads it. */
function brokenValues(property: Schema, label: string): { what: string; value: unknown }[] {
  const broken: { what: string; value: unknown }[] = [];
  const allowed = allowedTypes(property);
  if (allowed.length > 0) {
    // The number sample is fractional, so it breaks `integer` too.
    for (const type of ['string', 'number', 'boolean', 'null', 'array', 'object'])
      if (!allowed.includes(type))
        broken.push({
          what: `given ${type === 'number' && allowed.includes('integer') ? 'a fractional number' : article(type)}`,
          value: SAMPLES[type],
        });
    // What a lenient parser coerces: the number or boolean the schema wants, as a string.
    if (!allowed.includes('string')) {
      if (allowed.includes('integer') || allowed.includes('number')) {
        const number = sampleValue(property, label);
        broken.push({
          what: 'given a number as a string',
          value: String(typeof number === 'number' ? number : 1999),
        });
      }
      if (allowed.includes('boolean'))
        broken.push({ what: 'given a boolean as a string ("true")', value: 'true' });
    }
  }
  const format = textKeyword<string>(property, 'format');
  if (format !== undefined && allowed.includes('string') && BROKEN_FORMATS[format])
    broken.push({
      what: `given a string that is not ${formatName(format)}`,
      value: BROKEN_FORMATS[format],
    });
  const choices = textKeyword<unknown[]>(property, 'enum');
  if (Array.isArray(choices) && choices.length > 0) {
    const first = choices.find((choice) => typeof choice === 'string');
    broken.push({
      what: 'given a value outside its enum',
      value: typeof first === 'string' ? `${first}-not-listed` : 'not-listed',
    });
  }
  const pattern = textKeyword<string>(property, 'pattern');
  if (pattern !== undefined)
    for (const text of ['!', ' ', `${label}!`])
      if (!safeTest(pattern, text)) {
        broken.push({ what: 'given a string that breaks its pattern', value: text });
        break;
      }
  const minLength = keyword(property, 'minLength');
  if (minLength !== undefined && minLength > 0)
    broken.push({
      what: `shorter than its minLength (${minLength})`,
      value: 'x'.repeat(minLength - 1),
    });
  const maxLength = keyword(property, 'maxLength');
  if (maxLength !== undefined)
    broken.push({
      what: `longer than its maxLength (${maxLength})`,
      value: 'x'.repeat(maxLength + 1),
    });
  const isInteger = allowed.includes('integer') && !allowed.includes('number');
  const step = isInteger ? 1 : 0.5;
  for (const [name, offset] of [
    ['minimum', -step],
    ['exclusiveMinimum', 0],
    ['maximum', step],
    ['exclusiveMaximum', 0],
  ] as const) {
    const bound = keyword(property, name);
    if (bound !== undefined)
      broken.push({
        what: `${name.includes('inimum') ? 'below' : 'above'} its ${name} (${bound})`,
        value: bound + offset,
      });
  }
  const multipleOf = keyword(property, 'multipleOf');
  if (multipleOf !== undefined)
    broken.push({
      what: `not a multiple of its multipleOf (${multipleOf})`,
      value: (sampleValue(property, label) as number) + multipleOf / 2,
    });
  if (allowed.includes('array')) {
    const items = (textKeyword<Schema>(property, 'items') ?? {}) as Schema;
    const item = sampleValue(items, `${label} item`);
    const maxItems = keyword(property, 'maxItems');
    if (maxItems !== undefined)
      broken.push({
        what: `with more items than its maxItems (${maxItems})`,
        value: Array.from({ length: maxItems + 1 }, (_, i) =>
          sampleValue(items, `${label} item`, i),
        ),
      });
    const minItems = keyword(property, 'minItems');
    if (minItems !== undefined && minItems > 0)
      broken.push({
        what: `with fewer items than its minItems (${minItems})`,
        value: Array.from({ length: minItems - 1 }, (_, i) =>
          sampleValue(items, `${label} item`, i),
        ),
      });
    if (textKeyword(property, 'uniqueItems') === true)
      broken.push({ what: 'with an item repeated (uniqueItems)', value: [item, item] });
    const itemTypes = allowedTypes(items);
    const wrong = ['string', 'number', 'boolean', 'object'].find(
      (type) => !itemTypes.includes(type),
    );
    if (itemTypes.length > 0 && wrong)
      broken.push({ what: `with an item that is ${article(wrong)}`, value: [SAMPLES[wrong]] });
  }
  return broken;
}

/** An object without one of its properties. */
export function without(object: Record<string, unknown>, name: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([key]) => key !== name));
}

function safeTest(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return true;
  }
}

/** Formats as a rule name reads them: "an email address", "a UUID". */
const FORMAT_NAMES: Record<string, string> = {
  email: 'an email address',
  'idn-email': 'an email address',
  uuid: 'a UUID',
  date: 'a date',
  'date-time': 'a date-time',
  time: 'a time',
  uri: 'a URI',
  url: 'a URL',
  'uri-reference': 'a URI reference',
  hostname: 'a host name',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  byte: 'base64',
  duration: 'a duration',
  regex: 'a regular expression',
  'json-pointer': 'a JSON pointer',
};

function formatName(format: string): string {
  return FORMAT_NAMES[format] ?? `a ${format}`;
}

/** "a number", "an array", "an Error", "null". */
export function article(word: string): string {
  if (word === 'null') return 'null';
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}
