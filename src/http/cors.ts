import cors, { type CorsOptions as LibraryCorsOptions } from 'cors';
import type { Request, RequestHandler } from 'express';
import { ApiError } from './errors.js';
import { deprecationHeaders } from '../spec/deprecation.js';
import { operationFinder, type Operation } from '../spec/operations.js';

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
   * The methods the API has at a request path (as express sees it, base path included),
   * or undefined for a path it does not have.
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
 * app.use(corsMiddleware({ origins: ['http://localhost:5173'], ...specCorsRules(operations, (path) => path) }));
 */
export function corsMiddleware(options: CorsOptions): RequestHandler {
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

  const setHeaders = cors<Request>((req, callback) => {
    if (!isPreflight(req)) {
      callback(null, {
        ...shared,
        exposedHeaders: exposedHeaders(req.method, req.path),
        // The library takes every OPTIONS for a preflight: a plain one must go on to the
        // pipeline, without the library's default list of methods.
        methods: [],
        preflightContinue: true,
      });
      return;
    }
    const methods = options.methodsAt(req.path);
    const accepted = allows(methods, requestedMethod(req));
    callback(null, {
      ...shared,
      methods: methods ? [...methods] : [],
      ...(accepted ? { maxAge } : { preflightContinue: true }),
    });
  });

  return function answerCors(req, res, next) {
    setHeaders(req, res, (err?: unknown) => {
      if (err !== undefined && err !== null) return next(err);
      // Only a preflight the API cannot serve comes back from the library unanswered.
      next(isPreflight(req) ? refusal(options.methodsAt(req.path), req) : undefined);
    });
  };
}

/**
 * The CORS rules of a spec: the methods of each path template and, for each operation,
 * the response headers its responses document plus the deprecation headers it is sent with.
 * @param toSpecPath the path as the spec writes it for a request path (the base path
 *   removed), or undefined for a path outside the API.
 * @example specCorsRules(listOperations(spec.resolved), (path) => path.replace(/^\/v1/, ''))
 */
export function specCorsRules(
  operations: readonly Operation[],
  toSpecPath: (path: string) => string | undefined,
): CorsRules {
  const templates = new Map<string, { pattern: RegExp; methods: string[] }>();
  for (const operation of operations) {
    const template = templates.get(operation.path) ?? { pattern: operation.pattern, methods: [] };
    template.methods.push(operation.method.toUpperCase());
    templates.set(operation.path, template);
  }
  const findOperation = operationFinder(operations);
  const documented = new Map(
    operations.map((operation) => [operation, documentedHeaders(operation)] as const),
  );
  const none: readonly string[] = [];

  return {
    methodsAt(path) {
      const specPath = toSpecPath(path);
      if (specPath === undefined) return undefined;
      // Several templates can match one path (/pets/{id} and /pets/mine): any of them may serve it.
      const methods = new Set<string>();
      for (const { pattern, methods: atTemplate } of templates.values()) {
        if (pattern.test(specPath)) for (const method of atTemplate) methods.add(method);
      }
      return methods.size > 0 ? [...methods] : undefined;
    },
    exposedHeadersFor(method, path) {
      const specPath = toSpecPath(path);
      const operation = specPath === undefined ? undefined : findOperation(method, specPath);
      return (operation && documented.get(operation)) ?? none;
    },
  };
}

/** The headers an operation's responses document, and those the mock adds when it is deprecated. */
function documentedHeaders(operation: Operation): readonly string[] {
  const names = new Map<string, string>();
  const add = (name: string) => names.set(name.toLowerCase(), name);
  for (const response of Object.values(operation.definition.responses ?? {})) {
    const headers = (response as { headers?: Record<string, unknown> }).headers ?? {};
    Object.keys(headers).forEach(add);
  }
  Object.keys(deprecationHeaders(operation.definition)).forEach(add);
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

function isPreflight(req: Request): boolean {
  return (
    req.method === 'OPTIONS' &&
    req.headers.origin !== undefined &&
    req.headers['access-control-request-method'] !== undefined
  );
}

function requestedMethod(req: Request): string {
  return String(req.headers['access-control-request-method']).trim();
}

function allows(methods: readonly string[] | undefined, method: string): boolean {
  return methods?.some((known) => known.toUpperCase() === method.toUpperCase()) ?? false;
}

/** The Error a preflight gets for what the API lacks, worded as the pipeline words it. */
function refusal(methods: readonly string[] | undefined, req: Request): ApiError {
  if (!methods) {
    return new ApiError(404, 'not_found', `No operation at ${requestedMethod(req)} ${req.path}`);
  }
  const allow = methods.join(', ');
  return new ApiError(405, 'method_not_allowed', `This path accepts ${allow} only`, {
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
