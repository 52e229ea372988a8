import { errors } from '../vocabulary/error-catalogue.js';

/**
 * The path and query of a request target. The absolute form (`GET http://host/v1/x`, as
 * sent to proxies) is valid HTTP and is read too.
 * @throws {ApiError} 400 for a target that is neither a path nor a URL.
 * @example splitTarget('/v1/categories?page=2') // { pathname: '/v1/categories', search: 'page=2' }
 */
export function splitTarget(url: string): { pathname: string; search: string } {
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
export function apiLocator<Api extends { basePath: string }>(
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
