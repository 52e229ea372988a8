import type { IncomingMessage, ServerResponse } from 'node:http';
import cors, { type CorsOptions as LibraryCorsOptions } from 'cors';
import type { Route } from '../core/mock-core.js';
import type { Operation } from '../openapi/operations.js';
import { errors } from '../vocabulary/error-catalogue.js';
import { isOrigin } from './origin.js';
import type { ApiError } from '../vocabulary/errors.js';

/**
 * What the CORS step does with a request: it answered it (a preflight the API serves), found
 * it refused (a preflight for what the API lacks: the usual 404 or 405), or let it go on,
 * its CORS headers set (`continue`) or, for a request with no Origin, with `Vary: Origin` for
 * its answer to carry (`no-origin`: the sender adds it, in the one head it gives Node).
 */
type CorsOutcome = 'answered' | 'continue' | 'no-origin' | ApiError;

/** The CORS step: sets a request's CORS headers, from its route (found once, by the listener). */
export type CorsStep = (req: IncomingMessage, res: ServerResponse, route: Route) => CorsOutcome;

/**
 * Response headers every page may read, whatever the operation: the challenge of a 401,
 * the target of a create, the methods of a 405 and the wait of a 429 or 503.
 * @internal for its tests: no part of the package's surface
 */
export const ALWAYS_EXPOSED_HEADERS = [
  'WWW-Authenticate',
  'Location',
  'Allow',
  'Retry-After',
] as const;

/**
 * 10 minutes: browsers cache a preflight that long (Chromium caps it at 2 hours).
 * @internal for its tests: no part of the package's surface
 */
export const DEFAULT_CORS_MAX_AGE = 600;

/** What the CORS step reads of a request's route; `specCorsRules` reads it from the spec. */
export interface CorsRules {
  /** The methods served at the route's path (HEAD and OPTIONS included), or undefined where there are none. */
  methodsOf(route: Route): readonly string[] | undefined;
  /** The response headers the route's operation documents or the mock adds, for a page to read. */
  exposedHeadersOf(route: Route): readonly string[];
}

export interface CorsOptions {
  /**
   * The only origins allowed, each as scheme, host and port; credentials (cookies, TLS
   * client certificates) are then allowed too. Without it, any origin is allowed (echoed
   * back, never `*`) and credentials are not.
   * @default undefined: any origin, without credentials
   * @example ['http://localhost:5173', 'https://app.example.com']
   */
  origins?: readonly string[];
  /**
   * How long, in seconds, a browser may reuse a preflight's answer.
   * @default DEFAULT_CORS_MAX_AGE (600)
   */
  maxAge?: number;
}

/**
 * The CORS step that lets pages from other origins call the API: the first thing done with
 * every request, so that every answer, errors included, carries the CORS headers.
 *
 * A preflight (OPTIONS with Origin and Access-Control-Request-Method) never carries a
 * credential, so it is answered here, before authentication: 204 when the API has the
 * requested method at that path, else the usual 404 or 405 Error, returned for the listener to
 * send with the CORS headers already set, so that the page can read it. Every other request
 * gets its headers and goes on.
 * @throws {Error} when an option is not valid, saying what a valid one looks like.
 * @example
 * corsMiddleware({ origins: ['http://localhost:5173'] })(req, res, core.route(req.method, req.url))
 */
export function corsMiddleware(options: CorsOptions, rules: CorsRules = specCorsRules()): CorsStep {
  const origins = checkOrigins(options.origins);
  const maxAge = checkMaxAge(options.maxAge ?? DEFAULT_CORS_MAX_AGE);
  const exposedHeaders = exposedHeaderLists(rules);
  const shared: LibraryCorsOptions = {
    origin: origins ?? true,
    credentials: origins !== undefined,
    optionsSuccessStatus: 204,
    // Unset: the headers a preflight asks for (Authorization, Content-Type, custom ones) are echoed.
    allowedHeaders: undefined,
  };
  /** The library's options for one request: the step sets the route before each call. */
  let current: Route | undefined;
  const setHeaders = cors<IncomingMessage>((req, callback) => {
    const route = current as Route;
    if (!isPreflight(req)) {
      callback(null, {
        ...shared,
        exposedHeaders: exposedHeaders(route),
        // The library takes every OPTIONS for a preflight: a plain one must go on to the
        // core, without the library's default list of methods.
        methods: [],
        preflightContinue: true,
      });
      return;
    }
    const methods = rules.methodsOf(route);
    const accepted = allows(methods, requestedMethod(req));
    callback(null, {
      ...shared,
      methods: methods ? [...methods] : [],
      ...(accepted ? { maxAge } : { preflightContinue: true }),
    });
  });

  return function answerCors(req, res, route) {
    // No Origin, no browser asking: nothing to allow or expose (most calls: curl, tests, CI).
    // Vary still tells caches that the answer to a browser would differ.
    if (req.headers.origin === undefined) return 'no-origin';
    let outcome: CorsOutcome = 'answered';
    current = route;
    // The library calls back at once: its options come from the route, without waiting.
    setHeaders(req, res as never, () => {
      // Only a preflight the API cannot serve comes back from the library unanswered.
      outcome = isPreflight(req) ? refusal(rules.methodsOf(route), req, route) : 'continue';
    });
    current = undefined;
    return outcome;
  };
}

/**
 * The CORS rules of the APIs the mock serves, read off a request's route: the methods at its
 * path (HEAD and OPTIONS included, as the router serves them) and, for its operation, the
 * response headers its responses document plus those the mock adds to its answers.
 * @example specCorsRules().methodsOf(core.route('OPTIONS', '/v1/categories')) // ['GET', 'HEAD', 'POST', 'OPTIONS']
 * @internal for its tests: no part of the package's surface
 */
export function specCorsRules(): CorsRules {
  const documented = new WeakMap<Operation, readonly string[]>();
  const none: readonly string[] = [];
  return {
    methodsOf: (route) =>
      route.kind === 'operation' || route.kind === 'method-not-allowed' ? route.allow : undefined,
    exposedHeadersOf(route) {
      if (route.kind !== 'operation') return none;
      const { operation } = route;
      let headers = documented.get(operation);
      if (!headers) {
        headers = documentedHeaders(operation, route.api.headersOf(operation));
        documented.set(operation, headers);
      }
      return headers;
    },
  };
}

/** The headers an operation's responses document, and those the mock adds to its answers. */
function documentedHeaders(
  operation: Operation,
  added: Readonly<Record<string, string>>,
): readonly string[] {
  const names = new Map<string, string>();
  const add = (name: string) => names.set(name.toLowerCase(), name);
  for (const response of Object.values(operation.responses)) {
    Object.keys((response as { headers?: Record<string, unknown> }).headers ?? {}).forEach(add);
  }
  Object.keys(added).forEach(add);
  // OpenAPI ignores a documented Content-Type, and pages can read it anyway.
  names.delete('content-type');
  return [...names.values()];
}

/** Joins each operation's exposed headers with the always-exposed ones once, not per request. */
function exposedHeaderLists(rules: CorsRules): (route: Route) => string {
  const joined = new WeakMap<readonly string[], string>();
  return (route) => {
    const documented = rules.exposedHeadersOf(route);
    let value = joined.get(documented);
    if (value === undefined) {
      const names = new Map<string, string>();
      for (const name of [...ALWAYS_EXPOSED_HEADERS, ...documented])
        names.set(name.toLowerCase(), name);
      value = [...names.values()].join(', ');
      joined.set(documented, value);
    }
    return value;
  };
}

function isPreflight(req: IncomingMessage): boolean {
  return (
    req.method === 'OPTIONS' &&
    req.headers.origin !== undefined &&
    req.headers['access-control-request-method'] !== undefined
  );
}

function requestedMethod(req: IncomingMessage): string {
  return String(req.headers['access-control-request-method']).trim();
}

function allows(methods: readonly string[] | undefined, method: string): boolean {
  return methods?.some((known) => known.toUpperCase() === method.toUpperCase()) ?? false;
}

/** The Error a preflight gets for what the API lacks, as the core words it. */
function refusal(
  methods: readonly string[] | undefined,
  req: IncomingMessage,
  route: Route,
): ApiError {
  if (route.kind === 'invalid') return route.error;
  if (!methods) return errors.noOperation(requestedMethod(req), route.pathname);
  return errors.methodNotAllowed(route.pathname, methods);
}

function checkOrigins(origins: readonly string[] | undefined): string[] | undefined {
  if (origins === undefined) return undefined;
  if (origins.length === 0) {
    throw new Error(
      'CORS origins: give at least one origin, such as http://localhost:5173, or none at all to allow any origin',
    );
  }
  return origins.map((origin) => {
    if (!isOrigin(origin)) {
      throw new Error(
        `CORS origin "${origin}" is not an origin: give a scheme, a host and an optional port, ` +
          'nothing after them, such as http://localhost:5173 or https://app.example.com',
      );
    }
    return origin;
  });
}

function checkMaxAge(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < 0) {
    throw new Error(`CORS max age must be a whole number of seconds, 0 or more, not ${seconds}`);
  }
  return seconds;
}
