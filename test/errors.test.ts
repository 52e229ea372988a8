import { describe, expect, it } from 'vitest';
import { toApiError } from '../src/core/error-mapping.js';
import { createErrorShaper } from '../src/core/error-shaper.js';
import type { OpenApiDocument, SchemaObject } from '../src/openapi/load.js';
import { createDataGenerator } from '../src/openapi/sample.js';
import { createSchemaCompiler } from '../src/openapi/schemas.js';
import { errorForStatus as byStatus } from '../src/vocabulary/error-catalogue.js';
import { ApiError } from '../src/vocabulary/errors.js';
import { StoreDiskFullError, StoreFullError, StoreUnavailableError } from '../src/store/store.js';

/** What the body reader raises: raw-body's http-errors, and inflate.ts's of the same shape. */
function httpError(status: number, extra: object = {}): Error {
  return Object.assign(new Error('parser says no'), { status, ...extra });
}

describe('toApiError', () => {
  it('keeps an ApiError as it is', () => {
    const err = new ApiError(418, 'teapot', 'short and stout');
    expect(toApiError(err)).toBe(err);
  });

  it.each([
    {
      err: httpError(413, { type: 'entity.too.large', limit: 10 }),
      status: 413,
      code: 'payload_too_large',
    },
    {
      err: httpError(415, { type: 'encoding.unsupported' }),
      status: 415,
      code: 'unsupported_encoding',
    },
    {
      err: httpError(415, { type: 'charset.unsupported' }),
      status: 415,
      code: 'unsupported_media_type',
    },
    { err: httpError(400, { type: 'request.aborted' }), status: 400, code: 'bad_request' },
    { err: httpError(400, { type: 'request.size.invalid' }), status: 400, code: 'bad_request' },
    // A body sent as gzip that is not gzip: zlib's error, given 400 by the body reader (inflate.ts).
    { err: httpError(400, { code: 'Z_DATA_ERROR' }), status: 400, code: 'malformed_body' },
    {
      err: httpError(400, { code: 'ERR_BROTLI_DECOMPRESSION_FAILED' }),
      status: 400,
      code: 'malformed_body',
    },
    { err: httpError(404), status: 404, code: 'not_found' },
    { err: httpError(500), status: 500, code: 'internal_error' },
    { err: new StoreFullError('maxRecords', 10), status: 507, code: 'insufficient_storage' },
    { err: new StoreDiskFullError('/data.jsonl'), status: 507, code: 'insufficient_storage' },
    { err: new StoreUnavailableError('EIO', 2), status: 503, code: 'service_unavailable' },
    { err: new Error('boom'), status: 500, code: 'internal_error' },
    { err: 'a thrown string', status: 500, code: 'internal_error' },
    { err: undefined, status: 500, code: 'internal_error' },
  ])('$code from $err', ({ err, status, code }) => {
    const mapped = toApiError(err);
    expect(mapped.status).toBe(status);
    expect(mapped.code).toBe(code);
    expect(mapped.toBody()).toEqual({ code, message: expect.any(String), status });
  });

  it('names the limit of a full store', () => {
    expect(toApiError(new StoreFullError('maxRecords', 10)).message).toMatch(/10 records/);
    expect(toApiError(new StoreFullError('maxBytes', 2048)).message).toMatch(/2048 bytes/);
  });

  it('tells a client when to try an unavailable store again', () => {
    expect(toApiError(new StoreUnavailableError('EIO', 2)).headers).toEqual({ 'Retry-After': '2' });
  });

  it('does not pass on the message of an unexpected error', () => {
    expect(toApiError(new Error('secret at /srv/app.js:12')).message).not.toContain('secret');
  });
});

describe('byStatus', () => {
  it('names the code after the status', () => {
    expect(byStatus(431, 'x').code).toBe('request_header_fields_too_large');
    expect(byStatus(408, 'x').code).toBe('request_timeout');
  });

  it('turns a status HTTP does not know into 500', () => {
    expect(byStatus(799, 'x').status).toBe(500);
  });
});

describe('createErrorShaper', () => {
  it('fills another error shape with only what it requires (Stripe’s 404s were 100 KB of optional payment intents)', () => {
    // Stripe's `error`: `{ error: api_errors }`, where api_errors holds optional charges,
    // payment intents and sources, each a large expandable object.
    const charge: SchemaObject = {
      type: 'object',
      required: ['id', 'amount'],
      properties: {
        id: { type: 'string' },
        amount: { type: 'integer' },
        refunds: {
          type: 'array',
          items: { type: 'object', properties: { id: { type: 'string' } } },
        },
      },
    };
    const apiErrors: SchemaObject = {
      type: 'object',
      required: ['type'],
      properties: {
        type: { type: 'string', enum: ['api_error', 'card_error', 'invalid_request_error'] },
        message: { type: 'string' },
        charge,
        payment_intent: { anyOf: [charge, { type: 'string' }] },
      },
    };
    const error: SchemaObject = {
      type: 'object',
      required: ['error'],
      properties: { error: apiErrors },
    };
    const compiler = createSchemaCompiler({
      openapi: '3.1.0',
      components: { schemas: { error, api_errors: apiErrors, charge } },
    } as unknown as OpenApiDocument);
    const shape = createErrorShaper(compiler, createDataGenerator({ seed: 3, compiler }), () => ({
      description: 'error',
      content: { 'application/json': { schema: error } },
    }));
    for (let i = 0; i < 5; i++) {
      const { body } = shape(new ApiError(404, 'not_found', 'no such thing'), undefined);
      expect(compiler.response(error)(body)).toEqual([]);
      expect((body as { error: object }).error).toEqual({
        type: expect.any(String),
        message: 'no such thing',
      });
    }
  });

  it('names the error by the code or type its schema lists that fits the status (ShipEngine, Stripe)', () => {
    // ShipEngine's `errors: [{error_type, error_code, message}]`, both enums; Stripe's
    // `{error: {type, message}}`. Neither lists our codes: a made-up pick said a 401 was
    // `trial_expired` and a 500 `forbidden`.
    const shipEngine: SchemaObject = {
      type: 'object',
      required: ['errors'],
      properties: {
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['error_type', 'error_code', 'message'],
            properties: {
              error_type: {
                type: 'string',
                enum: ['account_status', 'business_rules', 'validation', 'security', 'system'],
              },
              error_code: {
                type: 'string',
                enum: [
                  'carrier_conflict',
                  'forbidden',
                  'invalid_field_value',
                  'trial_expired',
                  'unauthorized',
                ],
              },
              message: { type: 'string' },
            },
          },
        },
      },
    };
    const stripe: SchemaObject = {
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['type', 'message'],
          properties: {
            type: {
              type: 'string',
              enum: ['api_connection_error', 'api_error', 'authentication_error', 'card_error'],
            },
            message: { type: 'string' },
          },
        },
      },
    };
    const compiler = createSchemaCompiler();
    const generator = createDataGenerator({ seed: 3, compiler });
    const shaperFor = (schema: SchemaObject) =>
      createErrorShaper(compiler, generator, () => ({
        description: 'error',
        content: { 'application/json': { schema } },
      }));
    const ship = shaperFor(shipEngine);
    const item = (status: number, code: string) =>
      (ship(new ApiError(status, code, 'told'), undefined).body as { errors: object[] }).errors[0];
    expect(item(401, 'missing_credential')).toEqual({
      error_type: 'security',
      error_code: 'unauthorized',
      message: 'told',
    });
    expect(item(400, 'validation_failed')).toMatchObject({
      error_type: 'validation',
      error_code: 'invalid_field_value',
    });
    expect(item(403, 'forbidden')).toMatchObject({
      error_type: 'security',
      error_code: 'forbidden',
    });
    expect(item(500, 'internal_error')).toMatchObject({ error_type: 'system' });
    // A value naming a bad key is no name for a bad body, and a key's error names a 401.
    const keyed: SchemaObject = {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: {
          type: 'string',
          enum: ['invalid_api_key', 'invalid_request', 'rate_limited', 'server_error'],
        },
        message: { type: 'string' },
      },
    };
    const key = shaperFor(keyed);
    const code = (status: number, ours: string) =>
      (key(new ApiError(status, ours, 'told'), undefined).body as { code: string }).code;
    expect(code(400, 'validation_failed')).toBe('invalid_request');
    expect(code(401, 'invalid_credential')).toBe('invalid_api_key');
    expect(code(500, 'internal_error')).toBe('server_error');
    const str = shaperFor(stripe);
    const type = (status: number, code: string) =>
      (str(new ApiError(status, code, 'told'), undefined).body as { error: { type: string } }).error
        .type;
    expect(type(401, 'missing_credential')).toBe('authentication_error');
    expect(type(500, 'internal_error')).toBe('api_error');
  });

  it('puts ours as the one item of a list of errors (Cloudflare, JSON:API), not a made-up message', () => {
    const messages: SchemaObject = {
      type: 'array',
      items: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'integer', minimum: 1000 }, message: { type: 'string' } },
      },
    };
    const envelope: SchemaObject = {
      type: 'object',
      required: ['errors', 'messages', 'result', 'success'],
      properties: {
        // As Cloudflare writes it: the list through an allOf part.
        errors: { allOf: [messages], minLength: 1 },
        messages,
        result: { type: ['object', 'null'] },
        success: { type: 'boolean', enum: [false] },
      },
    };
    const compiler = createSchemaCompiler({
      openapi: '3.1.0',
      components: { schemas: { envelope, messages } },
    } as unknown as OpenApiDocument);
    const shape = createErrorShaper(compiler, createDataGenerator({ seed: 3, compiler }), () => ({
      description: 'error',
      content: { 'application/json': { schema: envelope } },
    }));
    for (let i = 0; i < 5; i++) {
      const { body } = shape(new ApiError(404, 'not_found', 'no such thing'), undefined);
      expect(compiler.response(envelope)(body)).toEqual([]);
      const { errors, success } = body as {
        errors: { code: number; message: string }[];
        success: boolean;
      };
      expect(success).toBe(false);
      // The code where ours cannot go (an integer from 1000) is the sample's.
      expect(errors).toEqual([{ code: expect.any(Number), message: 'no such thing' }]);
    }
  });

  it("puts ours into a JSON:API errors list whose sample is empty: its item's detail", () => {
    const item: SchemaObject = {
      type: 'object',
      properties: {
        status: { type: 'string' },
        title: { type: 'string' },
        detail: { type: 'string' },
      },
    };
    const document: SchemaObject = {
      type: 'object',
      required: ['errors'],
      properties: { errors: { type: 'array', items: item } },
    };
    const compiler = createSchemaCompiler({
      openapi: '3.1.0',
      components: { schemas: { document, item } },
    } as unknown as OpenApiDocument);
    const shape = createErrorShaper(compiler, createDataGenerator({ seed: 3, compiler }), () => ({
      description: 'error',
      content: { 'application/vnd.api+json': { schema: document } },
    }));
    const { body } = shape(new ApiError(404, 'not_found', 'no such thing'), undefined);
    expect(compiler.response(document)(body)).toEqual([]);
    expect((body as { errors: { detail: string; status: string }[] }).errors).toEqual([
      expect.objectContaining({ detail: 'no such thing', status: '404' }),
    ]);
  });
});
