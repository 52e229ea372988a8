import { SpecError, type OpenApiDocument } from './load.js';

/** Where an API key is sent. */
type ApiKeyLocation = 'header' | 'query' | 'cookie';

/**
 * A security scheme of the spec, as the mock enforces it: an API key in a header, the query or
 * a cookie; an HTTP authentication scheme (its name lower-cased: `bearer`, `basic`, `digest`);
 * OAuth 2 and OpenID Connect, whose access tokens travel as bearer tokens; mutual TLS.
 */
export type SecurityScheme =
  | { readonly type: 'apiKey'; readonly in: ApiKeyLocation; readonly name: string }
  | { readonly type: 'http'; readonly scheme: string }
  | { readonly type: 'oauth2' }
  | { readonly type: 'openIdConnect' }
  | { readonly type: 'mutualTLS' };

/**
 * The security schemes a (resolved) document declares, by name.
 * @throws {SpecError} for a scheme the mock cannot read (an unknown type, an API key without a
 * name or place, an HTTP scheme without a scheme name).
 * @example securitySchemesOf(document).get('api_key') // { type: 'apiKey', in: 'header', name: 'X-API-Key' }
 */
export function securitySchemesOf(document: OpenApiDocument): ReadonlyMap<string, SecurityScheme> {
  const declared = (document.components?.securitySchemes ?? {}) as Record<string, unknown>;
  const schemes = new Map<string, SecurityScheme>();
  for (const [name, value] of Object.entries(declared)) {
    const scheme = (typeof value === 'object' && value !== null ? value : {}) as Record<
      string,
      unknown
    >;
    const refuse = (why: string) =>
      new SpecError(`security scheme "${name}" cannot be enforced: ${why}`);
    switch (scheme.type) {
      case 'apiKey': {
        const where = scheme.in;
        if (where !== 'header' && where !== 'query' && where !== 'cookie')
          throw refuse(`"in" must be header, query or cookie, not ${JSON.stringify(where)}`);
        if (typeof scheme.name !== 'string' || scheme.name === '')
          throw refuse('it names no header, query parameter or cookie ("name")');
        schemes.set(name, { type: 'apiKey', in: where, name: scheme.name });
        break;
      }
      case 'http':
        if (typeof scheme.scheme !== 'string' || !/^[\w!#$%&'*+.^`|~-]+$/.test(scheme.scheme))
          throw refuse('its "scheme" is not an HTTP authentication scheme name');
        schemes.set(name, { type: 'http', scheme: scheme.scheme.toLowerCase() });
        break;
      case 'oauth2':
      case 'openIdConnect':
      case 'mutualTLS':
        schemes.set(name, { type: scheme.type });
        break;
      default:
        throw refuse(`its type ${JSON.stringify(scheme.type)} is not one OpenAPI defines`);
    }
  }
  return schemes;
}

/**
 * The query parameters that carry an API key under these requirements: they are credentials,
 * not parameters of the operation, so the request check leaves them out.
 * @example apiKeysInQuery([{ apiKeyQuery: [] }], schemes) // ['api_key']
 */
export function apiKeysInQuery(
  requirements: readonly Readonly<Record<string, readonly string[]>>[],
  schemes: ReadonlyMap<string, SecurityScheme>,
): string[] {
  const names = new Set<string>();
  for (const requirement of requirements) {
    for (const name of Object.keys(requirement)) {
      const scheme = schemes.get(name);
      if (scheme?.type === 'apiKey' && scheme.in === 'query') names.add(scheme.name);
    }
  }
  return [...names];
}
