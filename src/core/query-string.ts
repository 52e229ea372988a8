import type { Parameter } from '../openapi/operations.js';
import { isJsonMediaType } from '../openapi/media-types.js';
import type { ReadValues } from './parameter-styles.js';
import { readUrlEncoded } from './form-body.js';

/**
 * Reads the whole query string as the value of an OpenAPI 3.2 `in: querystring` parameter, by
 * the media type of its `content`: `application/x-www-form-urlencoded` (or none) as a form, a
 * JSON media type as the JSON its percent-decoded text holds, any other as that text. `ignored`
 * keys (API keys sent in the query) are left out first: they are credentials, not its value.
 * @example readQueryString('species=cat&limit=2', filter, []).values // { filter: { species: 'cat', limit: '2' } }
 */
export function readQueryString(
  search: string,
  parameter: Parameter,
  ignored: readonly string[],
): ReadValues {
  const values = Object.create(null) as Record<string, unknown>;
  const problems: string[] = [];
  const where = '/query';
  const pairs = new URLSearchParams(search);
  for (const key of ignored) pairs.delete(key);
  const text = ignored.length === 0 ? search : pairs.toString();
  if (text === '') {
    if (parameter.required)
      problems.push(`${where} is required: send ${parameter.mediaType ?? 'a query string'}`);
    return { values, problems };
  }
  const type = parameter.mediaType ?? 'application/x-www-form-urlencoded';
  if (type === 'application/x-www-form-urlencoded') {
    const read = readUrlEncoded(text, parameter.schema, {}, where);
    values[parameter.name] = read.values;
    return { values, problems: read.problems };
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    problems.push(`${where} is not valid percent-encoding`);
    return { values, problems };
  }
  if (!isJsonMediaType(type)) {
    values[parameter.name] = decoded;
    return { values, problems };
  }
  try {
    values[parameter.name] = JSON.parse(decoded) as unknown;
  } catch (err) {
    problems.push(`${where} is not JSON (${type}): ${(err as Error).message}`);
  }
  return { values, problems };
}
