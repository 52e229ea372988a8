// Every error the mock answers with, in one place: its status, its code and its message.
// A reader learns the mock's failure modes here; tests assert codes, not message strings.
import { ApiError, codeOf, reasonPhrase, StartupError } from './errors.js';

type Message = string | { message: string; headers: Readonly<Record<string, string>> };

/** Makes the ApiError of one entry; its status and code are readable without making one. */
export interface ErrorFactory<Args extends unknown[]> {
  (...args: Args): ApiError;
  readonly status: number;
  readonly code: string;
}

function define<Args extends unknown[]>(
  status: number,
  code: string,
  message: (...args: Args) => Message,
): ErrorFactory<Args> {
  const make = (...args: Args): ApiError => {
    const written = message(...args);
    return typeof written === 'string'
      ? new ApiError(status, code, written)
      : new ApiError(status, code, written.message, written.headers);
  };
  return Object.assign(make, { status, code });
}

/** A 401 with the challenge of the scheme that was not met. */
function unauthorized<Args extends unknown[]>(
  code: string,
  message: (...args: Args) => string,
): ErrorFactory<[challenge: string, ...Args]> {
  return define(401, code, (challenge: string, ...args: Args): Message => ({
    message: message(...args),
    headers: challenge ? { 'WWW-Authenticate': challenge } : {},
  }));
}

export const errors = {
  // Routing
  noOperation: define(
    404,
    'not_found',
    (method: string, path: string) => `No operation at ${method} ${path}`,
  ),
  methodNotAllowed: define(405, 'method_not_allowed', (path: string, allow: readonly string[]) => ({
    message: `${path} accepts ${allow.join(', ')} only`,
    headers: { Allow: allow.join(', ') },
  })),
  badTarget: define(400, 'bad_request', () => 'The request target is not a path'),
  invalidPath: define(
    400,
    'invalid_path',
    (name: string) => `The path parameter ${name} is not valid percent-encoding`,
  ),
  notServed: define(
    404,
    'not_served',
    (operationId: string, level: string, minimum: string) =>
      `${operationId} is marked x-stability: ${level}, and this mock serves ${minimum} operations and above only (--stability ${minimum})`,
  ),
  notImplemented: define(
    501,
    'not_implemented',
    (operationId: string) => `The mock cannot answer ${operationId}`,
  ),

  // Credentials (each with the challenge of the scheme it failed)
  missingCredential: unauthorized('missing_credential', (how: string) => `Send ${how}`),
  repeatedCredential: unauthorized(
    'invalid_credential',
    (where: string) => `The request has more than one ${where}: send exactly one`,
  ),
  emptyCredential: unauthorized(
    'invalid_credential',
    (scheme: string, how: string) => `The ${scheme} credential is empty: send ${how}`,
  ),
  otherScheme: unauthorized(
    'invalid_credential',
    (scheme: string, how: string) =>
      `The Authorization header must use the ${scheme} scheme: ${how}`,
  ),
  malformedCredential: unauthorized(
    'invalid_credential',
    (what: string) => `The ${what} holds characters a credential cannot have (spaces, for example)`,
  ),
  notUserPassword: unauthorized(
    'invalid_credential',
    (how: string) =>
      `The Basic credential is not the base64 of user:password in UTF-8: send ${how}`,
  ),
  invalidCredential: unauthorized(
    'invalid_credential',
    (what: string) => `The ${what} is not valid`,
  ),

  // The request body
  insufficientScope: unauthorized(
    'insufficient_scope',
    (scopes: readonly string[]) =>
      `The access token lacks the scope${scopes.length === 1 ? '' : 's'} ${scopes.join(', ')} this operation requires`,
  ),
  scopeForbidden: define(
    403,
    'insufficient_scope',
    (challenge: string, scopes: readonly string[]) => ({
      message: `The access token lacks the scope${scopes.length === 1 ? '' : 's'} ${scopes.join(', ')} this operation requires`,
      headers: { 'WWW-Authenticate': challenge },
    }),
  ),

  ambiguousContentType: define(
    400,
    'ambiguous_request',
    () => 'The request has more than one Content-Type header: send exactly one',
  ),
  noContentType: define(
    415,
    'unsupported_media_type',
    (accepted: string) => `The body has no Content-Type header: send it as ${accepted}`,
  ),
  notAMediaType: define(
    415,
    'unsupported_media_type',
    (header: string, accepted: string) =>
      `The Content-Type "${header}" is not a media type: send ${accepted}`,
  ),
  unsupportedCharset: define(
    415,
    'unsupported_media_type',
    (charset: string) => `The charset "${charset}" is not supported: send UTF-8`,
  ),
  unacceptedMediaType: define(
    415,
    'unsupported_media_type',
    (accepted: string, sent: string) => `This operation accepts ${accepted}, not ${sent}`,
  ),
  multipartNotInBrowser: define(
    415,
    'unsupported_media_type',
    () =>
      'The mock in a browser (MSW setupWorker) does not read multipart/form-data: ' +
      'test this operation against the mock server or MSW in Node',
  ),
  unsupportedEncoding: define(
    415,
    'unsupported_encoding',
    (reason: string) => `${reason}: send the body uncompressed, or as gzip, deflate or br`,
  ),
  payloadTooLarge: define(
    413,
    'payload_too_large',
    (limit: number) => `The body is larger than the limit of ${limit} bytes`,
  ),
  undecodableBody: define(
    400,
    'malformed_body',
    () => 'The body could not be decompressed: it does not match its Content-Encoding',
  ),
  abortedBody: define(400, 'bad_request', () => 'The request was aborted before its body ended'),
  shortBody: define(400, 'bad_request', () => 'The body is not as long as its Content-Length'),
  invalidUtf8: define(400, 'invalid_utf8', () => 'The body is not valid UTF-8 text'),
  malformedMultipart: define(
    400,
    'malformed_body',
    (reason: string) => `The body is not multipart/form-data as its Content-Type says: ${reason}`,
  ),
  malformedJson: define(
    400,
    'malformed_json',
    (reason: string) => `The body is not valid JSON: ${reason}`,
  ),
  nestedTooDeep: define(
    400,
    'nested_too_deep',
    (limit: number) =>
      `The body nests deeper than ${limit} levels of objects and arrays, more than the mock reads`,
  ),

  // The spec's rules
  validationFailed: define(400, 'validation_failed', (problems: readonly string[]) =>
    problems.join('; '),
  ),
  /** A body that parses but breaks its schema: 422, or 400 where the operation documents no 422 (error-mapping.ts). */
  contentInvalid: define(422, 'validation_failed', (problems: readonly string[]) =>
    problems.join('; '),
  ),
  recordWouldBreak: define(
    422,
    'validation_failed',
    (change: 'patched' | 'new', problems: readonly string[]) =>
      `The ${change} record would break the schema: ${problems.join('; ')}`,
  ),
  noRecord: define(
    404,
    'not_found',
    (collection: string, idProperty: string, id: unknown) =>
      `There is no record in ${collection} with ${idProperty} ${JSON.stringify(id)}`,
  ),
  recordExists: define(
    409,
    'conflict',
    (collection: string, idProperty: string, id: unknown) =>
      `${collection} already has a record with ${idProperty} ${JSON.stringify(id)}`,
  ),
  preconditionFailed: define(
    412,
    'precondition_failed',
    (collection: string, field: string) =>
      `The ${field} of the request does not match the current version of the record in ${collection}: read it again`,
  ),
  preconditionRequired: define(
    428,
    'precondition_required',
    (field: string) => `Send ${field} with the ETag of the record as last read`,
  ),
  idempotencyKeyReused: define(
    422,
    'idempotency_key_reused',
    (key: string) =>
      `The Idempotency-Key ${JSON.stringify(key)} was used for another request: use a new key for a new request`,
  ),
  idempotencyKeyInUse: define(
    409,
    'idempotency_key_reused',
    (key: string) =>
      `The Idempotency-Key ${JSON.stringify(key)} was used for another request: use a new key for a new request`,
  ),
  idempotencyKeyInProgress: define(
    409,
    'idempotency_key_in_progress',
    (key: string) =>
      `A request under the Idempotency-Key ${JSON.stringify(key)} is still being answered: send it again later`,
  ),
  emptyKey: define(
    400,
    'validation_failed',
    (collection: string, idProperty: string) =>
      `The ${idProperty} is empty: it names the record in the paths of ${collection}, and no path names an empty one`,
  ),
  keysExhausted: define(
    409,
    'conflict',
    (collection: string, idProperty: string) =>
      `${collection} has no free ${idProperty} left: every one its schema allows is taken`,
  ),
  invalidCursor: define(
    400,
    'invalid_cursor',
    (name: string, value: unknown) =>
      `The ${name} ${JSON.stringify(value)} is not a position in this list: send one a previous page gave, or none`,
  ),

  // Scenarios asked for by the request or the admin API
  invalidPreference: define(400, 'invalid_preference', (problem: string) => problem),
  undocumentedStatus: define(
    400,
    'invalid_preference',
    (operationId: string, status: number, documented: readonly string[]) =>
      `${operationId} does not answer ${status}: it documents ${documented.join(', ')}`,
  ),
  noSuchExample: define(
    400,
    'invalid_preference',
    (where: string, name: string, names: readonly string[]) =>
      `The ${where} has no example "${name}"` +
      (names.length ? ` (it has: ${names.join(', ')})` : ' (it has none)'),
  ),
  invalidSettings: define(400, 'invalid_settings', (problem: string) => problem),
  invalidSession: define(
    400,
    'invalid_session',
    (id: string) =>
      `Mock-Session "${id}" is not a session id: send 1 to 64 characters of A-Z, a-z, 0-9, '.', '_' and '-'`,
  ),
  noSuchSession: define(404, 'not_found', (id: string) => `There is no session "${id}"`),
  tooManySessions: define(
    503,
    'too_many_sessions',
    (max: number, ttlSeconds: number, retryAfterSeconds: number) => ({
      message: `The mock holds its limit of ${max} sessions, each used in the last ${ttlSeconds} s: drop one (DELETE /__mock/sessions/{id}), or start the mock with a higher --max-sessions`,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    }),
  ),
  hostNotAllowed: define(
    403,
    'host_not_allowed',
    (host: string) =>
      `The mock does not answer for the host "${host}": only loopback names, the host it listens on, and hosts allowed with --allowed-host (or ALLOWED_HOSTS)`,
  ),
  noSessions: define(
    501,
    'not_implemented',
    () => 'The store this mock was given has no scopes: it cannot keep sessions (Mock-Session)',
  ),

  // The admin API and its inspector page
  noLoggedRequest: define(
    404,
    'not_found',
    (id: number, capacity: number) =>
      `The request log holds no request ${id} (it keeps the last ${capacity}, and a reset empties it)`,
  ),
  noCollection: define(
    404,
    'not_found',
    (name: string, names: readonly string[]) =>
      `There is no collection ${JSON.stringify(name)}` +
      (names.length ? ` (there are: ${names.join(', ')})` : ' (the spec describes none)'),
  ),
  noWebhook: define(
    404,
    'not_found',
    (name: string, names: readonly string[]) =>
      `The spec has no webhook ${JSON.stringify(name)}` +
      (names.length ? ` (it has: ${names.join(', ')})` : ' (it declares none)'),
  ),
  noWebhookReceiver: define(
    409,
    'no_webhook_receiver',
    () =>
      'No receiver subscribes to webhooks: start the mock with --webhook-url <url> (or WEBHOOK_URLS)',
  ),
  inspectorNotBuilt: define(
    404,
    'not_found',
    () => 'The inspector page is not built: `npm run build` builds it into dist/inspector',
  ),

  // The mock itself
  invalidResponse: define(
    500,
    'invalid_response',
    (problems: readonly string[]) => `The mock's response breaks the spec: ${problems.join('; ')}`,
  ),
  internal: define(500, 'internal_error', () => 'The mock failed to answer this request'),
  specDefect: define(
    500,
    'spec_defect',
    (defect: string) => `The mock cannot answer this from the spec: ${defect}`,
  ),
  bodyAlreadyRead: define(
    500,
    'body_already_read',
    () =>
      'The request body was read before it reached the mock: mount the mock before any body parser (express.json(), ...), or give those parsers to your own routes only',
  ),
  storeFull: define(507, 'insufficient_storage', (reason: string) => reason),
  storeUnavailable: define(
    503,
    'service_unavailable',
    (reason: string, retryAfterSeconds: number) => ({
      message: reason,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    }),
  ),

  // The proxy's target
  targetUnreachable: define(
    502,
    'bad_gateway',
    (target: string, reason: string) => `The target ${target} did not answer: ${reason}`,
  ),
  targetTimeout: define(
    504,
    'gateway_timeout',
    (target: string, seconds: number) =>
      `The target ${target} did not answer within ${seconds} s (--target-timeout)`,
  ),

  // What Node's HTTP layer refuses before a request reaches the mock
  expectationFailed: define(
    417,
    'expectation_failed',
    () => 'The only expectation the mock meets is Expect: 100-continue',
  ),
  requestLineTooLong: define(
    414,
    'uri_too_long',
    (limit: number) => `The request line is too long: the mock reads up to ${limit} bytes of head`,
  ),
  headTooLarge: define(
    431,
    'request_header_fields_too_large',
    (limit: number) =>
      `The request headers are too large: the mock reads up to ${limit} bytes of head`,
  ),
  requestTimeout: define(
    408,
    'request_timeout',
    () => 'The request did not arrive in time: send it whole, promptly',
  ),
  chunkExtensionsTooLarge: define(
    413,
    'payload_too_large',
    () => 'The chunk extensions of the body are too large',
  ),
  unknownMethod: define(
    501,
    'not_implemented',
    () => 'The request method is not one the mock knows',
  ),
  lengthAndChunked: define(
    400,
    'bad_request',
    () => 'The request has both Content-Length and Transfer-Encoding: send one',
  ),
  repeatedLength: define(
    400,
    'bad_request',
    () => 'The request has more than one Content-Length header: send exactly one',
  ),
  missingHost: define(
    400,
    'bad_request',
    () => 'An HTTP/1.1 request needs a Host header (RFC 9112 §3.2)',
  ),
  notAProxy: define(
    501,
    'not_implemented',
    () => 'The mock is not a proxy: it does not serve CONNECT',
  ),
  notChunked: define(
    501,
    'not_implemented',
    () => 'The Transfer-Encoding is not chunked: the mock reads chunked bodies only',
  ),
  notHttp: define(
    400,
    'bad_request',
    (reason: string) => `The request is not valid HTTP (${reason})`,
  ),
} as const;

/**
 * An error named after its HTTP status, for statuses the catalogue has no entry of its own for
 * (a `Prefer: code=` or a library's error with a status); a status HTTP does not know is a 500.
 * @example errorForStatus(431, 'Too many header bytes').code // 'request_header_fields_too_large'
 */
export function errorForStatus(status: number, message: string): ApiError {
  const known = reasonPhrase(status) ? status : 500;
  return new ApiError(known, codeOf(known), message);
}

/**
 * The error a request asked for with `Prefer: code=`: any status the operation documents,
 * named after it.
 * @example askedForStatus(503).code // 'service_unavailable'
 */
export function askedForStatus(status: number): ApiError {
  return new ApiError(
    status,
    codeOf(status),
    `The mock answers ${status} because the request asked for it (Prefer: code=${status})`,
  );
}

/** Makes the StartupError of one entry; its code is readable without making one. */
export interface StartupErrorFactory<Args extends unknown[]> {
  (...args: Args): StartupError;
  readonly code: string;
}

function startup<Args extends unknown[]>(
  code: string,
  message: (...args: Args) => string,
): StartupErrorFactory<Args> {
  return Object.assign((...args: Args) => new StartupError(message(...args), { code }), { code });
}

/**
 * The problems that stop the mock before it serves, for which the options are to blame: the
 * CLI and a library call (`startMock`, `createApp`, `mockHandlers`...) get the same one line.
 * `option` names the option as both know it: `port (--port, PORT)`.
 */
export const startupErrors = {
  invalidOption: startup(
    'invalid_option',
    (option: string, problem: string) => `option ${option}: ${problem}`,
  ),
  unknownOption: startup(
    'unknown_option',
    (name: string, known: readonly string[]) =>
      `unknown option ${name}: the options are ${known.join(', ')}`,
  ),
  conflictingOptions: startup(
    'conflicting_options',
    (options: readonly string[], why: string) => `options ${options.join(' and ')}: ${why}`,
  ),
} as const;
