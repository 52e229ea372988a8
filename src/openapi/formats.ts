/**
 * The URI formats as their RFCs define them, which ajv-formats checks more narrowly: its `url`
 * refuses loopback and private hosts (`http://127.0.0.1:8080/`) and every relative reference.
 * `uri` is an RFC 3986 absolute URI (any scheme, any host), `uri-reference` an RFC 3986
 * URI-reference (relative allowed), `iri` and `iri-reference` the same with RFC 3987's
 * non-ASCII characters. `url` is no JSON Schema format: it is read as a URI reference.
 * The mock's schemas and the contract suite's both take them from here.
 */

const PCT = '%[0-9A-Fa-f]{2}';
const SCHEME = '[A-Za-z][A-Za-z0-9+.-]*:';
/** RFC 3986's unreserved, sub-delims, ":" "@" "/" "?", and brackets of an IP literal. */
const CHARS = "A-Za-z0-9\\-._~!$&'()*+,;=:@/?\\[\\]";
/** RFC 3987's ucschar and iprivate, for IRIs. */
const NON_ASCII = '\\u{A0}-\\u{D7FF}\\u{E000}-\\u{FFFD}\\u{10000}-\\u{10FFFD}';

function reference(schemeRequired: boolean, international: boolean): RegExp {
  const chars = `(?:[${CHARS}${international ? NON_ASCII : ''}]|${PCT})*`;
  return new RegExp(`^(?:${SCHEME})${schemeRequired ? '' : '?'}${chars}(?:#${chars})?$`, 'u');
}

/** The formats this module defines, by name, as ajv's `addFormat` takes them. */
export const URI_FORMATS: Readonly<Record<string, RegExp>> = {
  uri: reference(true, false),
  'uri-reference': reference(false, false),
  iri: reference(true, true),
  'iri-reference': reference(false, true),
  url: reference(false, false),
};

/**
 * A header whose value HTTP defines as a URI-reference whatever format its schema declares:
 * `Location` (RFC 9110, section 10.2.2) and `Content-Location` (section 8.7).
 * @example referenceHeaderFormat('location', 'uri') // 'uri-reference'
 */
export function referenceHeaderFormat(name: string, format: unknown): string | undefined {
  const header = name.toLowerCase();
  if (header !== 'location' && header !== 'content-location') return undefined;
  if (format === 'uri' || format === 'url') return 'uri-reference';
  if (format === 'iri') return 'iri-reference';
  return undefined;
}
