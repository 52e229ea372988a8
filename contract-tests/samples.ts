import { createHash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { orderByNames } from './ordered-values.js';
import type { Schema } from './plan.js';
import {
  allowedTypes,
  keyword,
  propertiesOf,
  requiredOf,
  textKeyword,
  writableProperties,
} from './schema-parts.js';

/**
 * Valid values read from a schema, as a careful client writes them: free text carries a
 * label naming the suite's run, so that what the suite creates can be recognised; formats,
 * patterns, enums and bounds are honoured. `variant` asks for another value of the same
 * schema (an update, a second item of a unique array).
 */

/** A valid value of each format JSON Schema and OpenAPI define, built around a slug. */
const FORMATS: Record<string, (slug: string, variant: number) => string> = {
  email: (slug) => `${slug}@example.com`,
  'idn-email': (slug) => `${slug}@example.com`,
  uuid: () => randomUUID(),
  date: (_, v) => `2024-02-${day(v)}`,
  'date-time': (_, v) => `2024-02-${day(v)}T12:34:56Z`,
  time: (_, v) => `12:34:${day(v)}Z`,
  uri: (slug) => `https://example.com/${slug}`,
  url: (slug) => `https://example.com/${slug}`,
  iri: (slug) => `https://example.com/${slug}`,
  'uri-reference': (slug) => `/${slug}`,
  'iri-reference': (slug) => `/${slug}`,
  'uri-template': (slug) => `https://example.com/${slug}/{id}`,
  hostname: (slug) => `${slug}.example.com`,
  'idn-hostname': (slug) => `${slug}.example.com`,
  ipv4: (_, v) => `192.0.2.${1 + (v % 250)}`,
  ipv6: (_, v) => `2001:db8::${(v % 9000) + 1}`,
  byte: (slug) => Buffer.from(slug).toString('base64'),
  duration: (_, v) => `P${v + 1}D`,
  regex: () => '^[a-z]+$',
  'json-pointer': (slug) => `/${slug}`,
  'relative-json-pointer': () => '0',
};

/** How deep nested objects and arrays are filled in; deeper, only what is required. */
const MAX_DEPTH = 6;

/**
 * A valid value of a schema. Free text is the label, fitted to the schema's lengths.
 * @example sampleValue({ type: 'string', format: 'email' }, 'contract-abc author') // 'contract-abc-author@example.com'
 */
export function sampleValue(schema: Schema, label: string, variant = 0, depth = 0): unknown {
  if (schema.const !== undefined) return schema.const;
  const choices = textKeyword<unknown[]>(schema, 'enum');
  if (Array.isArray(choices) && choices.length > 0) {
    const usable = choices.filter((choice) => choice !== null);
    const from = usable.length > 0 ? usable : choices;
    return from[variant % from.length];
  }
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives && alternatives.length > 0 && allowedTypes(schema).length === 0) {
    const alternative =
      alternatives.find((option) => !allowedTypes(option).every((type) => type === 'null')) ??
      alternatives[0]!;
    return sampleValue(alternative, label, variant, depth);
  }
  const types = allowedTypes(schema).filter((type) => type !== 'null');
  const type = types[0] ?? (allowedTypes(schema).includes('null') ? 'null' : 'string');
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return variant % 2 === 0;
    case 'integer':
    case 'number':
      return numberIn(schema, variant, type === 'integer' || types.includes('integer'));
    case 'array':
      return arrayOf(schema, label, variant, depth);
    case 'object':
      return objectOf(schema, label, variant, depth, 'all');
    default:
      return textOf(schema, label, variant);
  }
}

/**
 * A body for a request schema: every writable property (`all`), or only the required ones.
 * @example sampleBody(newCategory, 'contract-abc echo') // { name: 'contract-abc echo name', description: 'contract-abc echo description' }
 */
export function sampleBody(
  schema: Schema,
  label: string,
  which: 'all' | 'required' = 'all',
  variant = 0,
): unknown {
  if (!allowedTypes(schema).includes('object') && allowedTypes(schema).length > 0)
    return sampleValue(schema, label, variant);
  return objectOf(schema, label, variant, 0, which);
}

function objectOf(
  schema: Schema,
  label: string,
  variant: number,
  depth: number,
  which: 'all' | 'required',
): Record<string, unknown> {
  const required = new Set(requiredOf(schema));
  const object: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(writableProperties(schema))) {
    if ((which === 'required' || depth >= MAX_DEPTH) && !required.has(name)) continue;
    object[name] = sampleValue(property, `${label} ${name}`, variant, depth + 1);
  }
  // Properties that are required but declared nowhere: any value will do.
  for (const name of required)
    if (!(name in object) && !(name in propertiesOf(schema))) object[name] = `${label} ${name}`;
  return orderByNames(object, propertiesOf(schema), variant);
}

function arrayOf(schema: Schema, label: string, variant: number, depth: number): unknown[] {
  const min = keyword(schema, 'minItems') ?? 0;
  const max = keyword(schema, 'maxItems') ?? Infinity;
  const count = Math.min(max, Math.max(min, depth >= MAX_DEPTH ? 0 : 1));
  const items = (textKeyword<Schema>(schema, 'items') ?? {}) as Schema;
  return Array.from({ length: count }, (_, i) =>
    sampleValue(items, `${label} ${i + 1}`, variant + i, depth + 1),
  );
}

function numberIn(schema: Schema, variant: number, integer: boolean): number {
  const exclusiveMin = keyword(schema, 'exclusiveMinimum');
  const exclusiveMax = keyword(schema, 'exclusiveMaximum');
  const step = integer ? 1 : 0.5;
  const lows = [
    keyword(schema, 'minimum'),
    exclusiveMin === undefined ? undefined : exclusiveMin + step,
  ];
  const highs = [
    keyword(schema, 'maximum'),
    exclusiveMax === undefined ? undefined : exclusiveMax - step,
  ];
  const low = Math.max(...lows.filter((n): n is number => n !== undefined), -Infinity);
  const high = Math.min(...highs.filter((n): n is number => n !== undefined), Infinity);
  const start = Number.isFinite(low) ? (integer ? Math.ceil(low) : low) : Math.min(1, high);
  let value = start + variant;
  if (value > high) value = integer ? Math.floor(high) : high;
  const multiple = keyword(schema, 'multipleOf');
  if (multiple !== undefined && multiple > 0) {
    value = Math.ceil(value / multiple) * multiple;
    if (value > high) value = Math.floor(high / multiple) * multiple;
  }
  return value;
}

function textOf(schema: Schema, label: string, variant: number): string {
  const min = keyword(schema, 'minLength') ?? 0;
  const max = keyword(schema, 'maxLength') ?? Infinity;
  const pattern = textKeyword<string>(schema, 'pattern');
  if (pattern !== undefined) {
    const matching = fromPattern(pattern, label, min, max);
    if (matching !== undefined) return matching;
  }
  const format = textKeyword<string>(schema, 'format');
  const formatted = format === undefined ? undefined : FORMATS[format];
  if (formatted) return formatted(slug(label, max), variant);
  const text = variant === 0 ? label : `${label} ${variant + 1}`;
  return fit(text, min, max);
}

/**
 * The arbitrary of each pattern met, built once: fast-check takes milliseconds to build one
 * (it tries the pattern's parts on a list of strings, throwing for each that does not fit) and
 * a tenth of that to draw 30 values from it, and the suite asks for the same few patterns in
 * every body it sends (a quarter of the CPU of test/contract-proof.test.ts). An arbitrary holds
 * no state: the same seed draws the same values from a new one or a kept one. `null`: the
 * pattern is not a JavaScript regular expression.
 */
const matchingArbitraries = new Map<string, fc.Arbitrary<string> | null>();

function matching(pattern: string): fc.Arbitrary<string> | null {
  let arbitrary = matchingArbitraries.get(pattern);
  if (arbitrary === undefined) {
    let regex: RegExp | undefined;
    try {
      regex = new RegExp(pattern, 'u');
    } catch {
      regex = undefined;
    }
    try {
      arbitrary = regex === undefined ? null : fc.stringMatching(regex);
    } catch {
      arbitrary = null;
    }
    matchingArbitraries.set(pattern, arbitrary);
  }
  return arbitrary;
}

/** A string that matches a pattern, within the lengths, the same for the same label. */
function fromPattern(pattern: string, label: string, min: number, max: number): string | undefined {
  const arbitrary = matching(pattern);
  if (arbitrary === null) return undefined;
  const seed = createHash('sha256').update(label).digest().readInt32BE(0);
  let samples: string[];
  try {
    samples = fc.sample(arbitrary, { seed, numRuns: 30 });
  } catch {
    // A pattern fast-check cannot write (a lookahead, as Mojaloop's amounts use): the run goes
    // on with the label, rather than stopping before its first rule.
    return undefined;
  }
  return samples.find((text) => [...text].length >= min && [...text].length <= max);
}

/** The text cut or padded to the lengths a schema allows, counted in code points. */
export function fit(text: string, min: number, max: number): string {
  const points = [...text];
  if (points.length > max) return points.slice(0, max).join('');
  if (points.length < min) return text + 'x'.repeat(min - points.length);
  return text;
}

/** The label as a slug for formats: lower-case letters, digits and dashes, short enough for them. */
function slug(label: string, max: number): string {
  const text = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, Math.max(1, Math.min(max - 20, 40)))
    .replace(/^-+|-+$/g, '');
  return text || 'contract';
}

function day(variant: number): string {
  return String(1 + (variant % 28)).padStart(2, '0');
}
