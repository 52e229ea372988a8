import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
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

/** The error body-parser raises; its `type` says which failure it is. */
interface BodyParserError {
  type: string;
  status: number;
  limit?: number;
  message: string;
}

/** The error express-openapi-validator raises: `errors[]` details, `headers.Allow` on 405. */
interface ValidatorError {
  status: number;
  message: string;
  errors: { path?: string; message: string }[];
  headers?: Record<string, string>;
}

/**
 * Maps anything thrown while serving a request to the ApiError to answer with.
 * What it does not recognise becomes a 500 that names no internals.
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isBodyParserError(err)) return fromBodyParser(err);
  if (isValidatorError(err)) return fromValidator(err);
  return new ApiError(500, 'internal_error', 'The mock failed to answer this request');
}

function fromBodyParser(err: BodyParserError): ApiError {
  switch (err.type) {
    case 'entity.parse.failed':
      return new ApiError(400, 'malformed_json', `The body is not valid JSON: ${err.message}`);
    case 'entity.too.large':
      return new ApiError(
        413,
        'payload_too_large',
        `The body is larger than the limit of ${err.limit} bytes`,
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, 'unsupported_media_type', err.message);
    default:
      return byStatus(err.status, err.message);
  }
}

function fromValidator(err: ValidatorError): ApiError {
  const details = err.errors.map((e) => (e.path ? `${e.path} ${e.message}` : e.message)).join('; ');
  if (err.status === 400) return new ApiError(400, 'validation_failed', details || err.message);
  if (err.status === 405) {
    const allow = err.headers?.Allow ?? err.headers?.allow;
    return allow
      ? new ApiError(405, 'method_not_allowed', `This path accepts ${allow} only`, { Allow: allow })
      : new ApiError(405, 'method_not_allowed', 'This path does not accept this method');
  }
  if (err.status >= 500) return byStatus(500, 'The mock failed to answer this request');
  return byStatus(err.status, details || err.message);
}

/** A code named after the HTTP status itself, e.g. 404 -> `not_found`. */
function byStatus(status: number, message: string): ApiError {
  const safeStatus = STATUS_CODES[status] ? status : 500;
  const code = (STATUS_CODES[safeStatus] ?? 'error').toLowerCase().replace(/[^a-z0-9]+/g, '_');
  return new ApiError(safeStatus, code, message);
}

function isBodyParserError(err: unknown): err is BodyParserError {
  return (
    err instanceof Error &&
    typeof (err as Partial<BodyParserError>).type === 'string' &&
    typeof (err as Partial<BodyParserError>).status === 'number'
  );
}

function isValidatorError(err: unknown): err is ValidatorError {
  return (
    err instanceof Error &&
    typeof (err as Partial<ValidatorError>).status === 'number' &&
    Array.isArray((err as Partial<ValidatorError>).errors)
  );
}

/** The last route: whatever no operation answered. */
export const notFound: RequestHandler = (req, _res, next) => {
  next(new ApiError(404, 'not_found', `No operation at ${req.method} ${req.path}`));
};

/**
 * The one error handler: every failure leaves as the spec's Error body with its status.
 * Failures the mock did not expect are logged with their stack, which never reaches the client.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return function sendError(err, req, res, next) {
    if (res.headersSent) {
      // Too late for an Error body: express ends the connection.
      next(err);
      return;
    }
    const apiError = toApiError(err);
    if (apiError.status >= 500) {
      logger.error({ err, method: req.method, path: req.originalUrl }, apiError.message);
    }
    res.status(apiError.status).set(apiError.headers).json(apiError.toBody());
  };
}
