import { STATUS_CODES } from 'node:http';

/** The body of our own errors, `{code, message, status}`: the categories interface's Error. */
export interface ErrorBody {
  code: string;
  message: string;
  status: number;
}

/**
 * An error the mock answers with: its status, a machine-readable code and a message for the
 * person reading it. Made by the factories of `errors` (error-catalogue.ts), which hold every
 * code and message the mock uses; the core shapes it into the error schema the spec declares
 * for the operation and status.
 * @example throw errors.noOperation('GET', '/v1/dogs');
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
 * A problem that stops the mock before it serves (a spec it cannot read, a data file it cannot
 * use, an option that makes no sense): its message is one line, fit for a CLI, which prints
 * it and exits 1. SpecError and DataFileError are kinds of it.
 */
export class StartupError extends Error {
  override name = 'StartupError';

  /**
   * What went wrong, as `startupErrors` (error-catalogue.ts) names it; none for the problems of
   * a spec, a data file or a store, whose classes (SpecError, ...) say it.
   */
  readonly code: string | undefined;

  constructor(message: string, options?: ErrorOptions & { code?: string }) {
    super(message, options);
    this.code = options?.code;
  }
}

/**
 * The reason phrase of a status, e.g. `Not Found`; undefined for one HTTP does not know.
 * @example reasonPhrase(404) // 'Not Found'
 */
export function reasonPhrase(status: number): string | undefined {
  return STATUS_CODES[status];
}

/**
 * The snake-case name of a status, e.g. `request_timeout`.
 * @example codeOf(431) // 'request_header_fields_too_large'
 */
export function codeOf(status: number): string {
  return (STATUS_CODES[status] ?? 'error').toLowerCase().replace(/[^a-z0-9]+/g, '_');
}
