// A valid body in a media type the operation takes, for rules whose point is elsewhere (a
// path parameter, an inferred id): JSON where it takes JSON, else a form, a multipart form or
// bytes, as its own request body says. Scalar's Galaxy's uploadImage takes multipart only.
import { randomUUID } from 'node:crypto';
import type { Kit } from './kit.js';
import { otherValidBody } from './media-bodies.js';
import { essenceOf, isJsonMediaType } from '../src/openapi/media-types.js';
import { type PlanOperation, type Schema } from './plan.js';
import { sampleBody } from './samples.js';
import { textKeyword, writableProperties } from './schema-parts.js';

/** A body as sent: its text and its Content-Type. */
export interface SentBody {
  body: string;
  contentType: string;
}

/**
 * A valid body the operation accepts, in the first of its media types the suite can write
 * (JSON, then a form, a multipart form, then text, XML or bytes valid against its schema);
 * `undefined` when it takes none, when the suite can write none of its media types, or when
 * its body is optional and not JSON (none is sent then: nothing to get wrong).
 * @example validRequest(kit, uploadImage, 'parameter') // { body: '--contract-…', contentType: 'multipart/form-data; boundary=contract-…' }
 */
export function validRequest(
  kit: Kit,
  operation: PlanOperation,
  what: string,
): SentBody | undefined {
  const content = Object.entries(operation.requestBody?.content ?? {});
  const json = content.find(([type]) => isJsonMediaType(type));
  if (json) return { body: JSON.stringify(kit.validBody(operation, what)), contentType: json[0] };
  if (!operation.requestBody?.required || content.length === 0) return undefined;
  const label = `${kit.label} ${what}`;
  const form = content.find(([type]) => essenceOf(type) === 'application/x-www-form-urlencoded');
  if (form) {
    const fields = fieldsOf(form[1], label);
    return { body: new URLSearchParams(fields).toString(), contentType: form[0] };
  }
  const multipart = content.find(([type]) => essenceOf(type) === 'multipart/form-data');
  if (multipart) return multipartOf(multipart[1], label);
  // Text, XML or bytes, made valid against its schema; none the suite can write: undefined.
  return otherValidBody(operation, label, (part, value) =>
    kit.spec.validate(part, value, 'request'),
  );
}

/** Every writable property of a form's schema as text fields; lists as repeated fields. */
function fieldsOf(schema: Schema, label: string): [string, string][] {
  const sampled = sampleBody(schema, label, 'all');
  if (typeof sampled !== 'object' || sampled === null || Array.isArray(sampled)) return [];
  return Object.entries(sampled).flatMap(([name, value]): [string, string][] =>
    (Array.isArray(value) ? value : [value]).map((item) => [
      name,
      typeof item === 'string' ? item : JSON.stringify(item),
    ]),
  );
}

/** A multipart form: text parts, and a file part for each binary property. */
function multipartOf(schema: Schema, label: string): SentBody {
  const boundary = `contract-${randomUUID()}`;
  const properties = writableProperties(schema);
  const parts = fieldsOf(schema, label).map(([name, value]) => {
    const binary = ['binary', 'byte'].includes(
      textKeyword<string>(properties[name] ?? {}, 'format') ?? '',
    );
    const head = binary
      ? `Content-Disposition: form-data; name="${name}"; filename="${name}.bin"\r\nContent-Type: application/octet-stream`
      : `Content-Disposition: form-data; name="${name}"`;
    return `--${boundary}\r\n${head}\r\n\r\n${value}\r\n`;
  });
  return {
    body: `${parts.join('')}--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
