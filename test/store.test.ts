import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../src/state/category-store.js';

describe('createMemoryStore', () => {
  it('starts empty and assigns ids from 1', () => {
    const store = createMemoryStore();
    expect(store.list()).toEqual([]);
    expect(store.create({ name: 'Dog' })).toEqual({ id: 1, name: 'Dog' });
    expect(store.create({ name: 'Cat', description: 'Cats' })).toEqual({
      id: 2,
      name: 'Cat',
      description: 'Cats',
    });
  });

  it('lists categories in creation order', () => {
    const store = createMemoryStore();
    store.create({ name: 'Dog' });
    store.create({ name: 'Cat' });
    expect(store.list().map((category) => category.name)).toEqual(['Dog', 'Cat']);
  });

  it('continues after the largest preloaded id, whatever the order', () => {
    const store = createMemoryStore([
      { id: 900, name: 'Dog' },
      { id: 7, name: 'Cat' },
    ]);
    expect(store.create({ name: 'Rabbit' }).id).toBe(901);
    expect(store.list()).toHaveLength(3);
  });

  it('never hands out the same id twice', () => {
    const store = createMemoryStore();
    const ids = Array.from({ length: 1000 }, (_, i) => store.create({ name: `Kind ${i}` }).id);
    expect(new Set(ids).size).toBe(1000);
    expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
  });

  it('keeps only the category fields of its input, and its records cannot be changed by callers', () => {
    const store = createMemoryStore();
    const created = store.create({ name: 'Dog', extra: 'x' } as never);
    expect(created).toEqual({ id: 1, name: 'Dog' });
    expect(() => {
      (created as { name: string }).name = 'Cat';
    }).toThrow(TypeError);
    expect(store.list()[0]?.name).toBe('Dog');
  });
});

describe('the store version', () => {
  it('changes on every write and on nothing else', () => {
    const store = createMemoryStore([{ id: 1, name: 'Dog' }]);
    const start = store.version;
    store.list();
    expect(store.version).toBe(start);
    store.create({ name: 'Cat' });
    const afterOne = store.version;
    expect(afterOne).not.toBe(start);
    store.create({ name: 'Rabbit' });
    expect(store.version).not.toBe(afterOne);
  });

  it('freezes preloaded records too, so their cached JSON stays true', () => {
    const store = createMemoryStore([{ id: 1, name: 'Dog' }]);
    expect(Object.isFrozen(store.list()[0])).toBe(true);
  });
});
