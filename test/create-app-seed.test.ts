// createApp, the mock in process, starts with the seed data startMock's has: `seedCount` records
// per collection (10 unless told), and a reset returns to them (issue 47: it started empty).
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp } from '../src/wiring/create-app.js';
import { KEY, AUTH } from './helpers.js';

async function categories(app: ReturnType<typeof createApp>): Promise<unknown[]> {
  const answer = await app.mock.fetch(
    new Request('http://mock.test/v1/categories', { headers: AUTH }),
  );
  expect(answer.status).toBe(200);
  return (await answer.json()) as unknown[];
}

describe('createApp’s seed data', () => {
  it('holds seedCount records per collection from the first request', async () => {
    const app = createApp({ spec: await loadSpec(), apiKeys: [KEY], seedCount: 3 });
    expect(await categories(app)).toHaveLength(3);
  });

  it('holds the default 10 without seedCount, the same records from the same seed', async () => {
    const spec = await loadSpec();
    const first = await categories(createApp({ spec, apiKeys: [KEY], seed: 7 }));
    expect(first).toHaveLength(10);
    expect(await categories(createApp({ spec, apiKeys: [KEY], seed: 7 }))).toEqual(first);
  });

  it('returns to the seed data on reset, and holds none with seedCount 0', async () => {
    const app = createApp({ spec: await loadSpec(), apiKeys: [KEY], seedCount: 2 });
    const created = await app.mock.fetch(
      new Request('http://mock.test/v1/categories', {
        method: 'POST',
        headers: { ...AUTH, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Birds' }),
      }),
    );
    expect(created.status).toBe(201);
    expect(await categories(app)).toHaveLength(3);
    await app.mock.reset();
    expect(await categories(app)).toHaveLength(2);
    expect(
      await categories(createApp({ spec: await loadSpec(), apiKeys: [KEY], seedCount: 0 })),
    ).toEqual([]);
  });
});
