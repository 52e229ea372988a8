import type { OpenAPIV3_1 } from 'openapi-types';
import { jsonMediaOf, type Operation } from './operations.js';
import type { DataGenerator } from './sample.js';

type MediaTypeObject = OpenAPIV3_1.MediaTypeObject;

/** A body the spec gives (or lets the mock make) for one response of an operation. */
export interface ExampleBody {
  /** The JSON media type it is documented under. */
  mediaType: string;
  body: unknown;
}

/**
 * The body an operation answers with from its spec, for a status: the example of that
 * `name` when one is asked for, else the first named example, else `example`, else the
 * schema's own examples, else data generated from the schema (the same for the same seed).
 * `undefined` when the response has no JSON content.
 * @example exampleBody(getPetById, '200', generator) // { mediaType: 'application/json', body: { id: 10, name: 'Rex' } }
 */
export function exampleBody(
  operation: Operation,
  responseKey: string,
  generator: DataGenerator,
  options: { name?: string; generate?: boolean } = {},
): ExampleBody | undefined {
  const json = jsonMediaOf(operation.responses[responseKey]);
  if (!json) return undefined;
  const { type: mediaType, media, schema } = json;
  const where = `the ${responseKey} answer of ${operation.operationId}`;
  if (options.generate) return { mediaType, body: generator.value(schema, where) };
  const found = fromExamples(media, options.name);
  return { mediaType, body: found === undefined ? generator.value(schema, where) : found.value };
}

/** The names of the examples a response documents. */
export function exampleNames(operation: Operation, responseKey: string): string[] {
  return Object.keys(jsonMediaOf(operation.responses[responseKey])?.media.examples ?? {});
}

function fromExamples(media: MediaTypeObject, name?: string): { value: unknown } | undefined {
  const examples = (media.examples ?? {}) as Record<string, { value?: unknown }>;
  const named = name === undefined ? Object.values(examples)[0] : examples[name];
  if (named && 'value' in named) return { value: named.value };
  if (name !== undefined) return undefined;
  if (media.example !== undefined) return { value: media.example };
  const schemaExamples = (media.schema as { examples?: unknown[] } | undefined)?.examples;
  return schemaExamples?.length ? { value: schemaExamples[0] } : undefined;
}
