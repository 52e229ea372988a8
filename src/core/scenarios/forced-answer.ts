import type { Answer } from '../../vocabulary/answer.js';
import { askedForStatus, errors } from '../../vocabulary/error-catalogue.js';
import type { ApiError } from '../../vocabulary/errors.js';
import type { ShapedError } from '../error-shaper.js';
import { exampleNames, type ExampleSource } from '../../openapi/examples.js';
import { responseFor, type Operation } from '../../openapi/operations.js';
import type { Preferences } from './prefer.js';

export interface ForcedAnswerOptions {
  examples: ExampleSource;
  shapeError: (error: ApiError, operation: Operation) => ShapedError;
}

/**
 * The answer a request forces with `Prefer: code=`, `example=` or `dynamic=true`, from the
 * spec alone: the store is never read or changed. Undefined when it forces nothing.
 * - the status must be one the operation documents (or covered by its range or `default`);
 * - its body is the named example, else the first example, else data generated from the
 *   schema (also in place of an example that breaks its schema); `dynamic=true` always
 *   generates;
 * - an error status without an example of its own gets the Error shape, `status` included,
 *   so that a `default` response fits every status it stands for.
 * The sender then checks the answer against the spec, like any other.
 * @throws {ApiError} 400 naming what the operation can answer, for a status or example it lacks.
 * @example forcedAnswer(listCategories, { code: 500 }, options) // { status: 500, body: { code: 'internal_server_error', ... } }
 */
export function forcedAnswer(
  operation: Operation,
  preferences: Preferences,
  options: ForcedAnswerOptions,
): Answer | undefined {
  const { code, example, dynamic } = preferences;
  if (code === undefined && example === undefined && !dynamic) return undefined;
  const status = code ?? operation.successStatus;
  const documented = responseFor(operation, status);
  if (!documented) {
    throw errors.undocumentedStatus(
      operation.operationId,
      status,
      Object.keys(operation.responses),
    );
  }
  if (example !== undefined && !exampleNames(operation, documented.key).includes(example)) {
    const names = exampleNames(operation, documented.key);
    throw errors.noSuchExample(
      `${documented.key} answer of ${operation.operationId}`,
      example,
      names,
    );
  }

  const exact = documented.key === String(status);
  if (status >= 400 && !dynamic && !(exact && exampleNames(operation, status.toString()).length)) {
    const error = options.shapeError(askedForStatus(status), operation);
    return {
      status,
      body: error.body,
      headers: { 'Content-Type': `${error.contentType}; charset=utf-8` },
    };
  }
  const found = options.examples.body(operation, documented.key, {
    ...(example === undefined ? {} : { name: example }),
    ...(dynamic ? { generate: true } : {}),
  });
  if (!found) return { status };
  return {
    status,
    body: fitStatus(found.body, status),
    headers: { 'Content-Type': `${found.mediaType}; charset=utf-8` },
  };
}

/** An error example written for another status (a `default` one) carries this status instead. */
function fitStatus(body: unknown, status: number): unknown {
  if (status < 400 || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  return typeof record.status === 'number' ? { ...record, status } : body;
}
