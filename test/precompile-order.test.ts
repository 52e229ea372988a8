// Precompiling of a large document runs in the background between requests, one step per
// turn of the event loop, and a request that arrives while a step runs waits for it (issue 28:
// the first call of any operation within 200 ms). Making a value (a seeded record, an example
// answer) is the long step, and a third to a half of it was compiling the named schemas the
// value reached: so every compile comes first, and values are made once what they reach is
// compiled. These tests show the order.
import { describe, expect, it } from 'vitest';
import type { SchemaObject } from '../src/openapi/load.js';
import type { Operation } from '../src/openapi/operations.js';
import type { Resource } from '../src/openapi/resources.js';
import { startPrecompile, precompileSteps } from '../src/core/precompile.js';

/** Just what precompileSteps reads of an operation and a resource. */
const operation = (operationId: string) => ({ operationId }) as unknown as Operation;
const resource = (name: string, actions: Operation[]) =>
  ({ name, actions: new Map(actions.map((action) => [action, 'list'])) }) as unknown as Resource;

describe('the work ahead', () => {
  it('compiles every operation and every named schema before it makes any value', async () => {
    const [listPets, createPet, getHealth, getStats] = [
      'listPets',
      'createPet',
      'getHealth',
      'getStats',
    ].map(operation) as [Operation, Operation, Operation, Operation];
    const pets = resource('pets', [listPets, createPet]);
    const named = [{ title: 'Pet' }, { title: 'Error' }];
    const done: string[] = [];
    const steps = precompileSteps({
      operations: [listPets, createPet, getHealth, getStats],
      prepare: (op) => done.push(`compile ${op.operationId}`),
      example: (op) => done.push(`example ${op.operationId}`),
      resources: [pets],
      seedOf: async (res) => done.push(`seed ${res.name}`),
      recordSchemas: [{ title: 'pets record' }],
      namedSchemas: () => [...named, 'not a schema'],
      compileNamed: (schema: SchemaObject) => done.push(`compile ${String(schema.title)}`),
    });
    for (const step of steps) await step();
    expect(done).toEqual([
      'compile listPets',
      'compile createPet',
      'compile getHealth',
      'compile getStats',
      // What a collection's records are made by and checked against, before they are made.
      'compile pets record',
      'compile Pet',
      'compile Error',
      // A collection is seeded once, for the first of its operations; the others have examples.
      'seed pets',
      'example getHealth',
      'example getStats',
    ]);
  });

  it('holds a long step (a value made) until the quiet it asks for, and runs compiles meanwhile', async () => {
    const [listPets, getHealth] = ['listPets', 'getHealth'].map(operation) as [
      Operation,
      Operation,
    ];
    const done: string[] = [];
    const steps = precompileSteps({
      operations: [listPets, getHealth],
      prepare: (op) => done.push(`compile ${op.operationId}`),
      example: (op) => done.push(`example ${op.operationId}`),
      resources: [resource('pets', [listPets])],
      seedOf: (res) => done.push(`seed ${res.name}`),
      namedSchemas: () => [{ title: 'Pet' }],
      compileNamed: (schema: SchemaObject) => done.push(`compile ${String(schema.title)}`),
    });
    // A client still calling: short steps may run, long ones wait.
    let calling = true;
    const asked: boolean[] = [];
    const precompiling = startPrecompile(steps, {
      busy: (long) => {
        asked.push(long);
        return long && calling;
      },
      delayMs: 0,
      pauseMs: 5,
    });
    await expect.poll(() => asked.filter((long) => long).length).toBeGreaterThan(3);
    expect(done).toEqual(['compile listPets', 'compile getHealth', 'compile Pet']);
    calling = false;
    const report = await precompiling.done;
    expect(report.stopped).toBe(false);
    expect(done.slice(3)).toEqual(['seed pets', 'example getHealth']);
  });
});
