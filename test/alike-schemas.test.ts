// A large description writes the same schema out again and again: Cloudflare's 3,005 parameter
// schemas are 726 distinct ones, Stripe's 1,059 are 49. Each copy compiled on its own cost a
// first call (or a step of precompiling) its compile, and kept one more function in memory
// (issue 28: first calls and peak RSS on the largest documents). Schemas written alike share
// one compiled check now; these tests show that, and that schemas checked differently (another
// direction, another value) never share one.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OpenApiDocument, SchemaObject } from '../src/openapi/load.js';
import { createSchemaCompiler } from '../src/openapi/schemas.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Alike', version: '1' },
  paths: {},
  components: {
    schemas: {
      Account: {
        type: 'object',
        properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } },
      },
    },
  },
};

/** A fresh object each time, as a resolved description holds one per operation. */
const pageSize = (): SchemaObject => ({
  type: 'integer',
  minimum: 1,
  maximum: 100,
  description: 'How many per page',
});

describe('schemas written alike', () => {
  it('are compiled once, and each checks as its own would', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    const compiler = createSchemaCompiler(document, { lazyRefs: true });
    const schemas = Array.from({ length: 50 }, pageSize);
    for (const schema of schemas) compiler.prepare('parameters', schema);
    expect(compile).toHaveBeenCalledTimes(1);
    for (const schema of schemas) {
      const values: Record<string, unknown> = { limit: '20' };
      expect(
        compiler.parameters({ type: 'object', properties: { limit: schema } })(values),
      ).toEqual([]);
      expect(compiler.parameters(schema)('0', '/limit')).toEqual(['/limit must be >= 1']);
    }
  });

  it('referring to one named schema are compiled once too', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    const compiler = createSchemaCompiler(document, { lazyRefs: true });
    const account = document.components?.schemas?.Account as SchemaObject;
    const lists = Array.from({ length: 20 }, (): SchemaObject => ({
      type: 'array',
      items: account,
    }));
    for (const list of lists) compiler.prepare('response', list);
    expect(compile).toHaveBeenCalledTimes(1);
    for (const list of lists)
      expect(compiler.response(list)([{ id: 'a', name: 'b' }, { name: 3 }])).toEqual([
        '/1/name must be a string',
      ]);
  });

  it('but checked another way are not shared: a parameter is converted, a body is not', () => {
    const compiler = createSchemaCompiler(document);
    const parameter = { type: 'object', properties: { n: { type: 'integer' } } };
    const body = { type: 'object', properties: { n: { type: 'integer' } } };
    const values: Record<string, unknown> = { n: '5' };
    expect(compiler.parameters(parameter as SchemaObject)(values)).toEqual([]);
    expect(values.n).toBe(5);
    expect(compiler.request(body as SchemaObject)({ n: '5' })).toEqual(['/n must be an integer']);
  });

  it('but hiding other properties are not shared: a read-only id is refused in a request only', () => {
    const compiler = createSchemaCompiler(document, { lazyRefs: true });
    const account = document.components?.schemas?.Account as SchemaObject;
    const sent = { type: 'object', properties: { account } } as SchemaObject;
    const answered = { type: 'object', properties: { account } } as SchemaObject;
    expect(compiler.response(answered)({ account: { id: 'a', name: 'b' } })).toEqual([]);
    expect(compiler.request(sent)({ account: { id: 'a', name: 'b' } })).toEqual([
      '/account/id is read-only: the service sets it, a client cannot send it',
    ]);
  });

  it('only as JSON writes them (Infinity and null) are not shared', () => {
    const compiler = createSchemaCompiler(document);
    // YAML reads 1e309 as Infinity; JSON.stringify writes it as null.
    const infinite = { enum: [Number.POSITIVE_INFINITY] } as SchemaObject;
    const nullish = { enum: [null] } as SchemaObject;
    expect(compiler.response(infinite)(Number.POSITIVE_INFINITY)).toEqual([]);
    expect(compiler.response(nullish)(null)).toEqual([]);
    expect(compiler.response(nullish)(Number.POSITIVE_INFINITY)).toHaveLength(1);
  });
});
