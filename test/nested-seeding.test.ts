// A nested collection (`/channels/{channel_id}/messages`) is seeded under each parent the first
// time it is asked for there. Making its records in that request took hundreds of ms on large
// schemas (Discord's messages, 20–50 KB each), for every channel a client opened (issue 28: the
// first call of any operation within 200 ms). The records' fields are now made once per
// resource and given to every parent, each record with its own key and the parent's fields.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMock, type Mock, type MockSettings } from '../src/core/create-mock.js';
import { loadSpec } from '../src/openapi/load.js';
import { createSchemaCompiler } from '../src/openapi/schemas.js';
import { createDataGenerator } from '../src/openapi/sample.js';
import { resolveOptions } from '../src/wiring/options.js';
import { KEY } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';
import { tempFolder } from './temp-folders.js';

const spec = {
  openapi: '3.1.0',
  info: { title: 'Channels', version: '1' },
  components: {
    securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
    schemas: {
      Message: {
        type: 'object',
        required: ['id', 'channel_id', 'content', 'author'],
        properties: {
          id: { type: 'integer', readOnly: true },
          channel_id: { type: 'string', readOnly: true },
          content: { type: 'string', minLength: 1 },
          author: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' }, bot: { type: 'boolean' } },
          },
          reactions: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
  security: [{ key: [] }],
  paths: {
    '/channels/{channel_id}/messages': {
      parameters: [{ name: 'channel_id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: 'listMessages',
        responses: {
          '200': {
            description: 'the messages',
            content: {
              'application/json': {
                schema: { type: 'array', items: { $ref: '#/components/schemas/Message' } },
              },
            },
          },
        },
      },
      post: {
        operationId: 'createMessage',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Message' } } },
        },
        responses: {
          '201': {
            description: 'made',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Message' } } },
          },
        },
      },
    },
    '/channels/{channel_id}/messages/{message_id}': {
      parameters: [
        { name: 'channel_id', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'message_id', in: 'path', required: true, schema: { type: 'integer' } },
      ],
      get: {
        operationId: 'getMessage',
        responses: {
          '200': {
            description: 'one',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Message' } } },
          },
        },
      },
    },
  },
};

const mocks: InProcessMock[] = [];
afterAll(async () => {
  await Promise.all(mocks.map((mock) => mock.close()));
});

async function mockOf(seedCount: number, seed = 1): Promise<InProcessMock> {
  // The mock lives until the file's afterAll closes it.
  const folder = await tempFolder('nested', { until: 'file' });
  await writeFile(join(folder, 'openapi.json'), JSON.stringify(spec));
  const mock = await inProcessMock({
    spec: join(folder, 'openapi.json'),
    apiKeys: [KEY],
    seed,
    seedCount,
  });
  mocks.push(mock);
  return mock;
}

async function list(mock: InProcessMock, channel: string): Promise<Record<string, unknown>[]> {
  const res = await mock.fetch(`${mock.url}/channels/${channel}/messages`, {
    headers: { 'X-Api-Key': KEY },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>[];
}

/** A record without what differs by parent: its key and the parent's field. */
const content = ({ id: _id, channel_id: _channel, ...rest }: Record<string, unknown>) => rest;

describe('a nested collection seeded under each parent', () => {
  it('has the same records under every parent, each keyed and placed under its own parent', async () => {
    const mock = await mockOf(3);
    const general = await list(mock, 'general');
    const random = await list(mock, 'random');
    expect(general).toHaveLength(3);
    expect(random).toHaveLength(3);
    expect(general.map((record) => record.channel_id)).toEqual(['general', 'general', 'general']);
    expect(random.map((record) => record.channel_id)).toEqual(['random', 'random', 'random']);
    expect(random.map(content)).toEqual(general.map(content));
    // Each record is read by its key under its own parent.
    for (const [channel, records] of [
      ['general', general],
      ['random', random],
    ] as const)
      for (const record of records) {
        const res = await mock.fetch(
          `${mock.url}/channels/${channel}/messages/${String(record.id)}`,
          {
            headers: { 'X-Api-Key': KEY },
          },
        );
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual(record);
      }
  });

  it('draws them from the seed: the same seed gives the same records, another seed others', async () => {
    const [one, again, other] = await Promise.all([mockOf(2, 5), mockOf(2, 5), mockOf(2, 6)]);
    const seeded = await list(one, 'c1');
    expect(await list(again, 'c1')).toEqual(seeded);
    expect((await list(other, 'c1')).map(content)).not.toEqual(seeded.map(content));
  });

  it('keeps a parent’s writes to itself', async () => {
    const mock = await mockOf(2);
    const made = await mock.fetch(`${mock.url}/channels/general/messages`, {
      method: 'POST',
      headers: { 'X-Api-Key': KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'hello', author: { name: 'Ada' } }),
    });
    expect(made.status).toBe(201);
    expect(await list(mock, 'general')).toHaveLength(3);
    expect(await list(mock, 'random')).toHaveLength(2);
  });
});

describe('a nested collection asked for by two first requests at once', () => {
  const settings: MockSettings = resolveOptions({
    apiKeys: [KEY],
    seed: 1,
    seedCount: 3,
    faultTimeoutSeconds: 1,
    maxSessions: 10,
    sessionTtlSeconds: 60,
    stability: 'experimental',
  });
  const listed = async (mock: Mock, channel: string) => {
    const res = await mock.fetch(
      new Request(`http://mock.test/channels/${channel}/messages`, {
        headers: { 'X-Api-Key': KEY },
      }),
    );
    return { status: res.status, records: ((await res.json()) as unknown[]).length };
  };

  it('is seeded once, on one mock or on the next of a --watch reload, which takes its state over', async () => {
    const folder = await tempFolder('nested');
    await writeFile(join(folder, 'openapi.json'), JSON.stringify(spec));
    const loaded = await loadSpec(join(folder, 'openapi.json'));
    const first = createMock(loaded, settings);
    await first.seed({ count: 3, seed: 1 });
    const next = createMock(loaded, settings, { carriedFrom: first });
    const three = { status: 200, records: 3 };
    for (const channel of ['general', 'random'])
      expect(
        await Promise.all([first, next, next, first].map((mock) => listed(mock, channel))),
      ).toEqual([three, three, three, three]);
    expect(await listed(next, 'general')).toEqual(three);
    expect(await listed(first, 'random')).toEqual(three);
  });
});

describe('a generator of another seed', () => {
  it('makes the values a generator made with that seed makes, sharing the trees', async () => {
    const loaded = await loadSpec(await writeSpec());
    const schema = (loaded.resolved.components?.schemas as Record<string, object>).Message as never;
    const compiler = createSchemaCompiler(loaded.resolved);
    const first = createDataGenerator({ seed: 1, compiler });
    first.value(schema);
    for (const seed of [2, 3, 99])
      expect(first.withSeed(seed).value(schema)).toEqual(
        createDataGenerator({ seed, compiler }).value(schema),
      );
  });
});

async function writeSpec(): Promise<string> {
  const folder = await tempFolder('nested');
  await writeFile(join(folder, 'openapi.json'), JSON.stringify(spec));
  return join(folder, 'openapi.json');
}
