import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { SchemaObject } from './load.js';

/** The reasons a value breaks a schema, as `/path message`; empty when it conforms. */
export type SchemaCheck = (value: unknown) => string[];

/**
 * Compiles schemas of a (resolved) spec. Each schema object is compiled once per compiler.
 * @example const check = createSchemaCompiler()(categorySchema); check({ id: 1, name: 'Dog' }) // []
 */
export function createSchemaCompiler(): (schema: SchemaObject) => SchemaCheck {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  // OpenAPI's own integer formats, which JSON Schema does not define.
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  const compiled = new Map<SchemaObject, SchemaCheck>();

  return (schema) => {
    let check = compiled.get(schema);
    if (!check) {
      const validate = ajv.compile(schema);
      check = (value) =>
        validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
      compiled.set(schema, check);
    }
    return check;
  };
}
