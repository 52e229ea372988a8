import { describe, expect, it } from 'vitest';
import { listOperations, matchPath } from '../src/operations.js';
import { loadSpec } from '../src/spec.js';

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

  it('matches concrete paths to their templates', async () => {
    const operations = listOperations((await loadSpec()).resolved);
    expect(matchPath(operations, '/pets/42').map((op) => op.operationId)).toEqual(['getPetById']);
    expect(matchPath(operations, '/categories/').map((op) => op.method)).toEqual(['get', 'post']);
    expect(matchPath(operations, '/pets/42/toys')).toEqual([]);
    expect(matchPath(operations, '/pets/')).toEqual([]);
  });
});
