// An operation of a collection whose answer is described by a schema other than the record's:
// the mock answered the record as it is, and its own answer check turned that into a 500
// (Resend's revoke answers `revoked_at` a string where the grant keeps null; gr4vy's session
// create answers one of two closed session shapes, not the body it was sent).
import { beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../src/core/create-mock.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp } from '../src/wiring/create-app.js';
import { AUTH, KEY, specFileOf } from './helpers.js';

const GRANT = {
  type: 'object',
  required: ['id'],
  properties: {
    id: { type: 'string' },
    client_id: { type: 'string' },
    revoked_at: { type: ['string', 'null'], format: 'date-time' },
  },
};

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Another shape', version: '1' },
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  security: [{ bearer: [] }],
  paths: {
    '/grants': {
      get: {
        responses: {
          '200': {
            description: 'The grants',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { data: { type: 'array', items: GRANT } },
                },
              },
            },
          },
        },
      },
      post: {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  client_id: { type: 'string' },
                  revoked_at: { type: ['string', 'null'], format: 'date-time' },
                },
              },
            },
          },
        },
        responses: {
          '201': { description: 'Made', content: { 'application/json': { schema: GRANT } } },
        },
      },
    },
    '/grants/{grant_id}': {
      parameters: [{ name: 'grant_id', in: 'path', required: true, schema: { type: 'string' } }],
      delete: {
        responses: {
          '200': {
            description: 'Revoked',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    id: { type: 'string' },
                    revoked_at: { type: 'string', format: 'date-time' },
                  },
                },
              },
            },
          },
        },
      },
    },
    '/sessions/{session_id}': {
      get: {
        parameters: [
          { name: 'session_id', in: 'path', required: true, schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'A session as kept',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'source'],
                  properties: {
                    id: { type: 'string' },
                    source: { type: 'string', enum: ['web', 'mobile'] },
                  },
                },
              },
            },
          },
        },
      },
    },
    '/sessions': {
      post: {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['source'],
                properties: { source: { type: 'string', enum: ['web', 'mobile'] } },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'A session',
            content: {
              'application/json': {
                schema: {
                  anyOf: [
                    {
                      type: 'object',
                      additionalProperties: false,
                      required: ['token'],
                      properties: { token: { type: 'string' } },
                    },
                    {
                      type: 'object',
                      additionalProperties: false,
                      required: ['sessionId'],
                      properties: { sessionId: { type: 'string' } },
                    },
                  ],
                },
              },
            },
          },
        },
      },
    },
  },
};

let mock: Mock;

beforeEach(async () => {
  mock = createApp({
    spec: await loadSpec(await specFileOf(SPEC)),
    apiKeys: [KEY],
    seedCount: 0,
  }).mock;
});

function call(method: string, path: string, body?: object): Promise<Response> {
  return mock.fetch(
    new Request(`http://mock.test${path}`, {
      method,
      headers: { ...AUTH, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
  );
}

describe('an answer whose schema is not the record’s', () => {
  it('shows the record’s fields that fit it, and makes the ones that do not', async () => {
    const made = await call('POST', '/grants', { client_id: 'c-1', revoked_at: null });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const revoked = await call('DELETE', `/grants/${id}`);
    expect(revoked.status).toBe(200);
    const body = (await revoked.json()) as { id: string; revoked_at: unknown };
    expect(body.id).toBe(id);
    expect(typeof body.revoked_at).toBe('string');
    expect((await call('GET', '/grants')).status).toBe(200);
  });

  it('answers a create described by closed shapes with one of them, not the body it was sent', async () => {
    const res = await call('POST', '/sessions', { source: 'web' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).not.toHaveProperty('source');
    expect('token' in body || 'sessionId' in body).toBe(true);
  });
});
