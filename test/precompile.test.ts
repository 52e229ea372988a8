// A document too large to check whole at start-up (over 128 KiB) is compiled, its example
// answers made and its collections seeded in the background once the mock is idle, so that
// the first call of an operation finds them ready (issue 28: first calls on large documents).
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startMock, type RunningMock } from '../src/index.js';
import { largeDocument, QUICK_SHUTDOWN, startMockPrecompiling } from './helpers.js';

const started: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

const BROKEN_EXAMPLE = /^the example of the 200 answer of getBroken breaks its schema/;

describe('a large document, left idle after start-up', () => {
  it('has its operations checked and its collections seeded before any call', async () => {
    const large = await startMockPrecompiling({
      ...QUICK_SHUTDOWN,
      spec: await largeDocument(),
      seedCount: 3,
    });
    started.push(large);
    // No request at all: the defect is heard of, and the records are made, ahead.
    await vi.waitFor(
      async () => {
        expect(large.mock.warnings).toEqual([expect.stringMatching(BROKEN_EXAMPLE)]);
        expect(await large.mock.store.count()).toBe(3);
      },
      { timeout: 60_000, interval: 100 },
    );
    // The first calls find them ready, and answer as a lazily checked mock does.
    const list = await fetch(`${large.url}/items`);
    expect(list.status).toBe(200);
    expect(await list.json()).toHaveLength(3);
    expect(large.mock.warnings).toHaveLength(1);
  }, 90_000);

  it('does nothing ahead with precompile: false', async () => {
    const spec = await largeDocument();
    // One after the other: the fake clock of the first start is the process's while it lasts.
    const left = await startMock({ spec, seedCount: 3, precompile: false });
    const precompiling = await startMockPrecompiling({ ...QUICK_SHUTDOWN, spec, seedCount: 3 });
    started.push(precompiling, left);
    // By the time the other mock's precompiling is done, this one has done none.
    await vi.waitFor(async () => expect(await precompiling.mock.store.count()).toBe(3), {
      timeout: 60_000,
      interval: 100,
    });
    expect(left.mock.warnings).toEqual([]);
    expect(await left.mock.store.count()).toBe(0);
  }, 90_000);

  it('compiles ahead the named schemas answers reach, and leaves those only a webhook names', async () => {
    // Two named schemas ajv cannot compile: its warning tells which ones were compiled ahead.
    const file = await largeDocument();
    const document = JSON.parse(await readFile(file, 'utf8')) as {
      paths: Record<string, unknown>;
      webhooks?: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    const broken = { type: 'object', properties: { size: { type: 'nonsense' } } };
    const body = (name: string) => ({
      content: {
        'application/json': {
          schema: { type: 'array', items: { $ref: `#/components/schemas/${name}` } },
        },
      },
    });
    document.components.schemas.Tag = broken;
    document.components.schemas.Hook = broken;
    document.paths['/tags'] = {
      get: {
        operationId: 'listTags',
        responses: { '200': { description: 'Every tag.', ...body('Tag') } },
      },
    };
    document.webhooks = {
      tagMade: {
        post: {
          requestBody: body('Hook'),
          responses: { '200': { description: 'Taken.' } },
        },
      },
    };
    await writeFile(file, JSON.stringify(document));
    const large = await startMockPrecompiling({ ...QUICK_SHUTDOWN, spec: file, seedCount: 3 });
    started.push(large);
    const report = await large.mock.precompiling?.done;
    expect(report?.stopped).toBe(false);
    // Told once, by precompiling (no request came): Tag compiled ahead, Hook left for its use.
    expect(large.mock.warnings.filter((line) => line.includes('cannot be compiled'))).toEqual([
      expect.stringContaining('#/components/schemas/Tag'),
    ]);
  }, 90_000);
});
