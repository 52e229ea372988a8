import { SpecError } from '../openapi/load.js';
import type { Operation } from '../openapi/operations.js';
import {
  StoreDiskFullError,
  StoreFullError,
  StoreIdsExhaustedError,
  StoreKeyTakenError,
  StoreUnavailableError,
} from '../store/store.js';
import { errorForStatus, errors } from '../vocabulary/error-catalogue.js';
import { ApiError } from '../vocabulary/errors.js';

/** What the body reader raises (raw-body's http-errors, inflate.ts's): a status, often a `type`. */
interface HttpError {
  status: number;
  type?: string;
  limit?: number;
  code?: string;
  message: string;
}

/**
 * Maps anything thrown while serving a request to the ApiError to answer with: the store's
 * errors, the body reader's, a defect of the spec as a 500 that names it, and what is not
 * recognised as a 500 that names no internals.
 * @example toApiError(new StoreFullError('maxRecords', 10)).status // 507
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (
    err instanceof StoreFullError ||
    err instanceof StoreDiskFullError ||
    err instanceof StoreIdsExhaustedError
  )
    return errors.storeFull(err.message);
  // A create that lost a race for its client-chosen key: the look-up before it found it free.
  if (err instanceof StoreKeyTakenError)
    return errors.recordExists(err.collection, err.idProperty, err.id);
  if (err instanceof StoreUnavailableError)
    return errors.storeUnavailable(err.message, err.retryAfterSeconds);
  // A defect of the spec met while answering (a schema ajv cannot compile, one no data fits).
  if (err instanceof SpecError) return errors.specDefect(err.message);
  if (isHttpError(err)) return fromHttpError(err);
  return errors.internal();
}

function fromHttpError(err: HttpError): ApiError {
  // zlib's codes: Z_DATA_ERROR and the like for gzip and deflate, ERR_BROTLI_* or
  // ERR__ERROR_* (brotli's own decoder errors) for br.
  if (err.code !== undefined && /^(Z_|ERR_BROTLI|ERR__ERROR_)/.test(err.code))
    return errors.undecodableBody();
  switch (err.type) {
    case 'entity.too.large':
      return errors.payloadTooLarge(err.limit ?? 0);
    case 'encoding.unsupported':
      return errors.unsupportedEncoding(err.message);
    case 'charset.unsupported':
      return errors.unsupportedCharset(err.message);
    case 'request.aborted':
      return errors.abortedBody();
    case 'request.size.invalid':
      return errors.shortBody();
    default:
      return err.status >= 400 && err.status < 500
        ? errorForStatus(err.status, err.message)
        : errors.internal();
  }
}

function isHttpError(err: unknown): err is HttpError {
  return err instanceof Error && typeof (err as Partial<HttpError>).status === 'number';
}

/**
 * A refusal of a request in the status the operation documents for it: a body that parses but
 * breaks its schema (422 `validation_failed`) stays 422 where the operation documents `422` and
 * is a 400 where it does not; any other 400 is a 422 where the operation documents `422` and no
 * `400` (a create that documents `422` beside a `default`: the answer its client handles for a
 * body it got wrong); every other error as it is.
 * @example inDocumentedStatus(errors.validationFailed(['/body/message must be a string']), createTicket).status // 422
 */
export function inDocumentedStatus(error: ApiError, operation: Operation | undefined): ApiError {
  const content = error.status === 422 && error.code === errors.contentInvalid.code;
  if (!content && error.status !== 400) return error;
  const documented = operation?.responses['422'] !== undefined;
  if (content)
    return documented ? error : new ApiError(400, error.code, error.message, error.headers);
  if (!documented || operation?.responses['400'] !== undefined) return error;
  return new ApiError(422, error.code, error.message, error.headers);
}
