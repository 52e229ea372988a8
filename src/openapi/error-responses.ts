import type { OpenAPIV3_1 } from 'openapi-types';
import { jsonMediaOf, responseFor, type Operation } from './operations.js';

type ResponseObject = OpenAPIV3_1.ResponseObject;

/**
 * Where a document's errors take their shape when no operation is known (a path the spec
 * lacks, a request Node's parser refused) or the operation documents nothing for the status:
 * the JSON response its operations most often give that status (exactly, by range or as
 * `default`), else the one they most often give any error.
 * @example documentErrorResponses(operations)(404)?.content // { 'application/problem+json': ... }
 */
export function documentErrorResponses(
  operations: readonly Operation[],
): (status: number) => ResponseObject | undefined {
  const byStatus = new Map<number, ResponseObject | undefined>();
  const anyError = mostCommon(
    operations.flatMap((operation) =>
      Object.entries(operation.responses)
        .filter(([key]) => key === 'default' || /^[45]/.test(key))
        .map(([, response]) => response),
    ),
  );
  return (status) => {
    if (!byStatus.has(status)) {
      const given = operations.map((operation) => responseFor(operation, status)?.response);
      byStatus.set(status, mostCommon(given) ?? anyError);
    }
    return byStatus.get(status);
  };
}

/** The response with JSON content given most often, by the identity of its schema. */
function mostCommon(
  responses: readonly (ResponseObject | undefined)[],
): ResponseObject | undefined {
  const counts = new Map<unknown, { response: ResponseObject; count: number }>();
  for (const response of responses) {
    const schema = jsonMediaOf(response)?.schema;
    if (!response || !schema) continue;
    const entry = counts.get(schema) ?? { response, count: 0 };
    entry.count++;
    counts.set(schema, entry);
  }
  let best: { response: ResponseObject; count: number } | undefined;
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  return best?.response;
}
