// `--credential <scheme>=<value>` and `--credential <scheme>[read,write]=<token>`: the value of
// one security scheme of the description, and for OAuth 2 / OpenID Connect the scopes it holds.

/** One credential as the flag gives it: the scheme it is for, its value, the scopes it holds. */
export interface CredentialFlag {
  /** The name of a security scheme of the description (`components.securitySchemes`). */
  scheme: string;
  /** The scopes the token holds; absent: every scope the description asks of it. */
  scopes?: string[];
  /** The token, key, or `user:password` for HTTP basic. */
  value: string;
}

/** A credential flag that cannot be read; its message is one line that says how to write it. */
export class CredentialFlagError extends Error {
  override name = 'CredentialFlagError';
}

/** `scheme`, or `scheme[scope,scope]`, before the first `=`. */
const SCHEME = /^([^[\]=\s]+)(?:\[([^[\]]*)\])?$/;

/**
 * Reads one `--credential`: `<scheme>=<value>`, or `<scheme>[<scope>,...]=<token>` for a token
 * that holds those scopes alone. The value is everything after the first `=` (it may hold `=`).
 * @throws {CredentialFlagError} without a scheme, without `=`, or with an empty value.
 * @example parseCredentialFlag('oauth[read,write]=t0k') // { scheme: 'oauth', scopes: ['read', 'write'], value: 't0k' }
 * @example parseCredentialFlag('basicAuth=ada:s3cret') // { scheme: 'basicAuth', value: 'ada:s3cret' }
 */
export function parseCredentialFlag(text: string): CredentialFlag {
  const at = text.indexOf('=');
  const how = 'write it as <scheme>=<value> or <scheme>[scope,...]=<token>';
  // Never echoed: a value given without its scheme is a secret all the same.
  if (at < 0) throw new CredentialFlagError(`a credential has no "=": ${how}`);
  const match = SCHEME.exec(text.slice(0, at).trim());
  if (!match)
    throw new CredentialFlagError(`a credential names no security scheme before "=": ${how}`);
  const value = text.slice(at + 1);
  if (value === '') throw new CredentialFlagError(`the credential of ${match[1]} is empty: ${how}`);
  const scopes = match[2]?.split(/[\s,]+/).filter(Boolean);
  return { scheme: match[1] ?? '', ...(scopes === undefined ? {} : { scopes }), value };
}

/**
 * Reads `CONTRACT_CREDENTIALS`: a JSON object from scheme (or `scheme[scope,...]`) to value.
 * @throws {CredentialFlagError} when it is not such an object.
 * @example parseCredentialsJson('{"oauth[read]": "t", "cookieKey": "k"}') // [{ scheme: 'oauth', scopes: ['read'], value: 't' }, { scheme: 'cookieKey', value: 'k' }]
 */
export function parseCredentialsJson(json: string): CredentialFlag[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new CredentialFlagError(
      'CONTRACT_CREDENTIALS must be a JSON object from security scheme to value, e.g. {"oauth[read]": "<token>", "apiKey": "<key>"}',
    );
  return Object.entries(parsed).map(([scheme, value]) => {
    if (typeof value !== 'string')
      throw new CredentialFlagError(
        `CONTRACT_CREDENTIALS gives ${scheme} a ${value === null ? 'null' : typeof value}: each value must be a string`,
      );
    return parseCredentialFlag(`${scheme}=${value}`);
  });
}
