// Bodies of the media types that are neither JSON nor forms: plain text and other `text/*`,
// XML (`application/xml`, `text/xml`, `+xml`) and bytes (`application/octet-stream` and any
// other). Valid ones, for the calls that need one, and the ones the schema forbids, each
// confirmed invalid against the schema before it is sent, as JSON bodies are.
import { essenceOf, isJsonMediaType } from '../src/openapi/media-types.js';
import { type PlanOperation, type Schema } from './plan.js';
import { sampleBody, sampleValue } from './samples.js';
import {
  allowedTypes,
  keyword,
  requiredOf,
  textKeyword,
  writableProperties,
} from './schema-parts.js';

/** How the suite writes a body of a media type. */
type MediaKind = 'json' | 'form' | 'xml' | 'text' | 'bytes';

/** The reasons a value breaks a schema (ContractSpec.validate, for a request); empty when it fits. */
export type Validate = (schema: Schema, value: unknown) => string[];

/** A body as sent: its text and its Content-Type. */
export interface MediaBody {
  body: string;
  contentType: string;
}

/** A body the schema forbids, and what is wrong with it, for the rule's name. */
export interface InvalidMediaBody extends MediaBody {
  what: string;
}

/**
 * How a media type's bodies are written.
 * @example mediaKind('application/vnd.pets+xml') // 'xml'
 */
function mediaKind(mediaType: string): MediaKind {
  const essence = essenceOf(mediaType);
  if (isJsonMediaType(essence)) return 'json';
  if (essence === 'application/x-www-form-urlencoded' || essence === 'multipart/form-data')
    return 'form';
  if (essence === 'application/xml' || essence === 'text/xml' || /\+xml$/.test(essence))
    return 'xml';
  if (essence.startsWith('text/')) return 'text';
  return 'bytes';
}

/** The Content-Type to send for a media type of the spec; `undefined` for a range (`image/*`) but `*\/*`. */
function contentTypeOf(mediaType: string): string | undefined {
  const essence = essenceOf(mediaType);
  if (essence === '*/*') return 'application/octet-stream';
  return essence.includes('*') ? undefined : essence;
}

/**
 * A valid body of a text, XML or bytes media type, confirmed against its schema; `undefined`
 * when the suite cannot make one (a structure plain text cannot hold, a nested element XML
 * would need, a media type range).
 * @example validMediaBody('text/plain', { type: 'string', maxLength: 40 }, 'contract-abc note', validate) // { body: 'contract-abc note', contentType: 'text/plain' }
 * @internal for its tests: no part of the package's surface
 */
export function validMediaBody(
  mediaType: string,
  schema: Schema,
  label: string,
  validate: Validate,
): MediaBody | undefined {
  const contentType = contentTypeOf(mediaType);
  if (contentType === undefined) return undefined;
  const kind = mediaKind(mediaType);
  if (kind === 'text') {
    const value = sampleValue(schema, label);
    if (typeof value === 'object' && value !== null) return undefined;
    const text = String(value);
    return validate(schema, typed(text, schema)).length === 0
      ? { body: text, contentType }
      : undefined;
  }
  if (kind === 'xml') {
    const fields = xmlFields(schema, label);
    if (!fields || validate(schema, typedObject(fields, schema)).length > 0) return undefined;
    return { body: toXml(schema, fields), contentType };
  }
  if (kind === 'bytes') return { body: label, contentType };
  return undefined;
}

/**
 * A valid body of the first text, XML or bytes media type an operation takes that the suite
 * can write; `undefined` when it takes none such.
 */
export function otherValidBody(
  operation: PlanOperation,
  label: string,
  validate: Validate,
): MediaBody | undefined {
  for (const [mediaType, schema] of Object.entries(operation.requestBody?.content ?? {})) {
    const body = validMediaBody(mediaType, schema, label, validate);
    if (body) return body;
  }
  return undefined;
}

/**
 * The bodies of a text, XML or bytes media type its schema forbids: for text, a value of the
 * wrong type or past a bound; for XML, a required element left out, letters in a number, text
 * over its `maxLength`, XML that does not parse; for any of them, an empty body where a body
 * is required (for text, where its schema also refuses the empty string). Each is confirmed invalid against the schema; none is made where the schema
 * leaves nothing to break.
 */
export function invalidMediaBodies(
  mediaType: string,
  schema: Schema,
  options: { bodyRequired: boolean; label: string; validate: Validate },
): InvalidMediaBody[] {
  const contentType = contentTypeOf(mediaType);
  const kind = mediaKind(mediaType);
  if (contentType === undefined || kind === 'json' || kind === 'form') return [];
  const found: InvalidMediaBody[] = [];
  const add = (what: string, body: string) =>
    found.push({ what: `${article(contentType)} ${contentType} body ${what}`, body, contentType });
  if (kind === 'text') {
    for (const { what, text } of textCandidates(schema, options.label))
      if (options.validate(schema, typed(text, schema)).length > 0) add(what, text);
  }
  if (kind === 'xml') {
    const valid = xmlFields(schema, options.label);
    if (valid) {
      for (const { what, fields } of xmlCandidates(schema, valid))
        if (options.validate(schema, typedObject(fields, schema)).length > 0)
          add(what, toXml(schema, fields));
      const open = toXml(schema, valid).replace(/<\/[^>]+>$/, '');
      add('that is not well-formed (its root element left open)', open);
    }
  }
  // An empty text may be the empty string, which a schema without a bound allows: it is sent
  // only where the schema refuses it. Empty XML is no XML; empty bytes are no body.
  const emptyRefused =
    kind === 'text' ? options.validate(schema, typed('', schema)).length > 0 : true;
  if (options.bodyRequired && emptyRefused) add('that is empty, where the body is required', '');
  return found;
}

/** Texts that may break a scalar schema, each with what it tries. */
function textCandidates(schema: Schema, label: string): { what: string; text: string }[] {
  const types = allowedTypes(schema);
  if (types.some((type) => type === 'object' || type === 'array')) return [];
  const candidates: { what: string; text: string }[] = [];
  if (types.length > 0 && !types.includes('string'))
    candidates.push({ what: `with letters where ${types.join(' or ')} is wanted`, text: 'abc' });
  const maxLength = keyword(schema, 'maxLength');
  if (maxLength !== undefined && maxLength < 10_000)
    candidates.push({
      what: `over its maxLength (${maxLength})`,
      text: 'x'.repeat(maxLength + 1),
    });
  const minLength = keyword(schema, 'minLength');
  if (minLength !== undefined && minLength > 1)
    candidates.push({
      what: `under its minLength (${minLength})`,
      text: 'x'.repeat(minLength - 1),
    });
  if (textKeyword(schema, 'enum') !== undefined)
    candidates.push({ what: 'outside its enum', text: `${label}-none`.replace(/\s+/g, '-') });
  if (textKeyword(schema, 'pattern') !== undefined)
    candidates.push({ what: 'that breaks its pattern', text: '~ ~' });
  const format = textKeyword<string>(schema, 'format');
  if (format !== undefined && format !== 'binary' && format !== 'byte')
    candidates.push({ what: `that is no ${format}`, text: `not a ${format}` });
  const minimum = keyword(schema, 'minimum');
  if (minimum !== undefined)
    candidates.push({ what: 'below its minimum', text: String(minimum - 1) });
  const maximum = keyword(schema, 'maximum');
  if (maximum !== undefined)
    candidates.push({ what: 'above its maximum', text: String(maximum + 1) });
  return candidates;
}

/** A text as the value a schema would read it as: a number, a boolean, else the text. */
function typed(text: string, schema: Schema): unknown {
  const types = allowedTypes(schema);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(text))
    return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** An XML element's fields, by property name, as text. */
type XmlFields = [string, string][];

/**
 * A valid element of an object schema as its fields' texts: every writable scalar property;
 * `undefined` when a required one is not a scalar (the suite writes flat XML only).
 */
function xmlFields(schema: Schema, label: string): XmlFields | undefined {
  if (!allowedTypes(schema).includes('object') && allowedTypes(schema).length > 0) return undefined;
  const body = sampleBody(schema, label, 'all');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const properties = writableProperties(schema);
  const fields: XmlFields = [];
  for (const [name, value] of Object.entries(body)) {
    if (!(name in properties)) continue;
    if (typeof value === 'object' && value !== null) {
      if (requiredOf(schema).includes(name)) return undefined;
      continue;
    }
    if (value !== null) fields.push([name, String(value)]);
  }
  return fields;
}

/** XML elements that may break the schema, from a valid one. */
function xmlCandidates(schema: Schema, valid: XmlFields): { what: string; fields: XmlFields }[] {
  const candidates: { what: string; fields: XmlFields }[] = [];
  const replaced = (name: string, text: string): XmlFields =>
    valid.map(([field, old]) => [field, field === name ? text : old]);
  for (const name of requiredOf(schema))
    if (valid.some(([field]) => field === name))
      candidates.push({
        what: `without \`${name}\``,
        fields: valid.filter(([field]) => field !== name),
      });
  for (const [name, property] of Object.entries(writableProperties(schema))) {
    if (!valid.some(([field]) => field === name)) continue;
    const types = allowedTypes(property);
    if (types.length > 0 && types.every((type) => type === 'integer' || type === 'number'))
      candidates.push({ what: `with letters in \`${name}\``, fields: replaced(name, 'abc') });
    const maxLength = keyword(property, 'maxLength');
    if (types.includes('string') && maxLength !== undefined && maxLength < 10_000)
      candidates.push({
        what: `with \`${name}\` over its maxLength (${maxLength})`,
        fields: replaced(name, 'x'.repeat(maxLength + 1)),
      });
  }
  return candidates;
}

/** An element's fields as the object its schema judges: each text read as its property's type. */
function typedObject(fields: XmlFields, schema: Schema): Record<string, unknown> {
  const properties = writableProperties(schema);
  return Object.fromEntries(
    fields.map(([name, text]) => [name, typed(text, properties[name] ?? {})]),
  );
}

/** The element's name: the schema's `xml.name`, else its component's name, as OpenAPI says. */
function xmlName(schema: Schema, fallback: string): string {
  const xml = schema.xml as { name?: unknown } | undefined;
  if (typeof xml?.name === 'string') return xml.name;
  return schema['x-schema-name'] ?? fallback;
}

/** Flat XML: a root element and one element per field (properties marked `xml.attribute` as attributes). */
function toXml(schema: Schema, fields: XmlFields): string {
  const root = xmlName(schema, 'body');
  const properties = writableProperties(schema);
  const isAttribute = (name: string) =>
    (properties[name]?.xml as { attribute?: unknown } | undefined)?.attribute === true;
  const attributes = fields
    .filter(([name]) => isAttribute(name))
    .map(([name, text]) => ` ${elementName(properties[name], name)}="${escapeXml(text)}"`)
    .join('');
  const elements = fields
    .filter(([name]) => !isAttribute(name))
    .map(([name, text]) => {
      const element = elementName(properties[name], name);
      return `<${element}>${escapeXml(text)}</${element}>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><${root}${attributes}>${elements}</${root}>`;
}

/** A property's element (or attribute) name: its `xml.name`, else the property's. */
function elementName(property: Schema | undefined, name: string): string {
  const xml = property?.xml as { name?: unknown } | undefined;
  return typeof xml?.name === 'string' ? xml.name : name;
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}
