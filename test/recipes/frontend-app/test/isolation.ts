// Not in docs/recipes.md: the proof that its Vitest recipe isolates test files running at once.
import { expect, test } from 'vitest';
import { barrier } from '../e2e/barrier.ts';
import { createApi } from '../src/api/client.ts';
import { apiKey, mockUrl, session } from './mock.ts';

export function isolatedFile(name: string): void {
  const api = createApi(mockUrl, apiKey, session);

  test(`${name}: creates while another file creates, and sees only its own`, async () => {
    const created = await api.createCategory({ name });
    expect(created.id).toBe(11);
    await barrier('vitest-created', name, 2);
    const listed = await api.listCategories();
    expect(listed).toHaveLength(11);
    expect(listed.at(-1)).toEqual(created);
    // The barrier's own 20 s bound decides, not Vitest's 5 s default: on a busy machine the
    // other file's worker may start seconds later.
  }, 30_000);

  test(`${name}: the next test starts from the start-up data`, async () => {
    expect(await api.listCategories()).toHaveLength(10);
  });
}
