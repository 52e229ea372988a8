// The error stage: any failure on the way as the error the spec declares for the operation and
// status, in its API's error shape.
import type { Operation } from '../../openapi/operations.js';
import { CheckedJson, type CheckedAnswer } from '../../vocabulary/answer.js';
import { inDocumentedStatus, toApiError } from '../error-mapping.js';
import type { MountedApi } from '../mock-core.js';

/**
 * `err` as the answer `api` shapes it to for `operation` (if known); without an API (what
 * Node's HTTP parser refuses reaches none, a server with no mock), as the catalogue writes it:
 * the one fallback error body.
 * @example errorAnswer(errors.missingHost()).status // 400
 */
export function errorAnswer(err: unknown, api?: MountedApi, operation?: Operation): CheckedAnswer {
  const error = inDocumentedStatus(toApiError(err), operation);
  const shaped = api?.shapeError(error, operation) ?? {
    body: error.toBody(),
    contentType: 'application/json',
  };
  return {
    status: error.status,
    headers: { ...error.headers, 'Content-Type': `${shaped.contentType}; charset=utf-8` },
    body: new CheckedJson(Buffer.from(JSON.stringify(shaped.body))),
    reason: error.message,
  };
}
