// The extension point: one operation answered by code, by operationId, while everything else
// stays inferred from the spec; custom answers are checked against the spec like any other.
import { afterEach, describe, expect, it } from 'vitest';
import type { MockOptions } from '../src/wiring/options.js';
import { AUTH, CATEGORIES, KEY } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';

const started: InProcessMock[] = [];

async function mock(handlers: MockOptions['handlers']): Promise<InProcessMock> {
  const running = await inProcessMock({ apiKeys: [KEY], seedCount: 2, handlers });
  started.push(running);
  return running;
}

async function call(running: InProcessMock, path: string, init: RequestInit = {}) {
  const res = await running.fetch(`${running.url}${path}`, {
    ...init,
    headers: { ...AUTH, 'Content-Type': 'application/json', ...init.headers },
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((running) => running.close()));
});

describe('handlers: { [operationId]: (request, context) => answer }', () => {
  it('answers that operation with the handler, and leaves the others inferred', async () => {
    const running = await mock({
      getPetById: ({ params }) => ({
        status: 200,
        body: { id: 7, name: `Pet ${String(params.petId)}` },
      }),
    });
    expect(await call(running, '/pets/7')).toMatchObject({
      status: 200,
      body: { id: 7, name: 'Pet 7' },
    });
    const list = await call(running, '/categories');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
  });

  it('checks its answer against the spec: one that breaks it is a 500 naming the problem', async () => {
    const running = await mock({
      listCategories: () => ({ status: 200, body: [{ id: 'one', name: 7 }] }),
    });
    const { status, body } = await call(running, '/categories');
    expect(status).toBe(500);
    expect(body).toMatchObject({ code: 'invalid_response', status: 500 });
    expect((body as { message: string }).message).toMatch(/\/response\/0\/id must be an integer/);
  });

  it('gets the request checked and typed, and the inferred answer through next()', async () => {
    const seen: unknown[] = [];
    const running = await mock({
      createCategory: async (request, { next }) => {
        seen.push(request.body);
        const answer = await next();
        return { ...answer, headers: { ...answer.headers, 'X-Made-By': 'custom' } };
      },
    });
    const bad = await call(running, '/categories', { method: 'POST', body: '{}' });
    expect(bad.status).toBe(400);
    expect(seen).toEqual([]);

    const made = await call(running, '/categories', {
      method: 'POST',
      body: JSON.stringify({ name: 'Ferret' }),
    });
    expect(made).toMatchObject({ status: 201, body: { id: 3, name: 'Ferret' } });
    expect(made.headers.get('x-made-by')).toBe('custom');
    expect(seen).toEqual([{ name: 'Ferret' }]);
    expect(await call(running, '/categories')).toMatchObject({
      body: expect.arrayContaining([{ id: 3, name: 'Ferret' }]),
    });
  });

  it('reaches the mock state through the context', async () => {
    const running = await mock({
      getPetById: async ({ params }, { store }) => {
        const category = await store.collection(CATEGORIES).get(Number(params.petId));
        return { status: 200, body: { id: Number(params.petId), name: String(category?.name) } };
      },
    });
    const first = (await call(running, '/categories')).body as { id: number; name: string }[];
    expect(await call(running, `/pets/${first[0]!.id}`)).toMatchObject({
      status: 200,
      body: { name: first[0]!.name },
    });
  });

  it('refuses, at start-up, a handler for an operation the spec lacks', async () => {
    // An option's error, as any other: not a defect of the spec.
    await expect(mock({ listDogs: () => ({ status: 200 }) })).rejects.toMatchObject({
      name: 'StartupError',
      code: 'invalid_option',
    });
    await expect(mock({ listDogs: () => ({ status: 200 }) })).rejects.toThrow(
      /no operation "listDogs".*listCategories/,
    );
  });
});
