import { type SchemaVisitor } from './schema-walk.js';
import { fragmentOf } from './json-pointer.js';

/**
 * Keywords that let an object arm refuse an object: an arm with none of them (but
 * `properties`) takes every object whose named fields fit, whatever other fields it holds.
 */
const NARROWING = [
  'required',
  'additionalProperties',
  'unevaluatedProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'dependentSchemas',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'enum',
  'const',
  '$ref',
];

/**
 * A `oneOf` whose arms are objects that require nothing and close nothing can never be met:
 * every object its authors meant meets each arm, so none meets exactly one, and every answer
 * of such a schema would be a 500. Its authors list the shapes an object may take:
 * it is read as `anyOf`, in place, with one warning line for the document. A `discriminator`
 * names how to tell arms apart, and is left as it is. Run on the resolved document.
 * @example openArmsReader() // { visit, warnings }
 */
export function openArmsReader(): { visit: SchemaVisitor; warnings: () => string[] } {
  const places: string[] = [];
  const visit: SchemaVisitor = (schema, where) => {
    const arms = schema.oneOf;
    if (!Array.isArray(arms) || arms.length < 2 || 'discriminator' in schema) return;
    if ('anyOf' in schema || !arms.every(isOpenObject)) return;
    schema.anyOf = arms;
    delete schema.oneOf;
    places.push(fragmentOf(where()));
  };
  const warnings = () => {
    if (places.length === 0) return [];
    const count = places.length === 1 ? 'once' : `${places.length} times`;
    return [
      `a oneOf of objects that require nothing, which every object meets more than once: read as anyOf, ${count} (first at ${places[0]})`,
    ];
  };
  return { visit, warnings };
}

/** How deep isOpenObject reads arms of arms. */
const ARMS_DEPTH = 4;

/**
 * Whether an arm is an object schema that no keyword of NARROWING narrows; a union or an
 * `allOf` of such objects is one too (an arm that is itself a `oneOf` of open objects).
 */
function isOpenObject(arm: unknown, depth = 0): boolean {
  if (typeof arm !== 'object' || arm === null || Array.isArray(arm)) return false;
  const schema = arm as Record<string, unknown>;
  const objectOnly =
    schema.type === 'object' || (schema.type === undefined && 'properties' in schema);
  if (!objectOnly) return false;
  // A property fixed to listed values tells the arms apart (`method: card` or `method: bank`):
  // an object that names its kind meets one arm, and one that does not is the client's error.
  if (Object.values(propertiesIn(schema)).some(isListed)) return false;
  return NARROWING.every((keyword) => {
    const value = schema[keyword];
    if (value === undefined) return true;
    // An empty list of required names, or a schema that takes every other field, narrows nothing.
    if (keyword === 'required') return Array.isArray(value) && value.length === 0;
    if (keyword === 'oneOf' || keyword === 'anyOf' || keyword === 'allOf')
      return (
        depth < ARMS_DEPTH &&
        Array.isArray(value) &&
        value.every((inner: unknown) => isOpenObject(inner, depth + 1))
      );
    if (keyword === 'additionalProperties' || keyword === 'unevaluatedProperties')
      return (
        value === true || (typeof value === 'object' && Object.keys(value as object).length === 0)
      );
    return false;
  });
}

function propertiesIn(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties;
  return typeof properties === 'object' && properties !== null
    ? (properties as Record<string, unknown>)
    : {};
}

/** Whether a property's schema fixes its value to a list (`enum`) or one value (`const`). */
function isListed(property: unknown): boolean {
  return (
    typeof property === 'object' &&
    property !== null &&
    ('const' in property || Array.isArray((property as { enum?: unknown }).enum))
  );
}
