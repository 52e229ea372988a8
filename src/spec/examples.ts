import { sample } from 'openapi-sampler';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Operation } from './operations.js';

type MediaTypeObject = OpenAPIV3_1.MediaTypeObject;

/**
 * The body a stateless operation answers with, from its success response in the spec:
 * the first named example, else `example`, else the schema's own examples, else data
 * generated from the schema. `undefined` when the response has no JSON content.
 * @example exampleBody(getPetById) // { id: 10, name: 'Rex' }
 */
export function exampleBody(operation: Operation): unknown {
  const response = operation.definition.responses?.[String(operation.successStatus)];
  const media = (response as OpenAPIV3_1.ResponseObject | undefined)?.content?.['application/json'];
  if (!media) return undefined;
  return fromExamples(media) ?? sample(media.schema as never, { skipReadOnly: false });
}

function fromExamples(media: MediaTypeObject): unknown {
  const [named] = Object.values(media.examples ?? {});
  if (named && 'value' in named) return named.value;
  if (media.example !== undefined) return media.example;
  const schemaExamples = (media.schema as { examples?: unknown[] } | undefined)?.examples;
  return schemaExamples?.[0];
}
