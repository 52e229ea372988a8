// qs's parse behind a plain signature. The build bundles qs into this file
// (scripts/build-vendored.mjs): it needs 21 small packages, which a user's install would get.
import qs from 'qs';

/** The bounds and safety settings of a parse (qs's names). */
export interface NestedQueryOptions {
  depth: number;
  arrayLimit: number;
  parameterLimit: number;
  allowPrototypes: boolean;
  plainObjects: boolean;
}

/**
 * A query string with bracketed keys read as nested objects and lists, as qs reads it.
 * @example parseNestedQuery('f%5Ba%5D=1', options) // { f: { a: '1' } }
 */
export function parseNestedQuery(
  query: string,
  options: NestedQueryOptions,
): Record<string, unknown> {
  return qs.parse(query, options);
}
