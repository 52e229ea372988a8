import type { OpenAPIV3_1 } from 'openapi-types';
import { SpecError } from './load.js';
import { jsonMediaOf, type Operation } from './operations.js';
import type { DataGenerator } from './sample.js';
import type { SchemaCompiler } from './schemas.js';

type MediaTypeObject = OpenAPIV3_1.MediaTypeObject;

/** A body the spec gives (or lets the mock make) for one response of an operation. */
interface ExampleBody {
  /** The JSON media type it is documented under. */
  mediaType: string;
  body: unknown;
}

interface ExampleOptions {
  /** The example of that name; without it, the first the response documents. */
  name?: string;
  /** Data generated from the schema, new each time, whatever the examples. */
  generate?: boolean;
}

/** The bodies an operation answers with from its spec: its examples, checked, or generated data. */
export interface ExampleSource {
  /**
   * The body for a response of an operation: the example of that `name` when one is asked
   * for, else the first named example, else `example`, else the schema's own examples (or
   * its `example`), else data generated from the schema (made once, the same for the same
   * seed). An example that breaks its own schema is never answered: generated data is, with
   * a warning (once).
   * `undefined` when the response has no JSON content.
   * @throws {SpecError} when no valid data can be made (see DataGenerator).
   */
  body(
    operation: Operation,
    responseKey: string,
    options?: ExampleOptions,
  ): ExampleBody | undefined;
  /**
   * Checks every example the responses of an operation document, now rather than when one is
   * first answered: those that break their schema are warned of (once). Those of a schema
   * that cannot be compiled are left unchecked.
   */
  check(operation: Operation): void;
}

export interface ExampleSourceOptions {
  compiler: SchemaCompiler;
  generator: DataGenerator;
  /** Called once for each of the examples that break their schema. */
  warn?: (line: string) => void;
}

/**
 * @example createExampleSource({ compiler, generator }).body(getPetById, '200') // { mediaType: 'application/json', body: { id: 10, name: 'Rex' } }
 */
export function createExampleSource(options: ExampleSourceOptions): ExampleSource {
  const { compiler, generator } = options;
  /** Per media object, the examples found valid (by name, '' for the first) and the generated body. */
  const verdicts = new WeakMap<MediaTypeObject, Map<string, boolean>>();
  const generated = new WeakMap<MediaTypeObject, { body: unknown }>();

  function fits(
    media: MediaTypeObject,
    schema: OpenAPIV3_1.SchemaObject,
    found: { name: string | undefined; value: unknown },
    where: string,
  ): boolean {
    let known = verdicts.get(media);
    if (!known) verdicts.set(media, (known = new Map()));
    const key = found.name ?? '';
    let valid = known.get(key);
    if (valid === undefined) {
      const problems = compiler.response(schema)(found.value);
      valid = problems.length === 0;
      known.set(key, valid);
      if (!valid) {
        const which = found.name === undefined ? 'the example' : `the example "${found.name}"`;
        options.warn?.(
          `${which} of ${where} breaks its schema (${problems.slice(0, 2).join('; ')}): generated data is answered instead`,
        );
      }
    }
    return valid;
  }

  return {
    check(operation) {
      for (const key of Object.keys(operation.responses)) {
        const json = jsonMediaOf(operation.responses[key]);
        if (!json) continue;
        const where = `the ${key} answer of ${operation.operationId}`;
        const names = Object.keys(json.media.examples ?? {});
        for (const name of names.length ? names : [undefined]) {
          const found = fromExamples(json.media, name);
          try {
            if (found) fits(json.media, json.schema, found, where);
          } catch (err) {
            // A schema that cannot be compiled: a defect of its own, heard of where it is compiled.
            if (err instanceof SpecError) break;
            throw err;
          }
        }
      }
    },
    body(operation, responseKey, asked = {}) {
      const json = jsonMediaOf(operation.responses[responseKey]);
      if (!json) return undefined;
      const { type: mediaType, media, schema } = json;
      const where = `the ${responseKey} answer of ${operation.operationId}`;
      if (asked.generate) return { mediaType, body: generator.value(schema, where) };
      const found = fromExamples(media, asked.name);
      if (found && fits(media, schema, found, where)) return { mediaType, body: found.value };
      let made = generated.get(media);
      if (!made) generated.set(media, (made = { body: generator.value(schema, where) }));
      return { mediaType, body: made.body };
    },
  };
}

/**
 * The names of the examples a response documents.
 * @example exampleNames(getPetById, '200') // ['rex', 'tom']
 */
export function exampleNames(operation: Operation, responseKey: string): string[] {
  return Object.keys(jsonMediaOf(operation.responses[responseKey])?.media.examples ?? {});
}

function fromExamples(
  media: MediaTypeObject,
  name?: string,
): { name: string | undefined; value: unknown } | undefined {
  const examples = (media.examples ?? {}) as Record<string, { value?: unknown }>;
  const [first] = Object.keys(examples);
  const key = name ?? first;
  const named = key === undefined ? undefined : examples[key];
  if (named && typeof named === 'object' && 'value' in named)
    return { name: key, value: named.value };
  if (name !== undefined) return undefined;
  if (media.example !== undefined) return { name: undefined, value: media.example };
  // The schema's own: `examples` (JSON Schema's list), else `example` (OpenAPI 3.0's).
  const schema = (media.schema ?? {}) as { examples?: unknown; example?: unknown };
  if (Array.isArray(schema.examples) && schema.examples.length)
    return { name: undefined, value: schema.examples[0] };
  return schema.example === undefined ? undefined : { name: undefined, value: schema.example };
}
