/**
 * The options of the type generator, declared once: the CLI makes its flags from this table
 * and the generator reads the resolved values. Names and meanings follow openapi-typescript's
 * flags of the same name (https://openapi-ts.dev/cli#flags), so a project can switch over.
 */
export const TYPE_OPTIONS = {
  defaultNonNullable: {
    flag: 'default-non-nullable',
    default: true,
    doc: 'a property with a default is present in answers (never in request bodies or parameters, where a client may leave it out)',
  },
  exportType: {
    flag: 'export-type',
    default: false,
    doc: 'write `export type` instead of `export interface` for the root types',
  },
  immutable: {
    flag: 'immutable',
    default: false,
    doc: 'every property and array readonly',
  },
  alphabetize: {
    flag: 'alphabetize',
    default: false,
    doc: 'sort properties, paths, operations and components by name',
  },
  additionalProperties: {
    flag: 'additional-properties',
    default: false,
    doc: 'an object that does not say `additionalProperties` accepts any other property',
  },
  emptyObjectsUnknown: {
    flag: 'empty-objects-unknown',
    default: false,
    doc: 'an object with no properties is `Record<string, unknown>` (not `Record<string, never>`)',
  },
  pathParamsAsTypes: {
    flag: 'path-params-as-types',
    default: false,
    doc: 'key paths by template literal types (`/pets/${string}`), so a concrete URL finds its path',
  },
  rootTypes: {
    flag: 'root-types',
    default: false,
    doc: 'also export each component as a type of its own (`SchemaPet`, `ResponseNotFound`)',
  },
  excludeDeprecated: {
    flag: 'exclude-deprecated',
    default: false,
    doc: 'leave out deprecated operations, parameters and properties',
  },
  arrayLength: {
    flag: 'array-length',
    default: false,
    doc: 'an array with minItems or maxItems (up to a few items) is a tuple of that length',
  },
} as const;

/** The resolved options of the generator. */
export type TypeOptions = { -readonly [K in keyof typeof TYPE_OPTIONS]: boolean };

/** Every option at its default, overridden by what is given. */
export function typeOptions(given: Partial<TypeOptions> = {}): TypeOptions {
  const resolved = {} as TypeOptions;
  for (const key of Object.keys(TYPE_OPTIONS) as (keyof TypeOptions)[])
    resolved[key] = given[key] ?? TYPE_OPTIONS[key].default;
  return resolved;
}
