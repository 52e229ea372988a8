import type { ApiError } from '../../vocabulary/errors.js';

/** One way a request breaks the spec: the rule, and what is wrong. */
export interface Breach {
  rule: string;
  message: string;
}

/** The rule each error the core would answer a request with breaks, by its code. */
const RULE_OF_CODE: Readonly<Record<string, string>> = {
  not_found: 'operation',
  method_not_allowed: 'operation',
  bad_request: 'operation',
  invalid_path: 'parameters',
  missing_credential: 'credentials',
  invalid_credential: 'credentials',
  unsupported_media_type: 'media-type',
  ambiguous_request: 'media-type',
  unsupported_encoding: 'media-type',
  malformed_json: 'body',
  malformed_body: 'body',
  invalid_utf8: 'body',
  payload_too_large: 'body',
};

/**
 * The breaches of a request, from the errors the core finds in it (MockCore.inspect): a failed
 * validation lists one per problem, each the body's or the parameters' by where it points.
 * @example requestBreaches([errors.validationFailed(["/body must have required property 'name'"])])
 * // [{ rule: 'body', message: "/body must have required property 'name'" }]
 */
export function requestBreaches(found: readonly ApiError[]): Breach[] {
  return requestFindings(found).filter((finding) => !isAdvisory(finding.message));
}

/**
 * What a request holds that the spec does not describe but does not forbid either: a query
 * parameter the operation does not declare. OpenAPI lists the parameters an operation reads; it
 * never forbids others, so the proxy notes them and holds none against the exchange (the mock
 * itself refuses them by choice, docs/mock.md).
 * @example requestAdvisories([errors.validationFailed(['/query/page is not a known property'])])
 * // [{ rule: 'parameters', message: '/query/page is not a known property' }]
 */
export function requestAdvisories(found: readonly ApiError[]): Breach[] {
  return requestFindings(found).filter((finding) => isAdvisory(finding.message));
}

function requestFindings(found: readonly ApiError[]): Breach[] {
  return found.flatMap((error): Breach[] => {
    if (error.code !== 'validation_failed')
      return [{ rule: RULE_OF_CODE[error.code] ?? error.code, message: error.message }];
    // The validator joins its problems with `; `, each starting with where it is: `/body`, `/query`.
    return error.message.split(/; (?=\/)/).map((message) => ({
      rule: message.startsWith('/body') ? 'body' : 'parameters',
      message,
    }));
  });
}

/** An undeclared query parameter, as the validator's closed query schema words it (schemas.ts). */
const UNDECLARED_QUERY = /^\/query\/[^/]+ is not a known property$/;

function isAdvisory(message: string): boolean {
  return UNDECLARED_QUERY.test(message);
}
