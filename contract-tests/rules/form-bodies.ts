import { randomUUID } from 'node:crypto';
import type { Kit } from '../kit.js';
import { essenceOf } from '../../src/openapi/media-types.js';
import { type Schema } from '../plan.js';
import type { Rule } from '../rule.js';
import { sampleBody } from '../samples.js';
import { allowedTypes, keyword, requiredOf, writableProperties } from '../schema-parts.js';
import { refusalOn, targetOf } from './invalid-bodies.js';

/** The form media types whose invalid bodies the suite sends. */
const FORMS = ['application/x-www-form-urlencoded', 'multipart/form-data'] as const;
type FormType = (typeof FORMS)[number];

/** A form field's value: text, as forms carry it. */
type Fields = [string, string][];

/**
 * Forms and multipart forms the spec forbids are refused with a 4xx in the spec's error
 * shape, as JSON bodies are: each required field left out, a number field holding letters,
 * a text field over its `maxLength`. Only what a form can carry is sent: a field is text,
 * so a value that reads as valid text (a number for a string) is never a negative case.
 */
export function formBodyRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  for (const operation of kit.plan.operations) {
    for (const [mediaType, schema] of Object.entries(operation.requestBody?.content ?? {})) {
      const form = FORMS.find((type) => essenceOf(mediaType) === type);
      if (!form) continue;
      const valid = scalarFields(schema, kit.label);
      if (!valid) continue;
      const target = targetOf(kit, operation);
      const expected = refusalOn(kit, operation, target);
      const error = kit.errorText(operation, kit.clientError(operation));
      const kind = form === 'multipart/form-data' ? 'a multipart form' : 'a form';
      for (const { what, fields } of invalidForms(schema, valid)) {
        rules.push({
          name: kit.name(operation, 'invalid', `${kind} ${what} gets ${error}`),
          createsData: target.writes,
          async check(ctx) {
            const params = await target.params(ctx);
            const { body, contentType } = encode(form, fields);
            const exchange = await kit.call(ctx, operation, { params, body, contentType });
            kit.conforms(ctx, exchange, operation, expected);
          },
        });
      }
    }
  }
  return rules;
}

/** A valid form: every writable property as text; `undefined` when one is not a scalar. */
function scalarFields(schema: Schema, label: string): Fields | undefined {
  const body = sampleBody(schema, `${label} form`, 'all');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const fields: Fields = [];
  for (const [name, value] of Object.entries(body)) {
    if (!(name in writableProperties(schema))) continue;
    if (typeof value === 'object' && value !== null) {
      if (requiredOf(schema).includes(name)) return undefined;
      continue;
    }
    if (value !== null) fields.push([name, String(value)]);
  }
  return fields;
}

/** The invalid forms of a schema, from a valid one. */
function invalidForms(schema: Schema, valid: Fields): { what: string; fields: Fields }[] {
  const forms: { what: string; fields: Fields }[] = [];
  const properties = writableProperties(schema);
  for (const name of requiredOf(schema))
    if (valid.some(([field]) => field === name))
      forms.push({
        what: `without \`${name}\``,
        fields: valid.filter(([field]) => field !== name),
      });
  for (const [name, property] of Object.entries(properties)) {
    if (!valid.some(([field]) => field === name)) continue;
    const types = allowedTypes(property);
    const replaced = (value: string) =>
      valid.map(([field, old]): [string, string] => [field, field === name ? value : old]);
    if (types.length > 0 && types.every((type) => type === 'integer' || type === 'number'))
      forms.push({ what: `with letters in \`${name}\``, fields: replaced('abc') });
    const maxLength = keyword(property, 'maxLength');
    if (types.includes('string') && maxLength !== undefined && maxLength < 10_000)
      forms.push({
        what: `with \`${name}\` over its maxLength (${maxLength})`,
        fields: replaced('x'.repeat(maxLength + 1)),
      });
  }
  return forms;
}

/** A form as its media type writes it. */
function encode(form: FormType, fields: Fields): { body: string; contentType: string } {
  if (form === 'application/x-www-form-urlencoded')
    return { body: new URLSearchParams(fields).toString(), contentType: form };
  const boundary = `contract-${randomUUID()}`;
  const parts = fields.map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    body: `${parts.join('')}--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
