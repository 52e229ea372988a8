// A large document's checks compile the named schemas a value reaches when it reaches them
// (lazyRefs), not the whole graph its schema can reach: on Stripe's description every answer
// reaches one graph of about a thousand schemas, and compiling it whole held a first call, and
// the event loop, for 1.4–2.8 s (issue 28: first calls on large documents). These tests show
// that a check compiles only what its value reaches, and that it says what a check compiling
// everything says.
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunningMock } from '../src/index.js';
import type { OpenApiDocument, SchemaObject } from '../src/openapi/load.js';
import { SpecError } from '../src/openapi/load.js';
import { finiteTree } from '../src/openapi/sample.js';
import { createSchemaCompiler } from '../src/openapi/schemas.js';
import { largeDocument, QUICK_SHUTDOWN, startMockPrecompiling } from './helpers.js';

const started: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

/** A resolved document holding `schemas` as its named ones (resolved: objects, not `$ref`s). */
function documentWith(schemas: Record<string, object>): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'Lazy', version: '1' },
    paths: {},
    components: { schemas: schemas as Record<string, SchemaObject> },
  };
}

/** Stripe's expandable field: an id, or the object it names. */
const expandable = (target: object): object => ({
  anyOf: [{ type: 'string', maxLength: 5000 }, target],
});

describe('lazy references', () => {
  it('compile a named schema only when a checked value reaches it', () => {
    // ajv refuses this schema: a compiler that compiles what it can reach fails at once.
    const person = { type: 'object', properties: { age: { type: 'no-such-type' } } };
    const account = {
      type: 'object',
      properties: { id: { type: 'string' }, owner: expandable(person) },
    };
    const document = documentWith({ Account: account, Person: person });
    const whole = createSchemaCompiler(document);
    expect(() => whole.response(account as SchemaObject)({ id: 'acct_1' })).toThrow(SpecError);

    const lazy = createSchemaCompiler(document, { lazyRefs: true });
    const check = lazy.response(account as SchemaObject);
    expect(check({ id: 'acct_1' })).toEqual([]);
    expect(check({ id: 7 }, '/response')).toEqual(['/response/id must be a string']);
    // Reached (an `anyOf` tries every arm, the id too), it is compiled, and fails by its name
    // as any schema that cannot be compiled.
    expect(() => check({ id: 'acct_1', owner: 'person_1' })).toThrow(
      /^the schema #\/components\/schemas\/Person cannot be compiled: /,
    );
    // The failure is kept: the next check that reaches it fails the same, one that does not is fine.
    expect(() => check({ owner: { age: 4 } })).toThrow(/schemas\/Person cannot be compiled/);
    expect(check({ id: 'acct_2' })).toEqual([]);
  });

  it('find the same problems at the same places as references compiled whole', () => {
    const node: Record<string, unknown> = {
      type: 'object',
      required: ['value'],
      properties: { value: { type: 'integer' } },
    };
    (node.properties as Record<string, unknown>).children = { type: 'array', items: node };
    const person = {
      type: 'object',
      required: ['name'],
      properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } },
    };
    const holder = {
      type: 'object',
      properties: {
        owner: expandable(person),
        tree: node,
        people: { type: 'array', items: person },
      },
    };
    const document = documentWith({ Holder: holder, Node: node, Person: person });
    const values = [
      { owner: 'person_1', tree: { value: 1, children: [{ value: 2, children: [] }] } },
      { owner: { name: 3 }, tree: { value: 1, children: [{ value: 2 }, { value: 'three' }] } },
      { people: [{ name: 'Ann' }, { id: 'p', name: 'Bob' }, {}], tree: { children: [] } },
    ];
    for (const direction of ['request', 'response'] as const) {
      const whole = createSchemaCompiler(document)[direction](holder as SchemaObject);
      const lazy = createSchemaCompiler(document, { lazyRefs: true })[direction](
        holder as SchemaObject,
      );
      for (const value of values)
        expect(lazy(structuredClone(value), '/x').sort()).toEqual(
          whole(structuredClone(value), '/x').sort(),
        );
    }
    const lazy = createSchemaCompiler(document, { lazyRefs: true });
    expect(lazy.response(holder as SchemaObject)(values[1], '/response')).toEqual(
      expect.arrayContaining([
        '/response/owner/name must be a string',
        '/response/tree/children/1/value must be an integer',
      ]),
    );
    // A read-only property, refused in a request, however deep the reference that reaches it.
    expect(lazy.request(holder as SchemaObject)(values[2], '/body')).toEqual(
      expect.arrayContaining([
        '/body/people/1/id is read-only: the service sets it, a client cannot send it',
        "/body/people/2 must have required property 'name'",
      ]),
    );
  });

  it('keep a $ref where unevaluatedProperties must see what the schema referred to declares', () => {
    const base = { type: 'object', properties: { id: { type: 'integer' } } };
    // Closed over what its parts declare: valid with `id`, which only the part declares.
    const closed = {
      allOf: [base],
      properties: { name: { type: 'string' } },
      unevaluatedProperties: false,
    };
    // A base closed by mistake, extended by `allOf` (read as closing the whole).
    const strictBase = { ...base, additionalProperties: false };
    const extended = { allOf: [strictBase, { properties: { name: { type: 'string' } } }] };
    // Each also met as a named schema referred to from a property, and at the top.
    const holder = { type: 'object', properties: { closed, extended } };
    const document = documentWith({
      Base: base,
      StrictBase: strictBase,
      Closed: closed,
      Extended: extended,
      Holder: holder,
    });
    const lazy = createSchemaCompiler(document, { lazyRefs: true });
    for (const schema of [closed, extended]) {
      const check = lazy.response(schema as SchemaObject);
      expect(check({ id: 1, name: 'a' })).toEqual([]);
      expect(check({ id: 1, name: 'a', other: true })).toEqual(['/other is not a known property']);
    }
    const check = lazy.response(holder as SchemaObject);
    expect(check({ closed: { id: 1 }, extended: { id: 2, name: 'b' } })).toEqual([]);
    expect(check({ closed: { id: 1, more: 1 } })).toEqual(['/closed/more is not a known property']);
  });
});

describe('the work ahead on a large document', () => {
  it('compiles every named schema answers reach, one a step: a defect is heard of before any call', async () => {
    // Reached through a lazy reference, which the operation's own compile leaves: compiled
    // ahead, one schema at a time, its defect is heard of before a call reaches it.
    const path = await largeDocument();
    const document = JSON.parse(await readFile(path, 'utf8')) as OpenApiDocument;
    const schemas = document.components?.schemas as Record<string, object>;
    schemas.Defective = { type: 'object', properties: { age: { type: 'no-such-type' } } };
    const defective = { type: 'array' as const, items: { $ref: '#/components/schemas/Defective' } };
    document.paths!['/defective'] = {
      get: {
        operationId: 'listDefective',
        responses: {
          '200': {
            description: 'Never made.',
            content: { 'application/json': { schema: defective } },
          },
        },
      },
    };
    await writeFile(path, JSON.stringify(document));
    const large = await startMockPrecompiling({ ...QUICK_SHUTDOWN, spec: path, seedCount: 1 });
    started.push(large);
    await vi.waitFor(
      () =>
        expect(large.mock.warnings).toContainEqual(
          expect.stringMatching(
            /^the schema #\/components\/schemas\/Defective cannot be compiled: /,
          ),
        ),
      { timeout: 60_000, interval: 100 },
    );
    expect((await fetch(`${large.url}/items`)).status).toBe(200);
  }, 90_000);
});

describe("the generator's finite tree", () => {
  it('holds only the copies it refers to: not the object arms an expandable field leaves out', () => {
    // Shared by two fields, so a copy of its own; met only in arms that are left out (a real
    // service sends the id), so never referred to. Stripe's first answer made ~1,000 such copies.
    const customer = {
      type: 'object',
      properties: { id: { type: 'string' }, email: { type: 'string' } },
    };
    const charge = {
      type: 'object',
      properties: { customer: expandable(customer), payer: expandable(customer) },
    };
    const tree = finiteTree(charge as SchemaObject, () => undefined) as Record<string, unknown>;
    expect(tree.$defs).toBeUndefined();
    expect(tree.properties).toMatchObject({
      customer: { anyOf: [{ type: 'string' }] },
      payer: { anyOf: [{ type: 'string' }] },
    });
    // Referred to, it is there: a shared schema in a plain property.
    const invoice = { type: 'object', properties: { customer, payer: customer } };
    const referred = finiteTree(invoice as SchemaObject, () => undefined) as Record<
      string,
      unknown
    >;
    expect(Object.keys(referred.$defs as object)).toHaveLength(1);
  });
});
