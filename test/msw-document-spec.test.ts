// A spec given as a parsed document (what a page imports), read with no file system: the same
// reading as loadSpec's from the file, and the handlers that serve it.
import { readFileSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { mockHandlers } from '../src/msw.js';
import { specFromDocument } from '../src/openapi/document-spec.js';
import { loadSpec } from '../src/openapi/load.js';
import { SpecError } from '../src/openapi/spec-error.js';
import { unhandled } from './msw-major.js';

const fixture = (name: string) => new URL(`./fixtures/specs/${name}`, import.meta.url);
const documentOf = (url: URL): Record<string, unknown> => parse(readFileSync(url, 'utf8'));
const BUNDLED = new URL('../spec/openapi.yaml', import.meta.url);

describe('specFromDocument', () => {
  it.each([
    ['the bundled spec', BUNDLED],
    ['a recursive schema', fixture('recursive.yaml')],
    ['OpenAPI 3.0 with nullable', fixture('nullable-30.yaml')],
    ['Swagger 2.0', fixture('swagger2.yaml')],
  ])('reads %s as loadSpec reads its file', async (_name, url) => {
    const fromFile = await loadSpec(url.pathname, { checkCache: false });
    const given = documentOf(url);
    const fromDocument = specFromDocument(given, 'given');
    expect(fromDocument.version).toBe(fromFile.version);
    expect(fromDocument.document).toEqual(fromFile.document);
    expect(fromDocument.resolved).toEqual(fromFile.resolved);
    // The document given is left as it was.
    expect(given).toEqual(documentOf(url));
  });

  it('keeps one object per target: a recursive schema is a cycle', () => {
    const spec = specFromDocument({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      components: {
        schemas: {
          Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } },
        },
      },
    });
    const node = (spec.resolved.components?.schemas as Record<string, { properties: object }>).Node;
    expect((node?.properties as { next: unknown }).next).toBe(node);
  });

  it('refuses a $ref to another file, saying to bundle it', () => {
    const split = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/a': { $ref: './paths/a.yaml' } },
    };
    expect(() => specFromDocument(split, 'split.json')).toThrow(SpecError);
    expect(() => specFromDocument(split, 'split.json')).toThrow(/another file.*bundle it/);
  });

  it('refuses a $ref to nothing, and what is no OpenAPI document', () => {
    const dangling = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/a': { get: { responses: { 200: { $ref: '#/components/responses/Gone' } } } } },
    };
    expect(() => specFromDocument(dangling)).toThrow(
      /#\/components\/responses\/Gone names nothing/,
    );
    expect(() => specFromDocument({ title: 'a page' })).toThrow(/not an OpenAPI document/);
  });
});

describe('mockHandlers with a spec given as a document (Node)', () => {
  const server = setupServer();
  beforeAll(() => server.listen(unhandled('error')));
  afterAll(() => server.close());

  it('serves it as it serves the file', async () => {
    const options = { apiKeys: ['k'], seedCount: 3, origin: 'http://doc.test' };
    const fromDocument = await mockHandlers({ ...options, spec: documentOf(BUNDLED) });
    const fromFile = await mockHandlers(options);
    const list = async (mock: typeof fromFile) => {
      server.resetHandlers(...mock.handlers);
      const answer = await fetch('http://doc.test/v1/categories', {
        headers: { Authorization: 'Bearer k' },
      });
      return { status: answer.status, body: await answer.text() };
    };
    const served = await list(fromDocument);
    expect(served.status).toBe(200);
    expect(served).toEqual(await list(fromFile));
  });
});
