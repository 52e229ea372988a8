// The plan the CLI hands the contract suite: read from a spec with the mock's own reading of
// OpenAPI, plain data in the one format both sides import (src/cli/contract-plan-format.ts).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { loadSpec, SpecError, type OpenApiDocument } from '../src/openapi/load.js';

const LIBRARY = fileURLToPath(new URL('./fixtures/specs/library.yaml', import.meta.url));
const ORGS = fileURLToPath(new URL('./fixtures/specs/orgs.yaml', import.meta.url));

describe('the contract plan', () => {
  it('holds the collections the mock infers, with their operations, id and item parameter', async () => {
    const plan = buildContractPlan((await loadSpec(LIBRARY)).resolved);
    expect(plan.title).toBe("Library (a second spec, unlike the Pet Store's)");
    expect(plan.collections.map(({ schema: _schema, ...collection }) => collection)).toEqual([
      {
        name: 'authors',
        collectionPath: '/authors',
        itemPath: '/authors/{authorId}',
        itemParameter: 'authorId',
        idProperty: 'id',
        idKind: 'uuid',
        operations: {
          list: 'listAuthors',
          create: 'createAuthor',
          read: 'getAuthor',
          replace: 'replaceAuthor',
          update: 'updateAuthor',
          delete: 'deleteAuthor',
        },
        envelopes: {},
      },
      {
        name: 'books',
        collectionPath: '/books',
        itemPath: '/books/{bookNumber}',
        itemParameter: 'bookNumber',
        idProperty: 'number',
        idKind: 'integer',
        operations: { list: 'listBooks', create: 'addBook', read: 'getBook', delete: 'removeBook' },
        envelopes: {},
      },
    ]);
    expect(plan.securitySchemes).toEqual({ token: { type: 'http', scheme: 'bearer' } });
    const health = plan.operations.find((op) => op.operationId === 'health');
    expect(health?.security).toEqual([]);
    const createAuthor = plan.operations.find((op) => op.operationId === 'createAuthor')!;
    expect(createAuthor.security).toEqual([{ token: [] }]);
    expect(createAuthor.responses['201']?.links).toEqual({
      GetAuthor: { operationId: 'getAuthor', parameters: { authorId: '$response.body#/id' } },
    });
    expect(createAuthor.responses.default?.content['application/problem+json']).toMatchObject({
      'x-schema-name': 'Problem',
    });
  });

  it('holds collections nested at any depth, each under the record of the one above it', async () => {
    const plan = buildContractPlan((await loadSpec(ORGS)).resolved);
    expect(
      plan.collections.map(({ name, itemParameter, parent }) => [name, itemParameter, parent]),
    ).toEqual([
      ['orgs', 'orgId', undefined],
      ['orgs/{orgId}/projects', 'projectId', { collection: 'orgs', parameter: 'orgId' }],
      [
        'orgs/{orgId}/projects/{projectId}/tickets',
        'ticketId',
        { collection: 'orgs/{orgId}/projects', parameter: 'projectId' },
      ],
    ]);
  });

  it("reads the numbers the interface document gives its rules from the bundled spec's x-contract-rules", async () => {
    const plan = buildContractPlan((await loadSpec()).resolved);
    expect(plan.ruleNumbers).toEqual({ required: 1, invalid: 2, credentials: 3, create: 4 });
    expect(buildContractPlan((await loadSpec(LIBRARY)).resolved).ruleNumbers).toEqual({});
  });

  it('refuses x-contract-rules that name an unknown family or no rule number, in one line', async () => {
    const document = (await loadSpec(LIBRARY)).resolved;
    expect(() =>
      buildContractPlan({
        ...document,
        'x-contract-rules': { auth: 3 },
      } as unknown as OpenApiDocument),
    ).toThrow(
      new SpecError(
        'x-contract-rules names the family "auth", which the suite does not know (it knows: required, invalid, credentials, create)',
      ),
    );
    expect(() =>
      buildContractPlan({
        ...document,
        'x-contract-rules': { credentials: 'three' },
      } as unknown as OpenApiDocument),
    ).toThrow(SpecError);
  });

  it('reads the security schemes as the mock does: one it could not enforce is refused, in one line', async () => {
    const document = (await loadSpec(LIBRARY)).resolved;
    const plan = buildContractPlan(document);
    expect(Object.values(plan.securitySchemes)).not.toHaveLength(0);
    expect(() =>
      buildContractPlan({
        ...document,
        components: {
          ...document.components,
          securitySchemes: { key: { type: 'apiKey', name: 'X-Key' } },
        },
      } as unknown as OpenApiDocument),
    ).toThrow(
      new SpecError(
        'security scheme "key" cannot be enforced: "in" must be header, query or cookie, not undefined',
      ),
    );
  });

  it('is plain data: a recursive schema is cut where it repeats, a shared one stays shared', async () => {
    const document = structuredClone((await loadSpec(LIBRARY)).resolved);
    const author = document.components!.schemas!.Author as { properties: Record<string, unknown> };
    // What a resolved recursive schema is: an object that holds itself.
    author.properties.mentor = author;
    const plan = buildContractPlan(document);
    const collection = plan.collections.find((c) => c.name === 'authors')!;
    expect(collection.schema.properties?.mentor).toEqual({});
    expect(collection.schema.properties?.email).toEqual({ type: 'string', format: 'email' });
    expect(() => JSON.stringify(plan)).not.toThrow();
  });
});
