// The route stage: where a request goes, found once from its method and target.
import { errors } from '../../vocabulary/error-catalogue.js';
import type { MockRequest } from '../../vocabulary/request.js';
import type { CheckedAnswer } from '../../vocabulary/answer.js';
import { toApiError } from '../error-mapping.js';
import type { Route, MountedApi } from '../mock-core.js';
import { apiLocator, splitTarget } from '../request-target.js';
import type { Router } from '../router.js';

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
 * The operation of a route within its API: checked after the credential, so that a client with
 * none learns nothing of which paths exist (401 before 404).
 * @throws {ApiError} 404 for no operation at the path, 405 for none of its method.
 */
export function operationOf(
  request: MockRequest,
  to: ApiRoute,
): Extract<Route, { kind: 'operation' }> {
  if (to.kind === 'not-found') throw errors.noOperation(request.method, to.pathname);
  if (to.kind === 'method-not-allowed') throw errors.methodNotAllowed(to.pathname, to.allow);
  return to;
}
