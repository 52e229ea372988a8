import { SpecError, type OperationObject } from './load.js';

/** The spec extensions that date a deprecated operation (ISO 8601 dates). */
interface DatedOperation extends OperationObject {
  'x-deprecated-at'?: string;
  'x-sunset'?: string;
}

/**
 * The headers that announce a deprecated operation: `Deprecation` (RFC 9745, `@` and a
 * Unix time) from `x-deprecated-at` and `Sunset` (RFC 8594, an HTTP-date) from `x-sunset`.
 * Empty for an operation the spec does not mark `deprecated`.
 * @throws {SpecError} when a date does not parse, so a bad spec stops start-up.
 * @example deprecationHeaders(getPetById) // { Deprecation: '@1767225600', Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' }
 */
export function deprecationHeaders(operation: OperationObject): Record<string, string> {
  if (!operation.deprecated) return {};
  const dated = operation as DatedOperation;
  const headers: Record<string, string> = {};
  const deprecatedAt = parseDate(dated['x-deprecated-at'], 'x-deprecated-at', operation);
  if (deprecatedAt) headers.Deprecation = `@${Math.floor(deprecatedAt.getTime() / 1000)}`;
  const sunset = parseDate(dated['x-sunset'], 'x-sunset', operation);
  if (sunset) headers.Sunset = sunset.toUTCString();
  return headers;
}

function parseDate(value: unknown, field: string, operation: OperationObject): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(String(value));
  if (Number.isNaN(date.getTime())) {
    throw new SpecError(
      `${field} of ${operation.operationId ?? 'an operation'} is not a date: "${String(value)}"`,
    );
  }
  return date;
}
