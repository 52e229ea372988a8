// Records made under a parent (`POST /owners/7/pets`) are counted by the admin API and shown by
// the inspector, in total and per parent (issue 47, item 9: they showed as 0 records).
import { beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../src/core/create-mock.js';
import { ADMIN_SPEC_PATH } from '../src/openapi/bundled.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp } from '../src/wiring/create-app.js';
import { AUTH, KEY, specFileOf } from './helpers.js';

const record = (required: string[], properties: Record<string, object>) => ({
  type: 'object',
  required,
  properties,
});
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const idParameter = (name: string, schema: object) => ({
  name,
  in: 'path',
  required: true,
  schema,
});

const spec = {
  openapi: '3.1.0',
  info: { title: 'Owners and pets', version: '1' },
  servers: [{ url: '/v1' }],
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Owner: record(['id', 'name'], {
        id: { type: 'integer', readOnly: true },
        name: { type: 'string' },
      }),
      Pet: record(['id', 'name'], {
        id: { type: 'string', format: 'uuid', readOnly: true },
        name: { type: 'string' },
      }),
    },
  },
  security: [{ bearer: [] }],
  paths: {
    '/owners': {
      post: {
        operationId: 'createOwner',
        requestBody: { required: true, ...json({ $ref: '#/components/schemas/Owner' }) },
        responses: {
          '201': { description: 'made', ...json({ $ref: '#/components/schemas/Owner' }) },
        },
      },
    },
    '/owners/{ownerId}': {
      parameters: [idParameter('ownerId', { type: 'integer' })],
      get: {
        operationId: 'getOwner',
        responses: {
          '200': { description: 'one', ...json({ $ref: '#/components/schemas/Owner' }) },
        },
      },
    },
    '/owners/{ownerId}/pets': {
      parameters: [idParameter('ownerId', { type: 'integer' })],
      get: {
        operationId: 'listPets',
        responses: {
          '200': {
            description: 'the pets',
            ...json({ type: 'array', items: { $ref: '#/components/schemas/Pet' } }),
          },
        },
      },
      post: {
        operationId: 'createPet',
        requestBody: { required: true, ...json({ $ref: '#/components/schemas/Pet' }) },
        responses: {
          '201': { description: 'made', ...json({ $ref: '#/components/schemas/Pet' }) },
        },
      },
    },
  },
};

let mock: Mock;

beforeEach(async () => {
  const [loaded, adminSpec] = await Promise.all([
    loadSpec(await specFileOf(spec)),
    loadSpec(ADMIN_SPEC_PATH),
  ]);
  mock = createApp({ spec: loaded, adminSpec, apiKeys: [KEY], seedCount: 0 }).mock;
});

async function call(method: string, path: string, body?: object): Promise<Response> {
  return mock.fetch(
    new Request(`http://mock.test${path}`, {
      method,
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
  );
}

async function made(path: string, body: object): Promise<{ id: unknown }> {
  const res = await call('POST', path, body);
  expect(res.status).toBe(201);
  return (await res.json()) as { id: unknown };
}

describe('nested collections in the admin API', () => {
  it('counts the records made under each parent, in total and per parent', async () => {
    const alice = await made('/v1/owners', { name: 'Alice' });
    const bob = await made('/v1/owners', { name: 'Bob' });
    await made(`/v1/owners/${String(alice.id)}/pets`, { name: 'Rex' });
    await made(`/v1/owners/${String(alice.id)}/pets`, { name: 'Tom' });
    await made(`/v1/owners/${String(bob.id)}/pets`, { name: 'Kit' });

    const res = await call('GET', '/__mock/collections');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      collections: [
        { name: 'owners', path: '/v1/owners', count: 2 },
        {
          name: 'owners/{ownerId}/pets',
          path: '/v1/owners/{ownerId}/pets',
          count: 3,
          parents: [
            { path: `/v1/owners/${String(alice.id)}/pets`, count: 2 },
            { path: `/v1/owners/${String(bob.id)}/pets`, count: 1 },
          ],
        },
      ],
    });
  });

  it('lists the records of every parent, newest first, as the inspector opens them', async () => {
    const alice = await made('/v1/owners', { name: 'Alice' });
    const bob = await made('/v1/owners', { name: 'Bob' });
    await made(`/v1/owners/${String(alice.id)}/pets`, { name: 'Rex' });
    await made(`/v1/owners/${String(bob.id)}/pets`, { name: 'Kit' });

    const res = await call(
      'GET',
      `/__mock/collections/${encodeURIComponent('owners/{ownerId}/pets')}`,
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { count: number; records: { name: string }[] };
    expect(body.count).toBe(2);
    expect(body.records.map(({ name }) => name)).toEqual(['Kit', 'Rex']);
  });

  it('counts only the session the request names', async () => {
    const alice = await made('/v1/owners', { name: 'Alice' });
    await made(`/v1/owners/${String(alice.id)}/pets`, { name: 'Rex' });
    const res = await mock.fetch(
      new Request('http://mock.test/__mock/collections', {
        headers: { ...AUTH, 'Mock-Session': 'elsewhere' },
      }),
    );
    const { collections } = (await res.json()) as { collections: { count: number }[] };
    expect(collections.map(({ count }) => count)).toEqual([0, 0]);
  });
});
