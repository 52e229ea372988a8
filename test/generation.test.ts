// Data generated from schemas real descriptions have: deep, recursive, unions of named
// schemas, and schemas no value can fully meet.
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument, SchemaObject } from '../src/openapi/load.js';
import { SpecError } from '../src/openapi/load.js';
import { createDataGenerator } from '../src/openapi/sample.js';
import { createSchemaCompiler } from '../src/openapi/schemas.js';

/** A resolved document holding these named schemas (one object each, as $refs resolve). */
function generatorFor(schemas: Record<string, SchemaObject>) {
  const document = { openapi: '3.1.0', components: { schemas } } as unknown as OpenApiDocument;
  const compiler = createSchemaCompiler(document);
  return { generator: createDataGenerator({ seed: 7, compiler }), compiler };
}

describe('generated data', () => {
  it('is whole at any depth (strings below six levels were left empty)', () => {
    let schema: SchemaObject = {
      type: 'object',
      required: ['email'],
      properties: { email: { type: 'string', format: 'email', minLength: 3 } },
    };
    for (let level = 0; level < 9; level++)
      schema = { type: 'object', required: ['inner'], properties: { inner: schema } };
    const { generator, compiler } = generatorFor({});
    for (let i = 0; i < 5; i++)
      expect(compiler.response(schema)(generator.value(schema))).toEqual([]);
  });

  it('takes one arm of a oneOf whose arms are closed and all optional (json-schema-faker made {})', () => {
    const cat: SchemaObject = {
      type: 'object',
      properties: { meows: { type: 'boolean' }, purrs: { type: 'boolean' } },
      additionalProperties: false,
    };
    const dog: SchemaObject = {
      type: 'object',
      properties: { barks: { type: 'integer' }, wags: { type: 'boolean' } },
      additionalProperties: false,
    };
    const pet: SchemaObject = { oneOf: [cat, dog] };
    const { generator, compiler } = generatorFor({ Cat: cat, Dog: dog, Pet: pet });
    for (let i = 0; i < 5; i++) {
      const value = generator.value(pet);
      expect(compiler.response(pet)(value)).toEqual([]);
      expect(Object.keys(value as object).length).toBeGreaterThan(0);
    }
  });

  it('ends the recursion of a union whose arms hold the union, many kinds deep', () => {
    // A document tree: nodes of eight kinds, each holding nodes of any kind.
    const node: SchemaObject = { oneOf: [] };
    const kinds = Array.from({ length: 8 }, (_, i) => ({
      type: 'object',
      required: ['kind', 'children'],
      properties: {
        kind: { const: `kind${i}` },
        label: { type: 'string', pattern: '^[a-z]{2,6}$' },
        children: { type: 'array', items: node },
      },
    })) as SchemaObject[];
    node.oneOf = kinds;
    const named = Object.fromEntries(kinds.map((kind, i) => [`Kind${i}`, kind]));
    const { generator, compiler } = generatorFor({ ...named, Node: node });
    for (let i = 0; i < 5; i++) expect(compiler.response(node)(generator.value(node))).toEqual([]);
  });

  it('leaves out an optional property no value can meet', () => {
    const order: SchemaObject = {
      type: 'object',
      required: ['id'],
      properties: {
        id: { type: 'integer' },
        placedAt: { type: 'string', format: 'date-time', pattern: '^ord-' },
      },
    };
    const { generator } = generatorFor({ Order: order });
    for (let i = 0; i < 3; i++) expect(generator.value(order)).toEqual({ id: expect.any(Number) });
  });

  it('names the place no value can meet when the schema requires it', () => {
    const order: SchemaObject = {
      type: 'object',
      required: ['placedAt'],
      properties: { placedAt: { type: 'string', format: 'date-time', pattern: '^ord-' } },
    };
    const { generator } = generatorFor({ Order: order });
    expect(() => generator.value(order, 'the 200 answer of getOrder')).toThrow(SpecError);
    expect(() => generator.value(order, 'the 200 answer of getOrder')).toThrow(
      /cannot generate data valid against the 200 answer of getOrder: .*placedAt/,
    );
  });
});

describe('compiled checks', () => {
  it('check a recursive schema at any depth, and name the place', () => {
    const folder: SchemaObject = { type: 'object', required: ['name'], properties: {} };
    folder.properties = {
      name: { type: 'string', minLength: 1 },
      children: { type: 'array', items: folder },
    };
    const check = createSchemaCompiler().request(folder);
    expect(check({ name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] })).toEqual([]);
    expect(check({ name: 'a', children: [{ name: 'b', children: [{ name: '' }] }] })).toEqual([
      '/children/0/children/0/name must NOT have fewer than 1 characters',
    ]);
  });

  it('hide readOnly properties of a named schema only where it is read that way', () => {
    const base: SchemaObject = {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } },
    };
    const compiler = createSchemaCompiler({
      openapi: '3.1.0',
      components: { schemas: { Base: base } },
    } as unknown as OpenApiDocument);
    const wrapper: SchemaObject = { type: 'object', properties: { item: base } };
    expect(compiler.request(wrapper)({ item: { name: 'x' } })).toEqual([]);
    expect(compiler.request(wrapper)({ item: { id: 1, name: 'x' } })).toEqual([
      '/item/id is read-only: the service sets it, a client cannot send it',
    ]);
    expect(compiler.response(wrapper)({ item: { name: 'x' } })).toEqual([
      "/item must have required property 'id'",
    ]);
  });
});
