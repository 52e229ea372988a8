import type { SchemaObject } from './load.js';
import { isJsonObject } from '../vocabulary/record.js';

/**
 * Values of the formats whose values a pattern may rule out, in the forms their RFCs allow: a
 * pattern that matches none of a format's values leaves no value both accept.
 */
const FORMAT_VALUES: Readonly<Record<string, readonly string[]>> = {
  'date-time': [
    '2019-03-12T19:24:13Z',
    '2019-03-12T19:24:13.657Z',
    '2019-03-12T19:24:13+00:00',
    '2019-03-12T19:24:13.657+00:00',
  ],
  date: ['2019-03-12'],
  time: ['19:24:13Z', '19:24:13.657Z', '19:24:13+00:00'],
  uuid: ['3fa85f64-5717-4562-b3fc-2c963f66afa6', '3FA85F64-5717-4562-B3FC-2C963F66AFA6'],
  email: ['user@example.com'],
  ipv4: ['192.0.2.1'],
};

/**
 * Whether a string schema's `format` is ruled out by a `pattern` of its own or of one of its
 * `allOf` parts, as `created_at: {format: date-time, allOf: [id]}` whose id pattern is
 * `^se(-[a-z0-9]+)+$`: no value meets both, and every answer holding one would break.
 * Such a format is read as an annotation (JSON Schema's own reading of `format`), its pattern
 * checked alone.
 * @example formatRuledOut({ format: 'date', pattern: '^se-' }) // true
 */
export function formatRuledOut(schema: SchemaObject): boolean {
  const { format } = schema as { format?: unknown };
  const values = typeof format === 'string' ? FORMAT_VALUES[format] : undefined;
  if (!values) return false;
  const parts = Array.isArray(schema.allOf) ? schema.allOf.filter(isJsonObject) : [];
  return [schema, ...parts].some((part) => {
    const matches = matcherOf((part as { pattern?: unknown }).pattern);
    return matches !== undefined && !values.some(matches);
  });
}

function matcherOf(pattern: unknown): ((value: string) => boolean) | undefined {
  if (typeof pattern !== 'string') return undefined;
  for (const flags of ['u', '']) {
    try {
      const expression = new RegExp(pattern, flags);
      return (value) => expression.test(value);
    } catch {
      // Read without the `u` flag next, as the compiler reads it; not a pattern at all: no rule.
    }
  }
  return undefined;
}
