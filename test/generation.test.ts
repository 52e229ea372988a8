// Data generated from schemas real descriptions have: deep, recursive, unions of named
// schemas, and schemas no value can fully meet.
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument, SchemaObject } from '../src/openapi/load.js';
import { SpecError } from '../src/openapi/load.js';
import { createDataGenerator, requiredOnly } from '../src/openapi/sample.js';
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
        placedAt: { type: 'string', enum: ['2024-05-01T10:00:00Z'], pattern: '^ord-' },
      },
    };
    const { generator } = generatorFor({ Order: order });
    for (let i = 0; i < 3; i++) expect(generator.value(order)).toEqual({ id: expect.any(Number) });
  });

  it('names the place no value can meet when the schema requires it', () => {
    const order: SchemaObject = {
      type: 'object',
      required: ['placedAt'],
      properties: {
        placedAt: { type: 'string', enum: ['2024-05-01T10:00:00Z'], pattern: '^ord-' },
      },
    };
    const { generator } = generatorFor({ Order: order });
    expect(() => generator.value(order, 'the 200 answer of getOrder')).toThrow(SpecError);
    expect(() => generator.value(order, 'the 200 answer of getOrder')).toThrow(
      /cannot generate data valid against the 200 answer of getOrder: .*placedAt/,
    );
  });

  it('fills a wide bound only a little (a 70 MB maxLength made values of megabytes, for ever)', () => {
    // OpenAI's description: an inline skill's base64 payload, `maxLength: 70254592`, in an
    // array of a create's body; a secret's value of up to 10 MiB beside it.
    const skill: SchemaObject = {
      type: 'object',
      required: ['data', 'chunks'],
      properties: {
        data: { type: 'string', minLength: 1, maxLength: 70_254_592 },
        chunks: { type: 'array', minItems: 2, maxItems: 1_000_000, items: { type: 'integer' } },
        labels: {
          type: 'object',
          maxProperties: 500_000,
          additionalProperties: { type: 'string' },
        },
      },
    };
    const body: SchemaObject = { type: 'array', minItems: 1, maxItems: 2 ** 31, items: skill };
    const { generator, compiler } = generatorFor({ Skill: skill });
    for (let i = 0; i < 5; i++) {
      const value = generator.value(body) as { data: string; chunks: unknown[] }[];
      expect(compiler.response(body)(value)).toEqual([]);
      expect(value.length).toBeLessThanOrEqual(21);
      for (const item of value) {
        expect(item.data.length).toBeLessThanOrEqual(1 + 1_024);
        expect(item.chunks.length).toBeLessThanOrEqual(2 + 20);
      }
      expect(JSON.stringify(value).length).toBeLessThan(1_000_000);
    }
  });

  it('makes an id where a union allows an id or the object it names (Stripe’s lists of two charges were 1.7 MB)', () => {
    const customer: SchemaObject = {
      type: 'object',
      required: ['id', 'email'],
      properties: { id: { type: 'string' }, email: { type: 'string', format: 'email' } },
    };
    const charge: SchemaObject = {
      type: 'object',
      required: ['id', 'customer', 'source'],
      properties: {
        id: { type: 'string' },
        customer: { anyOf: [{ type: 'string', maxLength: 5000 }, customer] },
        source: { oneOf: [{ type: 'string' }, customer, { type: 'null' }] },
        refund: { anyOf: [customer, { type: 'integer' }] },
      },
    };
    const { generator, compiler } = generatorFor({ Customer: customer, Charge: charge });
    for (let i = 0; i < 10; i++) {
      const value = generator.value(charge) as Record<string, unknown>;
      expect(compiler.response(charge)(value)).toEqual([]);
      expect(typeof value.customer).toBe('string');
      expect(value.source === null || typeof value.source === 'string').toBe(true);
    }
  });

  it('makes numbers unbounded below positive, as ids and counts of real services are (was "id": -982)', () => {
    const record: SchemaObject = {
      type: 'object',
      required: ['id', 'sequence', 'ratio', 'offset', 'depth'],
      properties: {
        id: { type: 'integer' },
        sequence: { type: ['integer', 'null'], format: 'int64' },
        ratio: { type: 'number' },
        offset: { type: 'integer', maximum: -1 },
        depth: { type: 'integer', minimum: -5, maximum: 5 },
      },
    };
    const { generator, compiler } = generatorFor({ Record: record });
    for (let i = 0; i < 20; i++) {
      const value = generator.value(record) as Record<string, number | null>;
      expect(compiler.response(record)(value)).toEqual([]);
      expect(value.id).toBeGreaterThanOrEqual(1);
      if (value.sequence !== null) expect(value.sequence).toBeGreaterThanOrEqual(1);
      expect(value.ratio).toBeGreaterThanOrEqual(0);
      expect(value.offset).toBeLessThanOrEqual(-1);
    }
  });

  it('leaves out an optional property whose minimum is beyond what it makes, and names a required one', () => {
    const huge = { type: 'string', minLength: 10_000_000 } as const;
    const optional: SchemaObject = {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'integer' }, blob: huge },
    };
    const required: SchemaObject = { ...optional, required: ['id', 'blob'] };
    const { generator } = generatorFor({});
    expect(generator.value(optional)).toEqual({ id: expect.any(Number) });
    expect(() => generator.value(required, 'the 200 answer of getBlob')).toThrow(
      'cannot generate data valid against the 200 answer of getBlob: a minLength of 10000000 characters, beyond the 65536 the mock generates',
    );
  });
});

describe('listed values narrowed by composition', () => {
  it('gives the listed value the composition allows, every time (Discord’s channel type: a 500 on about every other create)', () => {
    // `enum: [1]` beside `allOf: [{oneOf: [{const: 0}, ..., {const: 15}]}]`: json-schema-faker drew from the oneOf.
    const kinds: SchemaObject = {
      type: 'integer',
      oneOf: Array.from({ length: 16 }, (_, n) => ({ title: `kind ${n}`, const: n })),
    };
    const schema: SchemaObject = { type: 'integer', enum: [1], allOf: [kinds] };
    const document = {
      openapi: '3.1.0',
      components: { schemas: {} },
    } as unknown as OpenApiDocument;
    const compiler = createSchemaCompiler(document);
    for (let seed = 1; seed <= 20; seed++) {
      const generator = createDataGenerator({ seed, compiler });
      expect(generator.value(schema, 'channels.type')).toBe(1);
      expect(generator.value({ const: 3, allOf: [kinds] }, 'channels.type')).toBe(3);
    }
  });

  it('gives them at any depth (Discord’s message components: six attempts, 100–500 ms a message)', () => {
    const kinds: SchemaObject = {
      type: 'integer',
      oneOf: Array.from({ length: 31 }, (_, n) => ({ const: n })),
    };
    const component = (kind: number): SchemaObject => ({
      type: 'object',
      required: ['type'],
      properties: { type: { type: 'integer', enum: [kind], allOf: [kinds] } },
    });
    const message: SchemaObject = {
      type: 'object',
      required: ['components'],
      properties: {
        // prefixItems is 3.1's (JSON Schema 2020-12), which the 3.0 types do not know.
        components: {
          type: 'array',
          minItems: 4,
          prefixItems: [1, 2, 3, 17].map(component),
          items: component(17),
        } as SchemaObject,
      },
    };
    const { generator, compiler } = generatorFor({});
    const made = generator.value(message, 'messages') as { components: { type: number }[] };
    expect(compiler.response(message)(made)).toEqual([]);
    expect(made.components.slice(0, 4).map((part) => part.type)).toEqual([1, 2, 3, 17]);
  });
});

describe('compiled checks', () => {
  it('read examples and extensions as data: a $id inside them is no schema id (Box’s schemas could not be compiled)', () => {
    // Box's File--Full and Folder--Full: an example of metadata whose instances carry `$id`.
    const metadata = { marketing: { $id: '01234500-12f1-1234-aa12-b1d234cb567e', $type: 'm' } };
    const user: SchemaObject = { type: 'object', properties: { id: { type: 'string' } } };
    const named = (name: string): SchemaObject =>
      ({
        type: 'object',
        required: ['name'],
        'x-box-tag': { $id: 'x' },
        properties: {
          name: { type: 'string', examples: [{ $id: 'y' }] },
          owner: user,
          metadata: {
            allOf: [{ type: 'object', example: metadata }],
            additionalProperties: { type: 'object', example: metadata },
          },
          related: { $id: `not-a-uri-${name}`, type: 'array', items: user },
        },
      }) as SchemaObject;
    const file = named('file');
    const folder = named('folder');
    const list: SchemaObject = { type: 'array', items: { anyOf: [file, folder] } };
    const compiler = createSchemaCompiler({
      openapi: '3.1.0',
      components: { schemas: { User: user, File: file, Folder: folder } },
    } as unknown as OpenApiDocument);
    expect(compiler.response(list)([{ name: 'a', owner: { id: '1' } }, { name: 'b' }])).toEqual([]);
    expect(compiler.response(file)({ owner: { id: 1 } })).toEqual([
      " must have required property 'name'",
      '/owner/id must be a string',
    ]);
  });

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

describe('the fill of a large record', () => {
  // A record whose schema is large (Discord's message, Stripe's account and payment intent)
  // was generated with 0.8 of its optional fields and arrays of up to 3 items at every depth:
  // 20–120 KB where the services send a few KB, and 40–90 ms to make (issue 28: first calls).
  const names = Array.from({ length: 600 }, (_, i) => `field_${i}`);
  const large: SchemaObject = {
    type: 'object',
    required: ['id'],
    properties: {
      id: { type: 'integer' },
      tags: { type: 'array', items: { type: 'string', maxLength: 8 } },
      ...Object.fromEntries(names.map((name) => [name, { type: 'string', maxLength: 8 }])),
    },
  };
  const small: SchemaObject = {
    type: 'object',
    properties: Object.fromEntries(names.slice(0, 20).map((name) => [name, { type: 'string' }])),
  };

  it('holds about half of its optional fields and arrays of at most two items', () => {
    const generator = createDataGenerator({ seed: 1, compiler: createSchemaCompiler() });
    for (let seed = 0; seed < 20; seed++) {
      const value = generator.withSeed(seed).value(large) as Record<string, unknown>;
      const filled = names.filter((name) => name in value).length;
      expect(filled).toBeGreaterThan(600 * 0.35);
      expect(filled).toBeLessThan(600 * 0.65);
      if (Array.isArray(value.tags)) expect(value.tags.length).toBeLessThanOrEqual(2);
    }
  });

  it('leaves a small record most of its optional fields', () => {
    const generator = createDataGenerator({ seed: 1, compiler: createSchemaCompiler() });
    let filled = 0;
    for (let seed = 0; seed < 20; seed++) {
      const value = generator.withSeed(seed).value(small) as Record<string, unknown>;
      filled += Object.keys(value).length;
    }
    // 0.8 of 20 fields, over 20 records: 320 expected.
    expect(filled).toBeGreaterThan(20 * 20 * 0.65);
  });
});

describe('a minimal value (an error body the mock fills)', () => {
  /** A node that must hold another: no finite value has it. */
  const endless: SchemaObject = { type: 'object', required: ['child'], properties: {} };
  (endless.properties as Record<string, SchemaObject>).child = endless;
  /** Stripe's error shape: a type and a message required, and big optional objects beside. */
  const error: SchemaObject = {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['type'],
        allOf: [{ required: ['message'] }],
        properties: {
          type: { type: 'string', enum: ['api_error', 'card_error'] },
          message: { type: 'string', maxLength: 40 },
          payment_intent: endless,
        },
      },
    },
  };

  it('is made of what is required, never walking what only optional properties reach', () => {
    const { generator, compiler } = generatorFor({ Endless: endless, Error: error });
    const lean = requiredOnly(error, new WeakMap());
    const inner = (lean.properties as Record<string, SchemaObject>).error as SchemaObject;
    expect(Object.keys(inner.properties ?? {}).sort()).toEqual(['message', 'type']);
    // A kind of a union keeps what is required atop it; a recursion through parts ends.
    const kinds: SchemaObject = {
      required: ['id'],
      oneOf: [{ properties: { id: { type: 'string' }, extra: endless } }],
    };
    (kinds.oneOf as SchemaObject[]).push(kinds);
    const arms = requiredOnly(kinds, new WeakMap()).oneOf as SchemaObject[];
    expect(Object.keys(arms[0]?.properties ?? {})).toEqual(['id']);
    for (let i = 0; i < 5; i++) {
      const value = generator.value(error, 'the error', { minimal: true }) as {
        error: Record<string, unknown>;
      };
      expect(compiler.response(error)(value)).toEqual([]);
      // A name an allOf part requires is made too.
      expect(Object.keys(value.error).sort()).toEqual(['message', 'type']);
    }
  });

  it('is made from the whole schema where the required ones alone cannot make it', () => {
    const closed: SchemaObject = {
      type: 'object',
      minProperties: 2,
      required: ['code'],
      properties: { code: { type: 'integer' }, detail: { type: 'string' } },
    };
    const { generator, compiler } = generatorFor({});
    const value = generator.value(closed, 'the error', { minimal: true });
    expect(compiler.response(closed)(value)).toEqual([]);
  });
});
