// A document too large to check whole at start-up (over 128 KiB) is compiled, its example
// answers made and its collections seeded in the background once the mock is idle, so that
// the first call of an operation finds them ready (issue 28: first calls on large documents).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startMock, type RunningMock } from '../src/index.js';
import { EAGER_CHECK_BYTES } from '../src/wiring/create-app.js';

const started: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

/** Past EAGER_CHECK_BYTES: a collection, an operation whose example breaks its schema, padding. */
async function largeDocument(): Promise<string> {
  const item = { $ref: '#/components/schemas/Item' };
  const paths: Record<string, unknown> = {
    '/items': {
      get: {
        operationId: 'listItems',
        responses: {
          '200': {
            description: 'Every item.',
            content: { 'application/json': { schema: { type: 'array', items: item } } },
          },
        },
      },
    },
    '/broken': {
      get: {
        operationId: 'getBroken',
        responses: {
          '200': {
            description: 'An answer whose example breaks its schema.',
            content: { 'application/json': { schema: item, example: { id: 'one', name: 2 } } },
          },
        },
      },
    },
  };
  for (let i = 0; JSON.stringify(paths).length < EAGER_CHECK_BYTES * 1.2; i++)
    paths[`/pad/${i}`] = {
      get: {
        operationId: `pad${i}`,
        description: 'Padding, to make the document large. '.repeat(10),
        responses: { '204': { description: 'Nothing.' } },
      },
    };
  const path = join(await mkdtemp(join(tmpdir(), 'petstore-kit-ahead-')), 'openapi.json');
  await writeFile(
    path,
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Large', version: '1' },
      paths,
      components: {
        schemas: {
          Item: {
            type: 'object',
            required: ['id', 'name'],
            properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } },
          },
        },
      },
    }),
  );
  return path;
}

const BROKEN_EXAMPLE = /^the example of the 200 answer of getBroken breaks its schema/;

describe('a large document, left idle after start-up', () => {
  it('has its operations checked and its collections seeded before any call', async () => {
    const large = await startMock({ spec: await largeDocument(), seedCount: 3 });
    started.push(large);
    // No request at all: the defect is heard of, and the records are made, ahead.
    await vi.waitFor(
      async () => {
        expect(large.warnings).toEqual([expect.stringMatching(BROKEN_EXAMPLE)]);
        expect(await large.store.count()).toBe(3);
      },
      { timeout: 60_000, interval: 100 },
    );
    // The first calls find them ready, and answer as a lazily checked mock does.
    const list = await fetch(`${large.url}/items`);
    expect(list.status).toBe(200);
    expect(await list.json()).toHaveLength(3);
    expect(large.warnings).toHaveLength(1);
  }, 90_000);

  it('does nothing ahead with compileAhead: false', async () => {
    const spec = await largeDocument();
    const [ahead, left] = await Promise.all([
      startMock({ spec, seedCount: 3 }),
      startMock({ spec, seedCount: 3, compileAhead: false }),
    ]);
    started.push(ahead, left);
    // By the time the other mock's work ahead is done, this one has done none.
    await vi.waitFor(async () => expect(await ahead.store.count()).toBe(3), {
      timeout: 60_000,
      interval: 100,
    });
    expect(left.warnings).toEqual([]);
    expect(await left.store.count()).toBe(0);
  }, 90_000);
});
