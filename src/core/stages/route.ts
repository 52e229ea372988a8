// The route stage: where a request goes, found once from its method and target: its path split
// from its query, its API found by base path, and its operation and path parameters by the
// API's router.
import { errors } from '../../vocabulary/error-catalogue.js';
import type { MockRequest } from '../../vocabulary/request.js';
import type { CheckedAnswer } from '../../vocabulary/answer.js';
import type { Operation } from '../../openapi/operations.js';
import { toApiError } from '../error-mapping.js';
import type { ApiError } from '../../vocabulary/errors.js';
import type { MountedApi, OperationRoute, Route } from '../mock-core.js';

/** Finds a request's API by base path, then its operation and path parameters in that API. */
export function createRouting(
  apis: readonly MountedApi[],
): (method: string, target: string) => Route {
  const findApi = apiLocator(apis);
  return function route(method, target) {
    let pathname: string;
    let search: string;
    try {
      ({ pathname, search } = splitTarget(target));
    } catch (err) {
      return { kind: 'invalid', api: undefined, error: toApiError(err) };
    }
    const found = findApi(pathname);
    if (!found) return { kind: 'not-found', api: undefined, pathname, search };
    const { api, below } = found;
    let match: ReturnType<Router['match']>;
    try {
      match = api.router.match(method, below);
    } catch (err) {
      return { kind: 'invalid', api, error: toApiError(err) };
    }
    if (match.kind === 'not-found') return { kind: 'not-found', api, pathname, search };
    if (match.kind === 'method-not-allowed')
      return { kind: 'method-not-allowed', api, allow: match.allow, pathname, search };
    const { operation, params, allow } = match;
    return { kind: 'operation', api, operation, params, allow, pathname, search };
  };
}

/** A route that reached one of the mock's APIs. */
export type ApiRoute = Exclude<Route, { kind: 'invalid' }> & { api: MountedApi };

/**
 * The API a request goes to, or the answer it gets with none: a plain OPTIONS (not a CORS
 * preflight, which the HTTP adapter answers) where the path has no OPTIONS, is told what is allowed.
 * @throws {ApiError} 400 for a target that is not a path, 404 outside every API.
 */
export function apiOf(request: MockRequest, to: Route): ApiRoute | { answer: CheckedAnswer } {
  if (to.kind === 'invalid') throw to.error;
  if (!to.api) throw errors.noOperation(request.method, to.pathname);
  if (request.method === 'OPTIONS' && to.kind === 'method-not-allowed')
    return { answer: { status: 204, headers: { Allow: to.allow.join(', ') }, body: undefined } };
  return to as ApiRoute;
}

/**
 * The operation of a route, for a pipeline that collects refusals (a transparent proxy, the
 * judge): undefined with why there is none collected in `refused` (nothing for an OPTIONS, which
 * every path allows: a CORS preflight, a plain OPTIONS).
 */
export function operationFound(
  request: MockRequest,
  to: Route,
  refused: ApiError[],
): OperationRoute | undefined {
  if (to.kind === 'operation') return to;
  if (to.kind === 'invalid') refused.push(to.error);
  else if (to.kind === 'not-found' || !to.api)
    refused.push(errors.noOperation(request.method, to.pathname));
  else if (request.method !== 'OPTIONS')
    refused.push(errors.methodNotAllowed(to.pathname, to.allow));
  return undefined;
}

/**
 * The operation of a route within its API: checked after the credential, so that a client with
 * none learns nothing of which paths exist (401 before 404).
 * @throws {ApiError} 404 for no operation at the path, 405 for none of its method.
 */
export function operationOf(request: MockRequest, to: ApiRoute): OperationRoute {
  if (to.kind === 'not-found') throw errors.noOperation(request.method, to.pathname);
  if (to.kind === 'method-not-allowed') throw errors.methodNotAllowed(to.pathname, to.allow);
  return to;
}

/**
 * The path and query of a request target. The absolute form (`GET http://host/v1/x`, as
 * sent to proxies) is valid HTTP and is read too.
 * @throws {ApiError} 400 for a target that is neither a path nor a URL.
 * @example splitTarget('/v1/categories?page=2') // { pathname: '/v1/categories', search: 'page=2' }
 */
function splitTarget(url: string): { pathname: string; search: string } {
  let target = url;
  if (!target.startsWith('/')) {
    try {
      const parsed = new URL(target);
      target = `${parsed.pathname}${parsed.search}`;
    } catch {
      throw errors.badTarget();
    }
  }
  const q = target.indexOf('?');
  return q === -1
    ? { pathname: target, search: '' }
    : { pathname: target.slice(0, q), search: target.slice(q + 1) };
}

/**
 * The path below the base path (`/v1/categories` -> `/categories`), or undefined outside it.
 * @example belowBasePath('/v1', '/v1') // '/'
 */
function belowBasePath(basePath: string, path: string): string | undefined {
  if (basePath === '') return path;
  if (path === basePath) return '/';
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : undefined;
}

/**
 * A lookup of the API a path belongs to, by base path, the longest first: `/__mock` beside
 * an API served at the root still finds the admin API.
 * @example apiLocator(apis)('/v1/categories') // { api: (the /v1 API), below: '/categories' }
 */
function apiLocator<Api extends { basePath: string }>(
  apis: readonly Api[],
): (path: string) => { api: Api; below: string } | undefined {
  const longestFirst = [...apis].sort((a, b) => b.basePath.length - a.basePath.length);
  return (path) => {
    for (const api of longestFirst) {
      const below = belowBasePath(api.basePath, path);
      if (below !== undefined) return { api, below };
    }
    return undefined;
  };
}

/** What a request (method, path below the base path) is for. */
type RouteMatch =
  | {
      kind: 'operation';
      operation: Operation;
      /** The path parameters, percent-decoded, as strings. */
      params: Record<string, string>;
      /** The methods served at this path, for `Allow`. */
      allow: readonly string[];
    }
  | { kind: 'method-not-allowed'; allow: readonly string[] }
  | { kind: 'not-found' };

export interface Router {
  /** @throws {ApiError} 400 when a path parameter is not valid percent-encoding. */
  match(method: string, path: string): RouteMatch;
}

interface PathRoute {
  readonly template: string;
  readonly pattern: RegExp | undefined;
  readonly names: readonly string[];
  readonly methods: ReadonlyMap<string, Operation>;
  readonly allow: readonly string[];
}

/** The order methods are listed in `Allow` and CORS answers. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

/**
 * The routes of the spec's operations. A path without parameters is found in a map; the
 * templated ones are tried after it, the most specific first, as OpenAPI asks ("concrete
 * paths are matched before their templated counterparts"): segment by segment from the left,
 * a literal segment before one with a parameter and some text (`{Sid}.json`), and that before
 * a bare parameter; templates alike in that stay in the spec's order. So `/projects/x/environments`
 * goes to `/projects/{uuid}/environments`, not to `/projects/{uuid}/{name}`.
 * HEAD is served wherever GET is, and OPTIONS everywhere, so both are in every `Allow`.
 * @example createRouter(operations).match('GET', '/pets/7') // { kind: 'operation', params: { petId: '7' }, ... }
 */
export function createRouter(operations: readonly Operation[]): Router {
  const byTemplate = new Map<string, Map<string, Operation>>();
  for (const operation of operations) {
    const methods = byTemplate.get(operation.path) ?? new Map<string, Operation>();
    methods.set(operation.method.toUpperCase(), operation);
    byTemplate.set(operation.path, methods);
  }
  const literal = new Map<string, PathRoute>();
  const templated: PathRoute[] = [];
  for (const [template, methods] of byTemplate) {
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
    const route: PathRoute = {
      template,
      pattern: names.length > 0 ? templateToRegExp(withoutTrailingSlash(template)) : undefined,
      names,
      methods,
      allow: allowedMethods(methods),
    };
    // A spec's `/api/` and a request's `/api` are one path, as a request's `/pets/` is `/pets`.
    if (route.pattern) templated.push(route);
    else if (!literal.has(withoutTrailingSlash(template)))
      literal.set(withoutTrailingSlash(template), route);
  }
  // Array.prototype.sort is stable: templates of equal specificity keep the spec's order.
  templated.sort((a, b) => compareSpecificity(a.template, b.template));

  /**
   * The routes that match a path, the most specific first: its literal route, else its
   * templates. Two templates alike but for their parameter names (`PUT /field/{fieldId}`
   * and `DELETE /field/{id}`) both match, and serve their methods between them.
   */
  function find(path: string): { route: PathRoute; values: string[] }[] {
    const trimmed = withoutTrailingSlash(path);
    const exact = literal.get(trimmed);
    if (exact) return [{ route: exact, values: [] }];
    const found: { route: PathRoute; values: string[] }[] = [];
    for (const route of templated) {
      const match = route.pattern?.exec(trimmed);
      if (!match) continue;
      if (
        found.length > 0 &&
        compareSpecificity(found[0]?.route.template ?? '', route.template) !== 0
      )
        break;
      found.push({ route, values: match.slice(1) });
    }
    return found;
  }

  return {
    match(method, path) {
      const found = find(path);
      if (found.length === 0) return { kind: 'not-found' };
      const upper = method.toUpperCase();
      // One route (nearly always): its methods, listed once when the router was made.
      const allow =
        found.length === 1
          ? (found[0]?.route.allow ?? [])
          : [...new Set(found.flatMap(({ route }) => route.allow))].sort(
              (a, b) => rank(a) - rank(b),
            );
      for (const { route, values } of found) {
        const operation =
          route.methods.get(upper) ?? (upper === 'HEAD' ? route.methods.get('GET') : undefined);
        if (!operation) continue;
        const params: Record<string, string> = {};
        route.names.forEach((name, index) => (params[name] = decode(values[index] ?? '', name)));
        return { kind: 'operation', operation, params, allow };
      }
      return { kind: 'method-not-allowed', allow };
    },
  };
}

function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function allowedMethods(methods: ReadonlyMap<string, Operation>): string[] {
  const allow = new Set(methods.keys());
  if (allow.has('GET')) allow.add('HEAD');
  allow.add('OPTIONS');
  return [...allow].sort((a, b) => rank(a) - rank(b));
}

function rank(method: string): number {
  const index = METHOD_ORDER.indexOf(method);
  return index === -1 ? METHOD_ORDER.length : index;
}

/** How specific one segment is: 0 literal, 1 a parameter with text around it, 2 a bare parameter. */
function segmentRank(segment: string): number {
  if (!segment.includes('{')) return 0;
  return /^\{[^}]+\}$/.test(segment) ? 2 : 1;
}

/** Negative when template `a` is to be tried before `b`. */
function compareSpecificity(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = segmentRank(left[i] ?? '') - segmentRank(right[i] ?? '');
    if (difference !== 0) return difference;
    // Of two segments with text around a parameter, the one with more text is narrower.
    const text = literalLength(right[i] ?? '') - literalLength(left[i] ?? '');
    if (text !== 0) return text;
  }
  return 0;
}

function literalLength(segment: string): number {
  return segment.replace(/\{[^}]+\}/g, '').length;
}

function templateToRegExp(template: string): RegExp {
  const source = template
    .split(/\{[^}]+\}/)
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('([^/]+)');
  return new RegExp(`^${source}$`);
}

function decode(value: string, name: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw errors.invalidPath(name);
  }
}
