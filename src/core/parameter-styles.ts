// Reading parameters as their `style` and `explode` write them (OpenAPI's Style Values table),
// into values the schema check then converts and checks. Query strings are split by the
// platform's URLSearchParams and deepObject keys read by `qs`; cookies by `cookie`.
import { parseNestedQuery } from './nested-query.js';
import type { Parameter } from '../openapi/operations.js';
import { propertiesOf, typesOf } from '../openapi/schema-parts.js';
import { readCookies } from './credentials.js';

/** Parameter values by name, as strings, lists and objects of strings (JSON values for `content`). */
type Values = Record<string, unknown>;

/** What was read, and what could not be (`/query/q is empty ...`), for the 400 that lists them. */
export interface ReadValues {
  values: Values;
  problems: string[];
}

/** The deepest `filter[a][b]...` read, and the most entries of one list, as qs bounds them. */
const DEEP_OBJECT_LIMITS = { depth: 8, arrayLimit: 100 };

/** How a schema's value is written: a list, an object (a map of names to values), or one value. */
type Shape = 'array' | 'object' | 'scalar';

function shapeOf(schema: Parameter['schema']): Shape {
  let shape = shapes.get(schema);
  if (shape === undefined) {
    const types = typesOf(schema);
    if (types.includes('array')) shape = 'array';
    else if (types.includes('object') || (types.length === 0 && schema.properties))
      shape = 'object';
    else shape = 'scalar';
    shapes.set(schema, shape);
  }
  return shape;
}

/** The shape of each parameter schema, read once: asked for every parameter of every request. */
const shapes = new WeakMap<Parameter['schema'], Shape>();

/** The one value of a list that has exactly one. */
function single(list: readonly string[]): string | undefined {
  return list.length === 1 ? list[0] : undefined;
}

function emptyValues(): Values {
  // No prototype: a parameter named `__proto__` or `constructor` is just a name.
  return Object.create(null) as Values;
}

/**
 * Reads a query string (or a form-urlencoded body) by its parameters: `form` (repeated keys
 * with explode, else comma-separated), `spaceDelimited` and `pipeDelimited`, `deepObject`
 * (`filter[name]=x`, nested), an exploded `form` object (its properties as keys of their own),
 * and `content` (JSON). Keys no parameter names are kept as they came (one value, or a list if
 * repeated), for the schema check to refuse or accept; `ignored` keys (credentials) are left out.
 * A value sent empty (`?q=`) is a problem unless the parameter allows it.
 * @example readQuery('ids=1&ids=2&filter[name]=x', [ids, filter], { where: '/query' }).values // { ids: ['1', '2'], filter: { name: 'x' } }
 */
export function readQuery(
  search: string,
  parameters: readonly Parameter[],
  options: { where: string; ignored?: readonly string[] },
): ReadValues {
  const values = emptyValues();
  const problems: string[] = [];
  const byKey = new Map<string, string[]>();
  for (const [key, value] of new URLSearchParams(search)) {
    const list = byKey.get(key);
    if (list) list.push(value);
    else byKey.set(key, [value]);
  }
  const used = new Set(options.ignored);
  const named = new Set(parameters.map((parameter) => parameter.name));
  const take = (key: string) => {
    used.add(key);
    return byKey.get(key);
  };
  let freeForm: Parameter | undefined;

  for (const parameter of parameters) {
    const { name, style, explode } = parameter;
    const at = `${options.where}/${name}`;
    const shape = shapeOf(parameter.schema);
    if (parameter.json) {
      const sent = take(name);
      if (!sent) continue;
      const one = single(sent);
      values[name] = one === undefined ? sent : parseJson(one, at, problems);
      continue;
    }
    if (style === 'deepObject') {
      const keys = [...byKey.keys()].filter((key) => key === name || key.startsWith(`${name}[`));
      if (keys.length === 0) continue;
      const pairs = keys.flatMap((key) =>
        (take(key) ?? []).map((value) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`),
      );
      const parsed = parseNestedQuery(pairs.join('&'), {
        ...DEEP_OBJECT_LIMITS,
        parameterLimit: Infinity,
        allowPrototypes: false,
        plainObjects: true,
      }) as Values;
      values[name] = parsed[name];
      continue;
    }
    if (shape === 'object' && explode && style === 'form') {
      // `?R=100&G=200`: the object's properties are keys of the query themselves.
      const properties = Object.keys(propertiesOf(parameter.schema));
      const object = emptyValues();
      for (const property of properties) {
        if (named.has(property) || used.has(property)) continue;
        const sent = take(property);
        if (sent) object[property] = sent.length === 1 ? sent[0] : sent;
      }
      if (properties.length === 0 || parameter.schema.additionalProperties) freeForm ??= parameter;
      if (Object.keys(object).length > 0) values[name] = object;
      continue;
    }
    const sent = take(name);
    if (!sent) continue;
    if (!parameter.allowEmptyValue && sent.includes(''))
      problems.push(`${at} is empty: send a value (the spec does not allow ${name} empty)`);
    if (explode) {
      values[name] = shape === 'array' || sent.length > 1 ? sent : sent[0];
      continue;
    }
    const delimiter = style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ',';
    const one = single(sent);
    values[name] =
      one !== undefined
        ? splitValue(one, shape, delimiter)
        : shape === 'array'
          ? sent.flatMap((value) => value.split(delimiter))
          : sent;
  }

  for (const [key, sent] of byKey) {
    if (used.has(key)) continue;
    const value = sent.length === 1 ? sent[0] : sent;
    if (freeForm) {
      const object = (values[freeForm.name] ??= emptyValues()) as Values;
      object[key] = value;
    } else {
      values[key] = value;
    }
  }
  return { values, problems };
}

/**
 * Reads header parameters (`simple`: `3,4,5`; an object `R,100,G,200`, or `R=100,G=200`
 * exploded). Headers are found by lower-case name, as Node gives them.
 * @example readHeaders({ 'x-ids': '1, 2' }, [xIds]).values // { 'x-ids': ['1', '2'] }
 */
export function readHeaders(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
  parameters: readonly Parameter[],
): ReadValues {
  const values = emptyValues();
  const problems: string[] = [];
  for (const parameter of parameters) {
    const sent = headers[parameter.name];
    if (sent === undefined) continue;
    const text = typeof sent === 'string' ? sent : sent.join(', ');
    values[parameter.name] = parameter.json
      ? parseJson(text, `/headers/${parameter.name}`, problems)
      : simpleValue(text, parameter);
  }
  return { values, problems };
}

/**
 * Reads cookie parameters from the Cookie header (`form`: a list comma-separated, an object as
 * `R,100,G,200`). A cookie sent twice is a list, which a schema of one value refuses.
 * @example readCookieParameters('theme=dark; ids=1,2', [theme, ids]).values // { theme: 'dark', ids: ['1', '2'] }
 */
export function readCookieParameters(
  header: string | undefined,
  parameters: readonly Parameter[],
): ReadValues {
  const values = emptyValues();
  const problems: string[] = [];
  if (parameters.length === 0) return { values, problems };
  const cookies = readCookies(header);
  for (const parameter of parameters) {
    const sent = cookies.get(parameter.name);
    if (!sent) continue;
    const one = single(sent);
    if (one === undefined) values[parameter.name] = sent;
    else if (parameter.json)
      values[parameter.name] = parseJson(one, `/cookies/${parameter.name}`, problems);
    else values[parameter.name] = splitValue(one, shapeOf(parameter.schema), ',');
  }
  return { values, problems };
}

/**
 * Reads path parameters, already percent-decoded by the router: `simple` (`3,4`), `label`
 * (`.3.4`, or `.3,4` without explode) and `matrix` (`;id=3;id=4`, or `;id=3,4`).
 * @example readPath({ ids: '.3.4' }, [labelIds]).values // { ids: ['3', '4'] }
 */
export function readPath(
  params: Readonly<Record<string, string>>,
  parameters: readonly Parameter[],
): ReadValues {
  const values = emptyValues();
  const problems: string[] = [];
  for (const parameter of parameters) {
    const sent = params[parameter.name];
    if (sent === undefined) continue;
    const { name, style, explode } = parameter;
    const shape = shapeOf(parameter.schema);
    if (parameter.json) values[name] = parseJson(sent, `/path/${name}`, problems);
    else if (style === 'label' && sent.startsWith('.'))
      values[name] = splitValue(sent.slice(1), shape, explode ? '.' : ',', explode);
    else if (style === 'matrix' && sent.startsWith(';'))
      values[name] = matrixValue(sent.slice(1), name, shape, explode);
    else values[name] = simpleValue(sent, parameter);
  }
  return { values, problems };
}

function simpleValue(text: string, parameter: Parameter): unknown {
  const shape = shapeOf(parameter.schema);
  if (shape === 'scalar') return text;
  return splitValue(text, shape, ',', parameter.explode);
}

/**
 * A value written with a delimiter: a list, or an object as alternating names and values
 * (`R,100,G,200`), or, exploded, as `name=value` items. An object that cannot be read that way
 * stays a string, which the schema refuses.
 */
function splitValue(text: string, shape: Shape, delimiter: string, exploded = false): unknown {
  if (shape === 'scalar') return text;
  // Around the commas of a header list, HTTP allows spaces.
  const items = text.split(delimiter).map((item) => (delimiter === ',' ? item.trim() : item));
  if (shape === 'array') return items;
  const object = emptyValues();
  if (exploded) {
    for (const item of items) {
      const at = item.indexOf('=');
      if (at <= 0) return text;
      object[item.slice(0, at)] = item.slice(at + 1);
    }
    return object;
  }
  if (items.length % 2 !== 0) return text;
  for (let i = 0; i < items.length; i += 2) object[items[i] ?? ''] = items[i + 1];
  return object;
}

/** `id=3`, `id=3,4`, `id=3;id=4`, `R=100;G=200` (the leading `;` taken off). */
function matrixValue(text: string, name: string, shape: Shape, explode: boolean): unknown {
  const segments = text.split(';').map((segment) => {
    const at = segment.indexOf('=');
    return at < 0
      ? { key: segment, value: '' }
      : { key: segment.slice(0, at), value: segment.slice(at + 1) };
  });
  if (shape === 'object' && explode) {
    const object = emptyValues();
    for (const { key, value } of segments) object[key] = value;
    return object;
  }
  const own = segments.filter(({ key }) => key === name).map(({ value }) => value);
  const [first] = own;
  if (first === undefined) return `;${text}`;
  if (shape === 'array') return explode ? own : first.split(',');
  if (shape === 'object') return splitValue(first, shape, ',');
  return own.length === 1 ? first : own;
}

function parseJson(text: string, at: string, problems: string[]): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    problems.push(`${at} is not valid JSON`);
    return text;
  }
}
