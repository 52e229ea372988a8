// A record's field that two answers describe in two shapes (Cloudflare's resource groups: `scope`
// one object in the list, an array of them in the read; an owner's id in a summary, the owner in
// the detail). The mock keeps one record; each answer shows the field in its own shape, and every
// other field exactly as stored (issue 28).
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpec, type SchemaObject } from '../src/openapi/load.js';
import { fieldsInTwoShapes } from '../src/openapi/record-schema.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import { ADMIN_SPEC_PATH } from '../src/openapi/bundled.js';
import { createApp } from '../src/wiring/create-app.js';
import { AUTH, KEY, specFileOf } from './helpers.js';
import { IN_PROCESS_ORIGIN, inProcessMock, type InProcessMock } from './in-process.js';

const mocks: InProcessMock[] = [];
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
});

/** What a test asks: a base URL, and the fetch that answers it. */
type Asked = Pick<InProcessMock, 'url' | 'fetch'>;

const json = (schema: object) => ({ 'application/json': { schema } });
const ok = (schema: object) => ({ description: 'ok', content: json(schema) });
const idInPath = { name: 'groupId', in: 'path', required: true, schema: { type: 'string' } };

const SCOPE = {
  type: 'object',
  properties: {
    key: { type: 'string', example: 'com.example.account' },
    objects: { type: 'array', items: { type: 'string' } },
  },
  required: ['key', 'objects'],
  additionalProperties: false,
};

/** Groups: listed with `scope` one object, read (and created) with an array of them. */
const GROUPS = {
  openapi: '3.0.3',
  info: { title: 'groups', version: '1' },
  paths: {
    '/groups': {
      get: {
        operationId: 'listGroups',
        responses: {
          '200': ok({
            type: 'array',
            items: {
              type: 'object',
              properties: {
                id: { type: 'string', readOnly: true },
                name: { type: 'string' },
                scope: SCOPE,
              },
              required: ['id', 'name', 'scope'],
            },
          }),
        },
      },
      post: {
        operationId: 'createGroup',
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            properties: { name: { type: 'string' }, scope: { type: 'array', items: SCOPE } },
            required: ['name', 'scope'],
          }),
        },
        responses: { '201': ok({ $ref: '#/components/schemas/Group' }) },
      },
    },
    '/groups/{groupId}': {
      get: {
        operationId: 'readGroup',
        parameters: [idInPath],
        responses: { '200': ok({ $ref: '#/components/schemas/Group' }) },
      },
    },
  },
  components: {
    schemas: {
      Group: {
        type: 'object',
        properties: {
          id: { type: 'string', readOnly: true },
          name: { type: 'string' },
          scope: { type: 'array', items: SCOPE, minItems: 1 },
        },
        required: ['id', 'name', 'scope'],
      },
    },
  },
};

const OWNER = {
  type: 'object',
  properties: { id: { type: 'string' }, login: { type: 'string', minLength: 3 } },
  required: ['id', 'login'],
};

/** Repositories: listed in a wrapper with their owner's id, read with the owner embedded. */
const REPOS = {
  openapi: '3.0.3',
  info: { title: 'repos', version: '1' },
  paths: {
    '/repos': {
      get: {
        operationId: 'listRepos',
        responses: {
          '200': ok({
            type: 'object',
            properties: {
              data: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    id: { type: 'string', readOnly: true },
                    title: { type: 'string' },
                    owner: { type: 'string', nullable: true },
                    duration: { type: 'number' },
                  },
                  required: ['id', 'owner'],
                },
              },
              total: { type: 'integer' },
            },
            required: ['data'],
          }),
        },
      },
    },
    '/repos/{groupId}': {
      get: {
        operationId: 'readRepo',
        parameters: [idInPath],
        responses: {
          '200': ok({
            type: 'object',
            properties: {
              id: { type: 'string', readOnly: true },
              title: { type: 'string' },
              owner: { ...OWNER, nullable: true },
              duration: { type: 'string' },
            },
            required: ['id', 'owner'],
          }),
        },
      },
    },
  },
};

async function seeded(spec: object): Promise<InProcessMock> {
  const mock = await inProcessMock({ spec: await specFileOf(spec), seed: 1, seedCount: 4 });
  mocks.push(mock);
  return mock;
}

/** A mock over a store that holds these records and no other (the collection named by its path). */
async function holding(
  spec: object,
  collection: string,
  records: Record<string, unknown>[],
  seed?: number,
): Promise<Asked> {
  const store = createMemoryStore({ initial: { [collection]: records } });
  const app = createApp({
    spec: await loadSpec(await specFileOf(spec)),
    adminSpec: await loadSpec(ADMIN_SPEC_PATH),
    apiKeys: [KEY],
    store,
    ...(seed === undefined ? {} : { seed }),
  });
  return {
    url: IN_PROCESS_ORIGIN,
    fetch: (input, init) => app.mock.fetch(new Request(input, init)),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, read by the tests
type Body = any;

async function get(mock: Asked, path: string): Promise<{ status: number; body: Body }> {
  const res = await mock.fetch(`${mock.url}${path}`, { headers: AUTH });
  return { status: res.status, body: (await res.json()) as Body };
}

describe('a field two answers describe in two shapes', () => {
  it('an object in the list and an array of them in the read: both answer 200 in their own shape, the same on every read', async () => {
    const mock = await seeded(GROUPS);
    const list = await get(mock, '/groups');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body).toHaveLength(4);
    for (const group of list.body as Body[]) {
      expect(Array.isArray(group.scope)).toBe(false);
      expect(typeof group.scope.key).toBe('string');
      const read = await get(mock, `/groups/${group.id}`);
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect(Array.isArray(read.body.scope)).toBe(true);
      expect(read.body.scope.length).toBeGreaterThan(0);
      // Every other field as the list shows it: only the field in two shapes is reshaped.
      expect({ ...read.body, scope: undefined }).toEqual({ ...group, scope: undefined });
      expect(await get(mock, `/groups/${group.id}`)).toEqual(read);
    }
  });

  it('a stored object is read as the array of it, a stored array listed as its first item', async () => {
    const scope = { key: 'com.example.a', objects: ['x'] };
    const other = { key: 'com.example.b', objects: [] };
    const held = await holding(GROUPS, 'groups', [
      { id: 'g1', name: 'one', scope },
      { id: 'g2', name: 'two', scope: [other, scope] },
    ]);
    expect((await get(held, '/groups/g1')).body).toEqual({
      id: 'g1',
      name: 'one',
      scope: [scope],
    });
    expect((await get(held, '/groups/g2')).body).toEqual({
      id: 'g2',
      name: 'two',
      scope: [other, scope],
    });
    expect(await get(held, '/groups')).toEqual({
      status: 200,
      body: [
        { id: 'g1', name: 'one', scope },
        { id: 'g2', name: 'two', scope: other },
      ],
    });
  });

  it('a create that sets the field keeps what the client sent, and the list shows it in its shape', async () => {
    const mock = await seeded(GROUPS);
    const sent = {
      name: 'ops',
      scope: [
        { key: 'com.example.ops', objects: ['zone-1', 'zone-2'] },
        { key: 'com.example.dev', objects: [] },
      ],
    };
    const res = await mock.fetch(`${mock.url}/groups`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(sent),
    });
    const created = (await res.json()) as Body;
    expect(res.status, JSON.stringify(created)).toBe(201);
    expect(created).toMatchObject(sent);
    const read = await get(mock, `/groups/${created.id}`);
    expect(read).toEqual({ status: 200, body: created });
    const list = await get(mock, '/groups');
    expect(list.status).toBe(200);
    expect((list.body as Body[]).find((group) => group.id === created.id)).toEqual({
      ...created,
      scope: sent.scope[0],
    });
  });

  it("an owner's id in the list and the owner in the read: each shows its own, seeded or stored", async () => {
    const mock = await seeded(REPOS);
    const list = await get(mock, '/repos');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    for (const repo of list.body.data as Body[]) {
      expect(repo.owner === null || typeof repo.owner === 'string').toBe(true);
      const read = await get(mock, `/repos/${repo.id}`);
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect(read.body.owner === null || typeof read.body.owner.login === 'string').toBe(true);
      expect(await get(mock, `/repos/${repo.id}`)).toEqual(read);
    }
    const held = await holding(REPOS, 'repos', [
      { id: 'r1', title: 'kit', owner: 'u-17', duration: 90 },
      { id: 'r2', title: 'pet', owner: { id: 'u-3', login: 'ada' } },
    ]);
    const first = await get(held, '/repos/r1');
    expect(first.status).toBe(200);
    expect(first.body.owner.id).toBe('u-17');
    expect(first.body.owner.login.length).toBeGreaterThanOrEqual(3);
    // A number in the list, a text in the read: the same value in each.
    expect(first.body.duration).toBe('90');
    expect(await get(held, '/repos/r1')).toEqual(first);
    // The owner made for the read is the same in another mock holding the same record.
    const replica = await holding(REPOS, 'repos', [
      { id: 'r1', title: 'kit', owner: 'u-17', duration: 90 },
    ]);
    expect(await get(replica, '/repos/r1')).toEqual(first);
    // Another seed (`--seed`) makes other data, here as everywhere else.
    const reseeded = await holding(
      REPOS,
      'repos',
      [{ id: 'r1', title: 'kit', owner: 'u-17', duration: 90 }],
      99,
    );
    const other = await get(reseeded, '/repos/r1');
    expect(other.body.owner.id).toBe('u-17');
    expect(other.body.owner.login).not.toBe(first.body.owner.login);
    expect((await get(held, '/repos/r2')).body.owner).toEqual({ id: 'u-3', login: 'ada' });
    const listed = await get(held, '/repos');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      { id: 'r1', title: 'kit', owner: 'u-17', duration: 90 },
      { id: 'r2', title: 'pet', owner: 'u-3' },
    ]);
  });

  it('a misfit of a field not in two shapes is still a broken record: the named 500', async () => {
    const held = await holding(GROUPS, 'groups', [
      { id: 'g1', name: 42, scope: { key: 'com.example.a', objects: [] } },
    ]);
    for (const path of ['/groups/g1', '/groups']) {
      const answer = await get(held, path);
      expect(answer.status).toBe(500);
      expect(answer.body.code).toBe('invalid_response');
      expect(answer.body.message).toContain('name');
    }
  });
});

describe('which fields are in two shapes', () => {
  const of = (...shapes: object[]) =>
    fieldsInTwoShapes(shapes.map((field) => ({ properties: { field } }) as SchemaObject));

  it('those whose definitions admit no type in common, null aside', () => {
    expect(of({ type: 'object' }, { type: 'array' })).toEqual(new Set(['field']));
    expect(of({ type: 'string', nullable: true }, { type: 'object', nullable: true })).toEqual(
      new Set(['field']),
    );
    expect(of({ type: 'string' }, { allOf: [{ type: 'object' }] })).toEqual(new Set(['field']));
  });

  it('not those a value fits at once, or that say no type', () => {
    expect(of({ type: 'integer' }, { type: 'number' })).toEqual(new Set());
    expect(of({ oneOf: [{ type: 'string' }, { type: 'object' }] }, { type: 'object' })).toEqual(
      new Set(),
    );
    expect(of({ type: 'object' }, { description: 'anything' })).toEqual(new Set());
    expect(of({ type: 'string', enum: ['a'] }, { type: 'string', enum: ['b'] })).toEqual(new Set());
  });
});
