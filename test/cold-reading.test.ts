// A cold start's reading of a document (issue 45): what it does in one walk instead of the
// resolver's, and the check it skips for the package's own documents, give what they replace.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { $RefParser } from '@apidevtools/json-schema-ref-parser';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ADMIN_SPEC_PATH, BUNDLED_SPEC_PATH } from '../src/openapi/bundled.js';
import { hideDataRefsSeeing } from '../src/openapi/data-refs.js';
import { resolvedLocally } from '../src/openapi/local-refs.js';
import { specDefects } from '../src/openapi/spec-check.js';

const CORPUS = fileURLToPath(new URL('fixtures/corpus/', import.meta.url));

async function documentAt(path: string): Promise<Record<string, unknown>> {
  const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  return (path.endsWith('.json') ? JSON.parse(text) : parse(text)) as Record<string, unknown>;
}

/** The document resolved as loadSpec's resolver resolves it: json-schema-ref-parser, data hidden. */
async function resolvedByTheResolver(document: object, path: string): Promise<unknown> {
  const copy = structuredClone(document);
  const { restore, external } = hideDataRefsSeeing(copy);
  const resolved = await new $RefParser().dereference(path, copy as never, {
    dereference: { circular: true },
    resolve: { external },
  });
  restore();
  return resolved;
}

/**
 * Where two values differ, as a pointer, or undefined when they are the same graph: the same
 * keys in the same order, the same values, and one object where the other has one object
 * (the target of several `$ref`s, a cycle).
 */
function differenceOf(a: unknown, b: unknown): string | undefined {
  const ab = new Map<object, object>();
  const ba = new Map<object, object>();
  const stack: [unknown, unknown, string][] = [[a, b, '#']];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [x, y, at] = top;
    if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) {
      if (!Object.is(x, y)) return `${at}: ${JSON.stringify(x)} where ${JSON.stringify(y)}`;
      continue;
    }
    if (ab.has(x) || ba.has(y)) {
      if (ab.get(x) !== y || ba.get(y) !== x)
        return `${at}: one object where two, or two where one`;
      continue;
    }
    ab.set(x, y);
    ba.set(y, x);
    const keys = Object.keys(x);
    if (Array.isArray(x) !== Array.isArray(y) || keys.join('\0') !== Object.keys(y).join('\0'))
      return `${at}: keys ${keys.join(',')} where ${Object.keys(y).join(',')}`;
    for (const key of keys)
      stack.push([
        (x as Record<string, unknown>)[key],
        (y as Record<string, unknown>)[key],
        `${at}/${key}`,
      ]);
  }
  return undefined;
}

describe('resolving a document whose $refs point into itself, in one walk', () => {
  it('gives the graph the resolver gives, for every document of the corpus it reads', async () => {
    const manifest = JSON.parse(await readFile(`${CORPUS}manifest.json`, 'utf8')) as {
      file: string;
      bytes: number;
    }[];
    let read = 0;
    for (const { file, bytes } of manifest) {
      if (bytes > 500_000) continue; // the largest: bench/large-spec.ts
      const document = await documentAt(`${CORPUS}${file}`);
      const local = resolvedLocally(document);
      if (!local) continue;
      read++;
      const theirs = await resolvedByTheResolver(document, `${CORPUS}${file}`);
      expect(differenceOf(local, theirs), file).toBeUndefined();
    }
    expect(read).toBeGreaterThan(10);
  });

  it('makes one object of a target, a cycle of a recursive schema, and keeps data as written', async () => {
    const document = {
      openapi: '3.1.0',
      paths: {
        '/nodes': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: { $ref: '#/components/schemas/Node' },
                    example: { $ref: '#/not/a/reference', id: 1 },
                  },
                },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Node: {
            type: 'object',
            properties: {
              next: { $ref: '#/components/schemas/Node' },
              alias: { $ref: '#/components/schemas/Alias' },
              anchored: { $ref: '#anchor' },
              ['__proto__']: { type: 'string' },
            },
          },
          Alias: { $ref: '#/components/schemas/Id' },
          Id: { type: 'string', default: { $ref: 'https://example.com/not/fetched' } },
        },
      },
    };
    const before = JSON.stringify(document);
    const resolved = resolvedLocally(document) as typeof document;
    const node = resolved.components.schemas.Node;
    expect(resolved.paths['/nodes'].get.responses['200'].content['application/json'].schema).toBe(
      node,
    );
    expect(node.properties.next).toBe(node);
    // A chain of references ends at its last target.
    expect(node.properties.alias).toBe(resolved.components.schemas.Id);
    expect(resolved.components.schemas.Alias).toBe(resolved.components.schemas.Id);
    // `#anchor` is no JSON pointer, and a `$ref` in data is a key of the value (last, as the
    // resolver puts it back).
    expect(node.properties.anchored).toEqual({ $ref: '#anchor' });
    expect(
      Object.keys(
        resolved.paths['/nodes'].get.responses['200'].content['application/json'].example,
      ),
    ).toEqual(['id', '$ref']);
    expect(Object.getPrototypeOf(node.properties)).toBe(Object.prototype);
    expect(Object.keys(node.properties)).toContain('__proto__');
    // A copy: the document keeps its references.
    expect(JSON.stringify(document)).toBe(before);
    expect(differenceOf(resolved, await resolvedByTheResolver(document, '/x.json'))).toBe(
      undefined,
    );
  });

  it('leaves to the resolver what it reads in ways of its own', () => {
    const withSchema = (schema: object, more: Record<string, unknown> = {}) => ({
      openapi: '3.1.0',
      paths: {},
      components: { schemas: { Pet: { type: 'object' }, Used: schema, ...more } },
    });
    for (const schema of [
      { $ref: 'other.yaml#/Pet' }, // another file
      { $ref: 'https://example.com/pet.json' }, // a URL
      { $ref: '#/components/schemas/Pet', description: 'a pet' }, // keywords beside it
      { $ref: '#/components/schemas/Missing' }, // nothing
      { $ref: '#/components/schemas/Loop' }, // a loop of references
      { $ref: '#/components/schemas/Through/type' }, // through another $ref
    ])
      expect(
        resolvedLocally(
          withSchema(schema, {
            Loop: { $ref: '#/components/schemas/Used' },
            Through: { $ref: '#/components/schemas/Pet' },
          }),
        ),
        JSON.stringify(schema),
      ).toBeUndefined();
  });
});

describe("the package's own documents", () => {
  it('pass the OpenAPI check, which their reading skips', async () => {
    for (const path of [ADMIN_SPEC_PATH, BUNDLED_SPEC_PATH])
      expect(await specDefects(await documentAt(path)), path).toEqual([]);
  });
});
