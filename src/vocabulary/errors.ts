import { STATUS_CODES } from 'node:http';
import { StoreDiskFullError, StoreFullError, StoreUnavailableError } from '../store/store.js';
import type { ErrorBody } from '../types.js';

/**
 * An error the mock answers with: its status, a machine-readable code and a message
 * for the person reading it, sent as the spec's Error body.
 * @example throw new ApiError(404, 'not_found', 'No operation at GET /v1/dogs');
 */
export class ApiError extends Error {
  override name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status };
  }
}

/**
 * The mock's own answer breaks the spec: a 500 that names each problem, never the wrong answer.
 * @example invalidResponse(['/response/0/name must be a string'])
 */
export function invalidResponse(problems: readonly string[]): ApiError {
  return new ApiError(
    500,
    'invalid_response',
    `The mock's response breaks the spec: ${problems.join('; ')}`,
  );
}

/** What body-parser and raw-body raise (through http-errors): a status, often a `type`. */
interface HttpError {
  status: number;
  type?: string;
  limit?: number;
  code?: string;
  message: string;
}

/**
 * Maps anything thrown while serving a request to the ApiError to answer with.
 * What it does not recognise becomes a 500 that names no internals.
 * @example toApiError(new StoreFullError('maxRecords', 10)).status // 507
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof StoreFullError || err instanceof StoreDiskFullError)
    return new ApiError(507, 'insufficient_storage', err.message);
  if (err instanceof StoreUnavailableError)
    return new ApiError(503, 'service_unavailable', err.message, {
      'Retry-After': String(err.retryAfterSeconds),
    });
  if (isHttpError(err)) return fromHttpError(err);
  return new ApiError(500, 'internal_error', 'The mock failed to answer this request');
}

function fromHttpError(err: HttpError): ApiError {
  // zlib's codes: Z_DATA_ERROR and the like for gzip and deflate, ERR_BROTLI_* or
  // ERR__ERROR_* (brotli's own decoder errors) for br.
  if (err.code !== undefined && /^(Z_|ERR_BROTLI|ERR__ERROR_)/.test(err.code)) {
    return new ApiError(
      400,
      'malformed_body',
      'The body could not be decompressed: it does not match its Content-Encoding',
    );
  }
  switch (err.type) {
    case 'entity.too.large':
      return new ApiError(
        413,
        'payload_too_large',
        `The body is larger than the limit of ${err.limit} bytes`,
      );
    case 'encoding.unsupported':
      return new ApiError(
        415,
        'unsupported_encoding',
        `${err.message}: send the body uncompressed, or as gzip, deflate or br`,
      );
    case 'charset.unsupported':
      return new ApiError(415, 'unsupported_media_type', `${err.message}: send UTF-8`);
    case 'request.aborted':
      return new ApiError(400, 'bad_request', 'The request was aborted before its body ended');
    case 'request.size.invalid':
      return new ApiError(400, 'bad_request', 'The body is not as long as its Content-Length');
    default:
      return err.status >= 400 && err.status < 500
        ? byStatus(err.status, err.message)
        : new ApiError(500, 'internal_error', 'The mock failed to answer this request');
  }
}

/**
 * An error named after its HTTP status, e.g. 404 -> `not_found`.
 * @example byStatus(431, 'Too many header bytes').code // 'request_header_fields_too_large'
 */
export function byStatus(status: number, message: string): ApiError {
  const safeStatus = STATUS_CODES[status] ? status : 500;
  return new ApiError(safeStatus, codeOf(safeStatus), message);
}

/** The snake-case name of a status, e.g. `request_timeout`. */
export function codeOf(status: number): string {
  return (STATUS_CODES[status] ?? 'error').toLowerCase().replace(/[^a-z0-9]+/g, '_');
}

function isHttpError(err: unknown): err is HttpError {
  return err instanceof Error && typeof (err as Partial<HttpError>).status === 'number';
}
