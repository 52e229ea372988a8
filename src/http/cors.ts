import type { IncomingMessage, ServerResponse } from 'node:http';
import cors, { type CorsOptions as LibraryCorsOptions } from 'cors';
import type { Operation } from '../openapi/operations.js';
import { ApiError } from '../vocabulary/errors.js';
import { apiLocator, splitTarget } from './request-target.js';
import type { Router } from '../core/router.js';

/** A connect-style step, as the pipeline runs it before routing. */
type Step = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * Response headers every page may read, whatever the operation: the challenge of a 401,
 * the target of a create, the methods of a 405 and the wait of a 429 or 503.
 */
export const ALWAYS_EXPOSED_HEADERS = [
  'WWW-Authenticate',
  'Location',
  'Allow',
  'Retry-After',
] as const;

/** 10 minutes: browsers cache a preflight that long (Chromium caps it at 2 hours). */
export const DEFAULT_CORS_MAX_AGE = 600;

/** What the CORS middleware must know of the API it fronts; `specCorsRules` derives it from the spec. */
export interface CorsRules {
  /**
   * The methods the API serves at a request path (base path included), or undefined for a
   * path it does not have.
   */
  methodsAt(path: string): readonly string[] | undefined;
  /** The response headers the operation at (method, path) documents, for a page to read. */
  exposedHeadersFor(method: string, path: string): readonly string[];
}

export interface CorsOptions extends CorsRules {
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
 * Middleware that lets pages from other origins call the API: the first step of the
 * pipeline, so that every answer, errors included, carries the CORS headers.
 *
 * A preflight (OPTIONS with Origin and Access-Control-Request-Method) never carries a
 * credential, so it is answered here, before authentication: 204 when the API has the
 * requested method at that path, else the usual 404 or 405 Error, passed on to the error
 * handler with the CORS headers already set, so that the page can read it. Every other
 * request gets its headers and goes on.
 * @throws {Error} when an option is not valid, saying what a valid one looks like.
 * @example
 * corsMiddleware({ origins: ['http://localhost:5173'], ...specCorsRules(apis) })
 */
export function corsMiddleware(options: CorsOptions): Step {
  const origins = checkOrigins(options.origins);
  const maxAge = checkMaxAge(options.maxAge ?? DEFAULT_CORS_MAX_AGE);
  const exposedHeaders = exposedHeaderLists(options);
  const shared: LibraryCorsOptions = {
    origin: origins ?? true,
    credentials: origins !== undefined,
    optionsSuccessStatus: 204,
    // Unset: the headers a preflight asks for (Authorization, Content-Type, custom ones) are echoed.
    allowedHeaders: undefined,
  };

  const setHeaders = cors<IncomingMessage>((req, callback) => {
    if (!isPreflight(req)) {
      callback(null, {
        ...shared,
        exposedHeaders: exposedHeaders(req.method ?? 'GET', pathOf(req)),
        // The library takes every OPTIONS for a preflight: a plain one must go on to the
        // pipeline, without the library's default list of methods.
        methods: [],
        preflightContinue: true,
      });
      return;
    }
    const methods = options.methodsAt(pathOf(req));
    const accepted = allows(methods, requestedMethod(req));
    callback(null, {
      ...shared,
      methods: methods ? [...methods] : [],
      ...(accepted ? { maxAge } : { preflightContinue: true }),
    });
  });

  return function answerCors(req, res, next) {
    // No Origin, no browser asking: nothing to allow or expose (most calls: curl, tests, CI).
    // Vary still tells caches that the answer to a browser would differ.
    if (req.headers.origin === undefined) {
      res.setHeader('Vary', 'Origin');
      return next();
    }
    setHeaders(req, res as never, (err?: unknown) => {
      if (err !== undefined && err !== null) return next(err);
      // Only a preflight the API cannot serve comes back from the library unanswered.
      next(isPreflight(req) ? refusal(options.methodsAt(pathOf(req)), req) : undefined);
    });
  };
}

/** What the CORS rules read of each API the mock serves. */
export interface CorsApi {
  basePath: string;
  router: Router;
  /** The headers the mock adds to every answer of an operation (deprecation, stability). */
  headersOf(operation: Operation): Readonly<Record<string, string>>;
}

/**
 * The CORS rules of the APIs the mock serves: the methods at each path (HEAD and OPTIONS
 * included, as the router serves them) and, for each operation, the response headers its
 * responses document plus those the mock adds to its answers.
 * @example specCorsRules([{ basePath: '/v1', router, headersOf }])
 */
export function specCorsRules(apis: readonly CorsApi[]): CorsRules {
  const documented = new WeakMap<Operation, readonly string[]>();
  const none: readonly string[] = [];
  const locate = apiLocator(apis);
  const match = (method: string, path: string) => {
    const found = locate(path);
    try {
      return found && found.api.router.match(method, found.below);
    } catch {
      return undefined; // a path that does not decode has no operation
    }
  };

  return {
    methodsAt(path) {
      const found = match('OPTIONS', path);
      return found && found.kind !== 'not-found' ? found.allow : undefined;
    },
    exposedHeadersFor(method, path) {
      const found = match(method, path);
      if (found?.kind !== 'operation') return none;
      const { operation } = found;
      let headers = documented.get(operation);
      if (!headers) {
        headers = documentedHeaders(operation, locate(path)?.api.headersOf(operation) ?? {});
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
function exposedHeaderLists(rules: CorsRules): (method: string, path: string) => string {
  const joined = new WeakMap<readonly string[], string>();
  return (method, path) => {
    const documented = rules.exposedHeadersFor(method, path);
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

/** The path of a request target, its query left out (the absolute form read too). */
function pathOf(req: IncomingMessage): string {
  try {
    return splitTarget(req.url ?? '/').pathname;
  } catch {
    return req.url ?? '/'; // not a path: the pipeline answers it with its 400
  }
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

/** The Error a preflight gets for what the API lacks, worded as the pipeline words it. */
function refusal(methods: readonly string[] | undefined, req: IncomingMessage): ApiError {
  if (!methods) {
    return new ApiError(404, 'not_found', `No operation at ${requestedMethod(req)} ${pathOf(req)}`);
  }
  const allow = methods.join(', ');
  return new ApiError(405, 'method_not_allowed', `${pathOf(req)} accepts ${allow} only`, {
    Allow: allow,
  });
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

/** Browsers send an origin serialized as the URL standard does; anything else never matches. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

function checkMaxAge(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < 0) {
    throw new Error(`CORS max age must be a whole number of seconds, 0 or more, not ${seconds}`);
  }
  return seconds;
}
