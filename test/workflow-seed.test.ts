// `seedWorkflows` (`--seed-workflow file#id`): the mock starts from the state workflows made,
// and every reset and every new session starts from it again.
import { afterAll, describe, expect, it } from 'vitest';
import { KEY } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';

const SPEC = 'test/fixtures/workflows/tasks.openapi.yaml';
const running: InProcessMock[] = [];

afterAll(async () => {
  for (const mock of running) await mock.close();
});

async function titles(mock: InProcessMock, session?: string): Promise<string[]> {
  const response = await mock.fetch(`${mock.url}/tasks`, {
    headers: { 'x-api-key': KEY, ...(session ? { 'mock-session': session } : {}) },
  });
  return ((await response.json()) as { title: string }[]).map((task) => task.title);
}

describe('seedWorkflows', () => {
  it('starts from the state the workflow made, again after a reset and in a new session', async () => {
    const mock = await inProcessMock({
      spec: SPEC,
      apiKeys: [KEY],
      seedCount: 0,
      port: 0,
      seedWorkflows: ['test/fixtures/workflows/seed.arazzo.yaml#one-done-one-open'],
    });
    running.push(mock);
    expect(await titles(mock)).toEqual(['Water the plants', 'Buy milk']);
    await mock.fetch(`${mock.url}/tasks`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Call mum' }),
    });
    expect(await titles(mock)).toHaveLength(3);
    await mock.reset();
    expect(await titles(mock)).toEqual(['Water the plants', 'Buy milk']);
    expect(await titles(mock, 'alice')).toEqual(['Water the plants', 'Buy milk']);
  });

  it('refuses to start when a seed workflow fails, in one line', async () => {
    await expect(
      inProcessMock({
        spec: SPEC,
        apiKeys: [KEY],
        port: 0,
        seedWorkflows: ['test/fixtures/workflows/seed.arazzo.yaml#nope'],
      }),
    ).rejects.toThrow(
      'seed workflow test/fixtures/workflows/seed.arazzo.yaml#nope: the document has no workflow "nope" (it has: one-done-one-open)',
    );
  });
});
