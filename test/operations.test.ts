import { describe, expect, it } from 'vitest';
import { createRouter } from '../src/core/stages/route.js';
import { loadSpec } from '../src/openapi/load.js';
import { listOperations, requiresCredential, responseFor } from '../src/openapi/operations.js';

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
    const getPet = operations.find((op) => op.operationId === 'getPetById');
    expect(getPet?.parameters).toEqual([
      expect.objectContaining({ name: 'petId', in: 'path', required: true }),
    ]);
    const create = operations.find((op) => op.operationId === 'createCategory');
    expect([...(create?.requestBody?.content.keys() ?? [])]).toEqual(['application/json']);
  });

  it('finds the documented response of a status: exact, then default', async () => {
    const [list] = listOperations((await loadSpec()).resolved);
    expect(responseFor(list!, 401)?.key).toBe('401');
    expect(responseFor(list!, 404)?.key).toBe('default');
  });

  it('tells which security requirements demand a credential', () => {
    expect(requiresCredential([{ bearerAuth: [] }])).toBe(true);
    expect(requiresCredential([{}])).toBe(false);
    expect(requiresCredential([{ bearerAuth: [] }, {}])).toBe(false);
    expect(requiresCredential([])).toBe(false);
  });
});

describe('createRouter', () => {
  it('finds the operation of a method and a concrete path, and what else the path allows', async () => {
    const router = createRouter(listOperations((await loadSpec()).resolved));
    const found = router.match('GET', '/pets/42');
    expect(found.kind === 'operation' && [found.operation.operationId, found.params]).toEqual([
      'getPetById',
      { petId: '42' },
    ]);
    expect(router.match('get', '/categories')).toMatchObject({ kind: 'operation' });
    expect(router.match('POST', '/categories/')).toMatchObject({ kind: 'operation' });
    // HEAD is served wherever GET is.
    expect(router.match('HEAD', '/categories')).toMatchObject({
      kind: 'operation',
      operation: { operationId: 'listCategories' },
    });
    expect(router.match('DELETE', '/categories')).toEqual({
      kind: 'method-not-allowed',
      allow: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    });
    expect(router.match('GET', '/pets/42/toys')).toEqual({ kind: 'not-found' });
    expect(router.match('GET', '/pets/')).toEqual({ kind: 'not-found' });
    expect(router.match('GET', '/Categories')).toEqual({ kind: 'not-found' });
  });

  it('decodes path parameters, and refuses bad percent-encoding with 400', async () => {
    const router = createRouter(listOperations((await loadSpec()).resolved));
    expect(router.match('GET', '/pets/a%20b')).toMatchObject({ params: { petId: 'a b' } });
    expect(() => router.match('GET', '/pets/%E0%A4%A')).toThrow(
      expect.objectContaining({ status: 400 }),
    );
  });
});
