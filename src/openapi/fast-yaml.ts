import jsYaml from 'js-yaml';

// js-yaml reads a large description about ten times as fast as the `yaml` package, a share of
// the cold start that matters (decisions/033). The reading must not change with the reader: js-yaml is given the YAML 1.2 core
// schema as `yaml` reads it, and gives way (see fastYaml) wherever the two could differ.

/**
 * Numbers as the YAML 1.2 core schema has them, in `yaml`'s own patterns: decimal integers
 * with a sign, `0o` octal and `0x` hex without one, floats with a dot or an exponent (`1e309`
 * is Infinity), `.inf` and `.nan`. js-yaml's own also reads `0b11`, `-0x1F` and `-.5`
 * otherwise, or not at all.
 */
const INTEGER = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;
const FLOAT =
  /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/;
const SPECIAL_FLOAT = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

const coreInteger = new jsYaml.Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (text: string | null) => text !== null && INTEGER.test(text),
  construct: (text: string) =>
    text.startsWith('0o')
      ? parseInt(text.slice(2), 8)
      : text.startsWith('0x')
        ? parseInt(text.slice(2), 16)
        : parseInt(text, 10),
  predicate: (value: unknown) => Number.isInteger(value),
});

const coreFloat = new jsYaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (text: string | null) => text !== null && (FLOAT.test(text) || SPECIAL_FLOAT.test(text)),
  construct: (text: string) =>
    !SPECIAL_FLOAT.test(text)
      ? parseFloat(text)
      : text.endsWith('nan') || text.endsWith('NaN') || text.endsWith('NAN')
        ? NaN
        : text.startsWith('-')
          ? -Infinity
          : Infinity,
  predicate: (value: unknown) => typeof value === 'number',
});

const NUMBERS: Record<string, jsYaml.Type> = {
  'tag:yaml.org,2002:int': coreInteger,
  'tag:yaml.org,2002:float': coreFloat,
};

/** js-yaml's core schema (no dates, no merge keys, no `!!binary`) with the numbers above. */
const CORE = jsYaml.FAILSAFE_SCHEMA.extend({
  // In js-yaml's order (null, bool, int, float): the first type that reads a scalar takes it.
  implicit: (
    jsYaml.CORE_SCHEMA as unknown as { implicit: (jsYaml.Type & { tag: string })[] }
  ).implicit.map((type) => NUMBERS[type.tag] ?? type),
});

/**
 * Where the two readers part, found in the text: an anchor (`&name`, which aliases need: `yaml`
 * bounds what aliases expand to, js-yaml shares the object), an explicit key (`? `, where a
 * collection as a key is named differently), and a null key (`~:`, `null:`, `: x`, which `yaml`
 * names `""` and js-yaml `"null"`). A false alarm (`&` in a description) costs only speed.
 */
const GIVE_WAY =
  /(?:^|[\s[{,:-])&[^\s,[\]{}]|^[ \t-]*\?(?:[ \t]|$)|(?:^[ \t-]*|[{,][ \t]*)(?:~|null|Null|NULL)?[ \t]*:(?:[ \t]|$)/m;

/**
 * The document js-yaml reads from YAML text, when it reads it as the `yaml` package would:
 * undefined when it gives way (see GIVE_WAY), when the text is not one YAML mapping, or on any
 * error, duplicate keys included: `yaml` then reads it, and says where it is wrong.
 * @example fastYaml('openapi: 3.1.0\npaths: {}') // { openapi: '3.1.0', paths: {} }
 */
export function fastYaml(text: string): Record<string, unknown> | undefined {
  if (GIVE_WAY.test(text)) return undefined;
  let read: unknown;
  try {
    read = jsYaml.load(text, { schema: CORE });
  } catch {
    return undefined;
  }
  return typeof read === 'object' && read !== null && !Array.isArray(read)
    ? (read as Record<string, unknown>)
    : undefined;
}
