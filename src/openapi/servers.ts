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
 * (`''` for the root). The mock serves exactly there.
 * @throws {SpecError} when the servers disagree on it.
 * @example basePathOf(spec.resolved) // '/v1'
 */
export function basePathOf(document: OpenApiDocument): string {
  const servers = document.servers?.length ? document.servers : [{ url: '/' }];
  const paths = new Set(
    servers.map((server) =>
      new URL(resolveServerUrl(server), 'http://localhost').pathname.replace(/\/+$/, ''),
    ),
  );
  if (paths.size > 1) {
    throw new SpecError(`the spec's servers disagree on the base path (${[...paths].join(', ')})`);
  }
  return [...paths][0] ?? '';
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
