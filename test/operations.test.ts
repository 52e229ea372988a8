import { describe, expect, it } from 'vitest';
import { listOperations, operationFinder, requiresCredential } from '../src/spec/operations.js';
import { loadSpec } from '../src/spec/load.js';

describe('listOperations', () => {
  it('lists every operation of the spec with its success status and security', async () => {
    const operations = listOperations((await loadSpec()).resolved);
    expect(operations.map((op) => [op.operationId, op.method, op.path, op.successStatus])).toEqual([
      ['listCategories', 'get', '/categories', 200],
      ['createCategory', 'post', '/categories', 201],
      ['getPetById', 'get', '/pets/{petId}', 200],
      ['listStoreOrders', 'get', '/store/orders', 200],
    ]);
    expect(
      operations.every((op) => op.security.some((requirement) => 'bearerAuth' in requirement)),
    ).toBe(true);
    expect(operations.find((op) => op.operationId === 'getPetById')?.expressPath).toBe(
      '/pets/:petId',
    );
  });

  it('finds the operation of a method and a concrete path', async () => {
    const find = operationFinder(listOperations((await loadSpec()).resolved));
    expect(find('GET', '/pets/42')?.operationId).toBe('getPetById');
    expect(find('get', '/categories')?.operationId).toBe('listCategories');
    expect(find('POST', '/categories/')?.operationId).toBe('createCategory');
    expect(find('DELETE', '/categories')).toBeUndefined();
    expect(find('GET', '/pets/42/toys')).toBeUndefined();
    expect(find('GET', '/pets/')).toBeUndefined();
    expect(find('GET', '/Categories')).toBeUndefined();
  });

  it('tells which security requirements demand a credential', () => {
    expect(requiresCredential([{ bearerAuth: [] }])).toBe(true);
    expect(requiresCredential([{}])).toBe(false);
    expect(requiresCredential([{ bearerAuth: [] }, {}])).toBe(false);
    expect(requiresCredential([])).toBe(false);
  });
});
