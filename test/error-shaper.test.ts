// The error shaper gives up on an error schema only when the schema is at fault: a generator
// that ran out of its time on a busy machine is no proof that no value fits.
import { describe, expect, it } from 'vitest';
import type { OpenAPIV3_1 } from 'openapi-types';
import { createErrorShaper } from '../src/core/error-shaper.js';
import type { SchemaObject } from '../src/openapi/load.js';
import { createDataGenerator, ValueTimeError, type DataGenerator } from '../src/openapi/sample.js';
import { createSchemaCompiler } from '../src/openapi/schemas.js';
import { errorForStatus } from '../src/vocabulary/error-catalogue.js';

/** Stripe's shape: `{ error: { type, message } }`, whose `type` our code does not fit. */
const STRIPE_LIKE: SchemaObject = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['type'],
      properties: {
        type: { type: 'string', enum: ['invalid_request_error', 'api_error'] },
        message: { type: 'string' },
      },
    },
  },
};

const response = (schema: SchemaObject): OpenAPIV3_1.ResponseObject => ({
  description: 'an error',
  content: { 'application/json': { schema } },
});

/** A generator whose first `failures` values fail with `failure`, the rest made for real. */
function flakyGenerator(failures: number, failure: () => Error) {
  const compiler = createSchemaCompiler();
  const real = createDataGenerator({ seed: 1, compiler });
  let calls = 0;
  const generator: DataGenerator = {
    compiler,
    seed: 1,
    value(schema, where, options) {
      calls++;
      if (calls <= failures) throw failure();
      return real.value(schema, where, options);
    },
    withSeed: () => generator,
  };
  return { compiler, generator, calls: () => calls };
}

const outOfTime = () =>
  new ValueTimeError(
    'cannot generate data valid against an error schema: no valid value was made within 1000 ms',
  );

describe('an error schema the generator once ran out of time on', () => {
  it('is answered in its own shape on a later error', () => {
    const { compiler, generator } = flakyGenerator(1, outOfTime);
    const shape = createErrorShaper(compiler, generator, () => response(STRIPE_LIKE));
    const error = errorForStatus(404, 'no such charge');

    // The first error is answered with the mock's own body: no shape could be made in time.
    expect(shape(error, undefined).body).toEqual(error.toBody());
    // The next one has the time it needs, and the spec's shape (it was ours before: the
    // schema was remembered as one no value satisfies after that one failure).
    const later = shape(error, undefined).body as { error: { type: string; message: string } };
    expect(compiler.response(STRIPE_LIKE)(later)).toEqual([]);
    expect(later.error.message).toBe('no such charge');
  });

  it('is given up after running out of time twice with the CPU its own', () => {
    const { compiler, generator, calls } = flakyGenerator(2, outOfTime);
    // No CPU reading: each out-of-time failure counts as the schema's (a real one is read
    // from the process, and a failure on a machine too busy to give the mock the CPU does not).
    const shape = createErrorShaper(compiler, generator, () => response(STRIPE_LIKE), {
      cpuMs: () => undefined,
    });
    const error = errorForStatus(404, 'no such charge');
    shape(error, undefined);
    shape(error, undefined);
    expect(shape(error, undefined).body).toEqual(error.toBody());
    // Not tried a third time: each try would cost the generator's whole time again.
    expect(calls()).toBe(2);
  });

  it('is given up at once when the schema itself is at fault', () => {
    const { compiler, generator, calls } = flakyGenerator(
      1,
      () => new Error('cannot generate data valid against an error schema: /success must be true'),
    );
    const shape = createErrorShaper(compiler, generator, () => response(STRIPE_LIKE));
    const error = errorForStatus(400, 'bad');
    shape(error, undefined);
    expect(shape(error, undefined).body).toEqual(error.toBody());
    expect(calls()).toBe(1);
  });

  it('makes the filler of an error schema once, not on every error', () => {
    const { compiler, generator, calls } = flakyGenerator(0, outOfTime);
    const shape = createErrorShaper(compiler, generator, () => response(STRIPE_LIKE));
    for (const message of ['one', 'two', 'three']) {
      const body = shape(errorForStatus(404, message), undefined).body as {
        error: { message: string };
      };
      expect(body.error.message).toBe(message);
    }
    expect(calls()).toBe(1);
  });

  it('reads the CPU time only for an error that makes a filler, not on every error', () => {
    const { compiler, generator } = flakyGenerator(0, outOfTime);
    let reads = 0;
    const shape = createErrorShaper(compiler, generator, () => response(STRIPE_LIKE), {
      cpuMs: () => ++reads,
    });
    for (const message of ['one', 'two', 'three']) shape(errorForStatus(404, message), undefined);
    // A system call per error answer (getrusage) is a cost every 404 paid for nothing.
    expect(reads).toBe(1);
  });

  it('still tells a busy machine from the schema once a filler runs out of time', () => {
    const { compiler, generator, calls } = flakyGenerator(3, outOfTime);
    // The process got no CPU while the generator ran: the machine's doing, never given up.
    const shape = createErrorShaper(compiler, generator, () => response(STRIPE_LIKE), {
      cpuMs: () => 0,
    });
    const error = errorForStatus(404, 'no such charge');
    for (let tries = 0; tries < 3; tries++) shape(error, undefined);
    const later = shape(error, undefined).body as { error: { message: string } };
    expect(later.error.message).toBe('no such charge');
    expect(calls()).toBe(4);
  });
});
