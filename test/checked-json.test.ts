import { describe, expect, it, vi } from 'vitest';
import { createRecordSerializers } from '../src/http/checked-json.js';
import { ApiError } from '../src/http/errors.js';
import { createSchemaCompiler } from '../src/spec/schemas.js';
import { loadSpec, type SchemaObject } from '../src/spec/load.js';

const category = async () =>
  (await loadSpec()).resolved.components!.schemas!.Category as SchemaObject;

describe('createRecordSerializers', () => {
  it('serializes a record that meets its schema', async () => {
    const serialize = createRecordSerializers(createSchemaCompiler())(await category());
    expect(serialize({ id: 1, name: 'Dog' }, '')).toBe('{"id":1,"name":"Dog"}');
  });

  it('checks and serializes each record once', async () => {
    const compile = createSchemaCompiler();
    const check = vi.fn(compile(await category()));
    const serialize = createRecordSerializers(() => check)(await category());
    const record = Object.freeze({ id: 1, name: 'Dog' });
    serialize(record, '/0');
    serialize(record, '/0');
    serialize(Object.freeze({ id: 2, name: 'Cat' }), '/1');
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('refuses a record that breaks its schema with a 500 naming where and what', async () => {
    const serialize = createRecordSerializers(createSchemaCompiler())(await category());
    const attempt = () => serialize({ id: 'seven', name: 'Dog' }, '/3');
    expect(attempt).toThrow(ApiError);
    expect(attempt).toThrow('/response/3/id must be integer');
    try {
      attempt();
    } catch (err) {
      expect((err as ApiError).toBody()).toMatchObject({ code: 'invalid_response', status: 500 });
    }
  });

  it('gives one serializer per schema object, so records shared by two operations are checked once', async () => {
    const serializers = createRecordSerializers(createSchemaCompiler());
    const schema = await category();
    expect(serializers(schema)).toBe(serializers(schema));
  });
});

describe('createSchemaCompiler', () => {
  it("knows OpenAPI's integer formats", () => {
    const check = createSchemaCompiler()({ type: 'integer', format: 'int32' });
    expect(check(2 ** 31 - 1)).toEqual([]);
    expect(check(2 ** 31)).not.toEqual([]);
    expect(createSchemaCompiler()({ type: 'integer', format: 'int64' })(2 ** 40)).toEqual([]);
  });
});
