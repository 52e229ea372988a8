import type { OpenAPIV3_1 } from 'openapi-types';
import { SpecError, type OpenApiDocument } from './load.js';

type ServerObject = OpenAPIV3_1.ServerObject;

/**
 * The URL of a spec server, its `{variables}` filled from `overrides`, else from their defaults.
 * @throws {SpecError} when an override names a variable the server does not have.
 * @example resolveServerUrl(server, { host: 'localhost:8080' }) // 'https://localhost:8080/v1'
 */
export function resolveServerUrl(
  server: ServerObject,
  overrides: Record<string, string> = {},
): string {
  const variables = server.variables ?? {};
  for (const name of Object.keys(overrides)) {
    if (!(name in variables)) {
      const known = Object.keys(variables).join(', ') || 'none';
      throw new SpecError(`server "${server.url}" has no variable "${name}" (it has: ${known})`);
    }
  }
  return server.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = overrides[name] ?? variables[name]?.default;
    if (value === undefined) throw new SpecError(`server variable "${name}" has no default`);
    return value;
  });
}

/**
 * The path every server of the spec serves the interface under, without a trailing slash
 * (`''` for the root). The mock serves exactly there. With `warn`, servers that disagree are
 * a defect the mock lives with: it serves under the first one's path, and says so; a server
 * URL that does not parse gives the path it seems to have.
 * @throws {SpecError} when the servers disagree on it and there is no `warn`.
 * @example basePathOf(spec.resolved) // '/v1'
 */
export function basePathOf(document: OpenApiDocument, warn?: (line: string) => void): string {
  const servers = document.servers?.length ? document.servers : [{ url: '/' }];
  const paths = [...new Set(servers.map((server) => pathOf(resolveServerUrl(server), warn)))];
  const [first = ''] = paths;
  if (paths.length > 1) {
    const disagree = `the spec's servers disagree on the base path (${paths.join(', ')})`;
    if (!warn) throw new SpecError(disagree);
    warn(`${disagree}: served under the first one's, ${first || '/'}`);
  }
  return first;
}

/** A server URL's path; one that is not a URL (`<port>` for a port), what follows its host. */
function pathOf(url: string, warn?: (line: string) => void): string {
  let path: string;
  try {
    path = new URL(url, 'http://localhost').pathname;
  } catch {
    path = (url.replace(/^[a-z][a-z\d+.-]*:\/\/[^/]*/i, '').split(/[?#]/)[0] ?? '').replace(
      /\/+$/,
      '',
    );
    warn?.(`the server URL ${JSON.stringify(url)} is not a URL: its path ${path || '/'} is used`);
  }
  return path.replace(/\/+$/, '');
}

/**
 * The spec server whose description is `name` (case-insensitive), e.g. `production`.
 * @throws {SpecError} listing the available names when none matches.
 */
export function findServer(document: OpenApiDocument, name: string): ServerObject {
  const servers = document.servers ?? [];
  const found = servers.find((server) => server.description?.toLowerCase() === name.toLowerCase());
  if (!found) {
    const names = servers
      .map((server) => server.description?.toLowerCase() ?? server.url)
      .join(', ');
    throw new SpecError(`the spec has no server "${name}" (it has: ${names || 'none'})`);
  }
  return found;
}
