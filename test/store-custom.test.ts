// A store of the user's own that implements only the records (Store): the mock gives it the
// rest of the state backend in this process (withLocalSideData), as docs/team-mock.md says.
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../src/store/memory-store.js';
import type { Store } from '../src/store/store.js';
import { AUTH, KEY } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';

const started: InProcessMock[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

/** What a user's store may be: the five methods of Store, nothing more. */
function recordsOnly(): Store {
  const inner = createMemoryStore();
  return {
    collection: (descriptor) => inner.collection(descriptor),
    count: () => inner.count(),
    markInitial: () => inner.markInitial(),
    reset: () => inner.reset(),
    close: () => inner.close(),
  };
}

describe('a custom store that implements only the records', () => {
  it('serves records, keeps the settings and the request log, and refuses sessions with 501', async () => {
    const mock = await inProcessMock({ apiKeys: [KEY], store: recordsOnly() });
    started.push(mock);
    const admin = mock.url.replace(/\/v1$/, '/__mock');
    const created = await mock.fetch(`${mock.url}/categories`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Birds' }),
    });
    expect(created.status).toBe(201);
    const set = await mock.fetch(`${admin}/settings`, {
      method: 'PATCH',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ delay: { min: 1, max: 1 } }),
    });
    expect(set.status).toBe(200);
    const settings = (await (await mock.fetch(`${admin}/settings`, { headers: AUTH })).json()) as {
      delay: unknown;
    };
    expect(settings.delay).toEqual({ min: 1, max: 1 });
    const log = (await (await mock.fetch(`${admin}/requests`, { headers: AUTH })).json()) as {
      requests: { method: string; path: string }[];
    };
    expect(log.requests.map(({ method, path }) => `${method} ${path}`)).toContain(
      'POST /v1/categories',
    );
    const session = await mock.fetch(`${mock.url}/categories`, {
      headers: { ...AUTH, 'Mock-Session': 'alice' },
    });
    expect(session.status).toBe(501);
    expect(((await session.json()) as { code: string }).code).toBe('not_implemented');
  });
});
