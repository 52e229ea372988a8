// What the request log must never keep: the credentials a request carried. The log is read by
// anyone with a key (and shown on the inspector page, perhaps on a shared screen), and a
// credential of the app under test is not the mock's to show.
import type { SecurityScheme } from '../../openapi/security-schemes.js';
import type { MockRequest } from '../../vocabulary/request.js';

/** What replaces a secret in the log. */
export const REDACTED = '***';

/** Where an API's credentials travel, besides `Authorization` (always a credential). */
export interface CredentialPlaces {
  /** Header names, lower case. */
  headers: ReadonlySet<string>;
  /** Query parameter names, as sent. */
  query: ReadonlySet<string>;
  /** Cookie names. */
  cookies: ReadonlySet<string>;
}

/** Headers that hold a credential whatever the spec says (RFC 9110). */
const AUTHORIZATION_HEADERS = ['authorization', 'proxy-authorization'];

/**
 * Where the API keys of these security schemes travel.
 * @example credentialPlaces(securitySchemesOf(document)).headers // Set { 'x-api-key' }
 */
export function credentialPlaces(schemes: ReadonlyMap<string, SecurityScheme>): CredentialPlaces {
  const places = {
    headers: new Set<string>(),
    query: new Set<string>(),
    cookies: new Set<string>(),
  };
  for (const scheme of schemes.values()) {
    if (scheme.type !== 'apiKey') continue;
    if (scheme.in === 'header') places.headers.add(scheme.name.toLowerCase());
    else if (scheme.in === 'query') places.query.add(scheme.name);
    else places.cookies.add(scheme.name);
  }
  return places;
}

const NO_PLACES: CredentialPlaces = { headers: new Set(), query: new Set(), cookies: new Set() };

/**
 * A request's headers with their credentials redacted: the token of an `Authorization` header
 * (its scheme kept, so that `Bearer ***` still says what was sent), and the API keys the spec's
 * schemes put in headers and cookies. Repeated values are joined as HTTP joins list headers.
 * @example redactHeaders({ authorization: 'Bearer k', host: 'a' }) // { authorization: 'Bearer ***', host: 'a' }
 */
export function redactHeaders(
  headers: MockRequest['headers'],
  places: CredentialPlaces = NO_PLACES,
): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = typeof value === 'string' ? value : value.join(', ');
    shown[name] = AUTHORIZATION_HEADERS.includes(name)
      ? redactAuthorization(text)
      : places.headers.has(name)
        ? REDACTED
        : name === 'cookie' && places.cookies.size > 0
          ? redactCookies(text, places.cookies)
          : text;
  }
  return shown;
}

/**
 * A request target with the API keys the spec's schemes put in the query redacted.
 * @example redactTarget('/v1/x?api_key=k&a=1', places) // '/v1/x?api_key=***&a=1'
 */
export function redactTarget(target: string, places: CredentialPlaces = NO_PLACES): string {
  const q = target.indexOf('?');
  if (q === -1 || places.query.size === 0) return target;
  const query = target
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = at === -1 ? pair : pair.slice(0, at);
      return places.query.has(decoded(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${target.slice(0, q)}?${query}`;
}

/** `Bearer abc` → `Bearer ***`; a value with no scheme is all secret. */
function redactAuthorization(value: string): string {
  const scheme = /^(\S+)\s+\S/.exec(value)?.[1];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

function redactCookies(header: string, names: ReadonlySet<string>): string {
  return header
    .split(';')
    .map((piece) => {
      const at = piece.indexOf('=');
      const name = (at === -1 ? piece : piece.slice(0, at)).trim();
      return names.has(name)
        ? `${piece.slice(0, piece.indexOf(name) + name.length)}=${REDACTED}`
        : piece;
    })
    .join(';');
}

/** A query name as the mock reads it (`+` a space, percent-decoded), or as sent if it does not decode. */
function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
