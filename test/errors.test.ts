import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ApiError, errorHandler, notFound, toApiError } from '../src/http/errors.js';
import { silentLogger } from '../src/http/logger.js';
import { expectError } from './helpers.js';

function bodyParserError(type: string, status: number, extra: object = {}): Error {
  return Object.assign(new Error('parser says no'), { type, status, ...extra });
}

function validatorError(status: number, extra: object = {}): Error {
  return Object.assign(new Error('validator says no'), {
    status,
    errors: [{ path: '/body/name', message: 'must be string' }],
    ...extra,
  });
}

describe('toApiError', () => {
  it('keeps an ApiError as it is', () => {
    const err = new ApiError(418, 'teapot', 'short and stout');
    expect(toApiError(err)).toBe(err);
  });

  it.each([
    { err: bodyParserError('entity.parse.failed', 400), status: 400, code: 'malformed_json' },
    {
      err: bodyParserError('entity.too.large', 413, { limit: 10 }),
      status: 413,
      code: 'payload_too_large',
    },
    {
      err: bodyParserError('encoding.unsupported', 415),
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      err: bodyParserError('charset.unsupported', 415),
      status: 415,
      code: 'unsupported_media_type',
    },
    { err: bodyParserError('request.aborted', 400), status: 400, code: 'bad_request' },
    { err: validatorError(400), status: 400, code: 'validation_failed' },
    { err: validatorError(404), status: 404, code: 'not_found' },
    {
      err: validatorError(405, {
        message: 'DELETE method not allowed',
        headers: { Allow: 'GET, POST' },
      }),
      status: 405,
      code: 'method_not_allowed',
    },
    { err: validatorError(406), status: 406, code: 'not_acceptable' },
    { err: validatorError(415), status: 415, code: 'unsupported_media_type' },
    { err: validatorError(500), status: 500, code: 'internal_server_error' },
    { err: new Error('boom'), status: 500, code: 'internal_error' },
    { err: 'a thrown string', status: 500, code: 'internal_error' },
    { err: undefined, status: 500, code: 'internal_error' },
  ])('$code from $err', ({ err, status, code }) => {
    const mapped = toApiError(err);
    expect(mapped.status).toBe(status);
    expect(mapped.code).toBe(code);
    expect(mapped.toBody()).toEqual({ code, message: expect.any(String), status });
  });

  it('lists every validation failure in the message', () => {
    const err = Object.assign(new Error('x'), {
      status: 400,
      errors: [
        { path: '/body/name', message: 'must be string' },
        { path: '/body/description', message: 'must be string' },
      ],
    });
    expect(toApiError(err).message).toBe(
      '/body/name must be string; /body/description must be string',
    );
  });

  it('carries the Allow header and names the accepted methods on 405', () => {
    const mapped = toApiError(
      validatorError(405, {
        message: 'DELETE method not allowed',
        headers: { Allow: 'GET, POST' },
      }),
    );
    expect(mapped.headers).toEqual({ Allow: 'GET, POST' });
    expect(mapped.message).toBe('This path accepts GET, POST only');
  });

  it('does not pass on the message of an unexpected error', () => {
    expect(toApiError(new Error('secret at /srv/app.js:12')).message).not.toContain('secret');
  });
});

describe('errorHandler', () => {
  const app = express()
    .get('/throws', () => {
      throw new Error('internal detail');
    })
    .get('/api-error', () => {
      throw new ApiError(409, 'conflict', 'Already there', { 'Retry-After': '5' });
    })
    .use(notFound)
    .use(errorHandler(silentLogger()));

  it('answers an unexpected error with a 500 Error body and no detail', async () => {
    const res = await request(app).get('/throws');
    expectError(res, 500, 'internal_error');
    expect(res.text).not.toContain('internal detail');
  });

  it('answers an ApiError with its status, body and headers', async () => {
    const res = await request(app).get('/api-error');
    expectError(res, 409, 'conflict');
    expect(res.headers['retry-after']).toBe('5');
  });

  it('answers an unknown path with 404', async () => {
    expectError(await request(app).get('/nowhere'), 404, 'not_found');
  });
});
