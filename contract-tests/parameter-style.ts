// How a parameter's value is written on the wire, as OpenAPI's `style` and `explode` say
// (OpenAPI 3.1, section 4.8.12.4): the Petstore's `status` array goes as
// `status=available&status=sold`, never as the JSON text `["available","sold"]`.
import type { PlanParameter } from './plan.js';
import { isJsonObject } from '../src/vocabulary/record.js';

type Parameter = Pick<PlanParameter, 'name' | 'in' | 'style' | 'explode' | 'json'>;

/**
 * The name and value pairs a query or cookie parameter is sent as, not yet percent-encoded.
 * @example queryPairs({ name: 'status', in: 'query' }, ['available', 'sold']) // [['status', 'available'], ['status', 'sold']]
 * @example queryPairs({ name: 'id', in: 'query', explode: false }, [3, 4]) // [['id', '3,4']]
 */
export function queryPairs(parameter: Parameter, value: unknown): [string, string][] {
  const { name } = parameter;
  if (parameter.json || !isComposite(value)) return [[name, textOf(parameter, value)]];
  const style = styleOf(parameter);
  const explode = explodes(parameter);
  if (style === 'deepObject' && isJsonObject(value))
    return Object.entries(value).map(([key, item]) => [`${name}[${key}]`, plain(item)]);
  if (Array.isArray(value)) {
    if (explode && style === 'form') return value.map((item) => [name, plain(item)]);
    const separator = style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ',';
    return [[name, value.map(plain).join(separator)]];
  }
  const entries = Object.entries(value);
  if (explode && style === 'form') return entries.map(([key, item]) => [key, plain(item)]);
  return [[name, entries.flatMap(([key, item]) => [key, plain(item)]).join(',')]];
}

/**
 * The text a path or header parameter is sent as: each value percent-encoded by `encode`
 * (the path's; a header's is left as is), the style's delimiters kept.
 * @example styledText({ name: 'ids', in: 'path' }, [3, 4], encodeURIComponent) // '3,4'
 * @example styledText({ name: 'ids', in: 'path', style: 'matrix' }, [3, 4], encodeURIComponent) // ';ids=3,4'
 */
export function styledText(
  parameter: Parameter,
  value: unknown,
  encode: (text: string) => string = (text) => text,
): string {
  if (parameter.json || !isComposite(value)) {
    const text = encode(textOf(parameter, value));
    const style = styleOf(parameter);
    if (style === 'label') return `.${text}`;
    if (style === 'matrix') return `;${parameter.name}=${text}`;
    return text;
  }
  const style = styleOf(parameter);
  const explode = explodes(parameter);
  const pairs = Array.isArray(value)
    ? value.map((item): [string | undefined, string] => [undefined, encode(plain(item))])
    : Object.entries(value).map(([key, item]): [string, string] => [
        encode(key),
        encode(plain(item)),
      ]);
  const name = parameter.name;
  if (style === 'label') {
    const parts = pairs.map(([key, item]) =>
      key === undefined ? item : explode ? `${key}=${item}` : `${key},${item}`,
    );
    return `.${parts.join(explode ? '.' : ',')}`;
  }
  if (style === 'matrix') {
    if (explode) return pairs.map(([key, item]) => `;${key ?? name}=${item}`).join('');
    return `;${name}=${pairs.map(([key, item]) => (key === undefined ? item : `${key},${item}`)).join(',')}`;
  }
  // simple
  return pairs
    .map(([key, item]) =>
      key === undefined ? item : explode ? `${key}=${item}` : `${key},${item}`,
    )
    .join(',');
}

/** The style in force: the one given, else the location's default. */
function styleOf(parameter: Parameter): string {
  return (
    parameter.style ?? (parameter.in === 'query' || parameter.in === 'cookie' ? 'form' : 'simple')
  );
}

function explodes(parameter: Parameter): boolean {
  return parameter.explode ?? styleOf(parameter) === 'form';
}

/** A value that is not a list or an object: a string as it is, a JSON document's as JSON. */
function textOf(parameter: Parameter, value: unknown): string {
  if (typeof value === 'string') return value;
  return parameter.json ? JSON.stringify(value) : plain(value);
}

/** A primitive as text (`null` as the empty text); something deeper as JSON, which no style defines. */
function plain(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function isComposite(value: unknown): value is unknown[] | Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
