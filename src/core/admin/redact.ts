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

/** A request as the log shows it: its target and headers, every credential replaced by `***`. */
export interface ShownRequest {
  path: string;
  headers: Record<string, string>;
}

const NO_PLACES: CredentialPlaces = { headers: new Set(), query: new Set(), cookies: new Set() };

/**
 * The target and headers of a request with its credentials redacted: the token of an
 * `Authorization` header (its scheme kept, so that `Bearer ***` still says what was sent), and
 * the API keys the spec's schemes name, in headers, the query and cookies.
 * @example showRequest({ target: '/v1/x?api_key=k', headers: { authorization: 'Bearer k' }, ... }, places)
 * // { path: '/v1/x?api_key=***', headers: { authorization: 'Bearer ***' } }
 */
export function showRequest(
  request: Pick<MockRequest, 'target' | 'headers'>,
  places: CredentialPlaces = NO_PLACES,
): ShownRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    const text = typeof value === 'string' ? value : value.join(', ');
    headers[name] = AUTHORIZATION_HEADERS.includes(name)
      ? redactAuthorization(text)
      : places.headers.has(name)
        ? REDACTED
        : name === 'cookie' && places.cookies.size > 0
          ? redactCookies(text, places.cookies)
          : text;
  }
  return { path: redactQuery(request.target, places.query), headers };
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

function redactQuery(target: string, names: ReadonlySet<string>): string {
  const q = target.indexOf('?');
  if (q === -1 || names.size === 0) return target;
  const query = target
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = at === -1 ? pair : pair.slice(0, at);
      return names.has(decoded(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${target.slice(0, q)}?${query}`;
}

/** A query name as the mock reads it (`+` a space, percent-decoded), or as sent if it does not decode. */
function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
