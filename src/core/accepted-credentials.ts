import type { SecurityScheme } from '../openapi/security-schemes.js';
import { StartupError } from '../vocabulary/errors.js';

/** The credentials a user gives the mock, as the options take them. */
export interface CredentialOptions {
  /**
   * Keys: API keys, bearer tokens, OAuth 2 and OpenID Connect access tokens. `key` is accepted
   * by every such scheme; `scheme=key`, where `scheme` names one of the spec, by that one only;
   * `key[read,write]` is a token that holds those scopes only (without brackets: every scope).
   */
  apiKeys: readonly string[];
  /** `user:password` for every HTTP basic scheme, or `scheme=user:password` for one. */
  basic: readonly string[];
  /** Whether these are the mock's defaults, which are no secret and may be shown. */
  defaults: boolean;
}

/** What each scheme of a spec accepts, settled from the given credentials. */
export interface AcceptedCredentials {
  /** Keys of every scheme that takes a key and was given none of its own. */
  readonly keys: readonly string[];
  /** `user:password` pairs of every HTTP basic scheme given none of its own. */
  readonly basic: readonly string[];
  /** Keys (or pairs, for a basic scheme) given for one scheme, by its name: they replace the above. */
  readonly byScheme: ReadonlyMap<string, readonly string[]>;
  readonly defaults: boolean;
  /**
   * The scopes of each key given as `key[scope,...]`: an OAuth 2 or OpenID Connect token then
   * holds those alone. A key not listed holds every scope.
   */
  readonly scopes?: ReadonlyMap<string, ReadonlySet<string>>;
}

/** A key with the scopes it holds: `token[read,write]`. */
const SCOPED = /^([^[\]]+)\[([^[\]]*)\]$/;

/**
 * Settles which credentials each scheme of a spec accepts: a value prefixed with the name of
 * one of its schemes and `=` is that scheme's alone; any other value is every scheme's of its
 * kind. A value that only looks prefixed (its name is no scheme of the spec) is taken whole,
 * and `warnings` says so, since it is more often a misspelt scheme than a key with `=` in it.
 * @throws {StartupError} for an empty key, a key holding whitespace, a basic credential without
 * a colon, or a prefix naming a scheme of the other kind.
 * @example settleCredentials(schemes, { apiKeys: ['k', 'admin=s'], basic: [], defaults: false }).accepted.byScheme.get('admin') // ['s']
 */
export function settleCredentials(
  schemes: ReadonlyMap<string, SecurityScheme>,
  given: CredentialOptions,
): { accepted: AcceptedCredentials; warnings: string[] } {
  const warnings: string[] = [];
  const byScheme = new Map<string, string[]>();
  const scopes = new Map<string, ReadonlySet<string>>();
  /** The key without its scopes, which are kept in `scopes`. */
  const unscoped = (secret: string): string => {
    const scoped = SCOPED.exec(secret);
    if (!scoped) return secret;
    const key = scoped[1] ?? '';
    const held = (scoped[2] ?? '').split(/[\s,]+/).filter(Boolean);
    scopes.set(key, new Set([...(scopes.get(key) ?? []), ...held]));
    return key;
  };
  const settle = (values: readonly string[], basic: boolean): string[] => {
    const everyScheme: string[] = [];
    for (const value of values) {
      const at = value.indexOf('=');
      const prefix = at > 0 ? value.slice(0, at) : '';
      const scheme = schemes.get(prefix);
      const whole = scheme ? value.slice(at + 1) : value;
      const secret = basic ? whole : unscoped(whole);
      const what = basic ? 'a basic credential' : 'an API key';
      if (secret === '') throw new StartupError(`${what} cannot be empty`);
      // Most often a list separated with spaces instead of commas; and no bearer token can
      // hold a space (token68), so such a key would never let a request in.
      if (!basic && /\s/.test(secret))
        throw new StartupError(
          `${what} cannot hold whitespace: no request could send it as a bearer token (separate several keys with commas)`,
        );
      if (basic && !secret.includes(':'))
        throw new StartupError(
          `a basic credential must be user:password${scheme ? ` (for scheme ${prefix})` : ''}: it has no colon`,
        );
      if (!scheme) {
        if (/^[A-Za-z][\w.-]*$/.test(prefix) && !value.startsWith('=', at + 1))
          warnings.push(
            `${what} starts with "${prefix}=", but the spec has no security scheme ${prefix}: it is taken whole, for every scheme`,
          );
        everyScheme.push(secret);
        continue;
      }
      const isBasic = scheme.type === 'http' && scheme.scheme === 'basic';
      if (isBasic !== basic)
        throw new StartupError(
          basic
            ? `security scheme ${prefix} takes a key, not a user and password: give it as an API key`
            : `security scheme ${prefix} is HTTP basic: give it a user:password as a basic credential`,
        );
      byScheme.set(prefix, [...(byScheme.get(prefix) ?? []), secret]);
    }
    return everyScheme;
  };
  const keys = settle(given.apiKeys, false);
  const basic = settle(given.basic, true);
  return {
    accepted: {
      keys,
      basic,
      byScheme,
      defaults: given.defaults,
      ...(scopes.size > 0 ? { scopes } : {}),
    },
    warnings,
  };
}

/**
 * Every key given, for every scheme or for one: what the admin API, whose one scheme is its
 * own, accepts.
 * @example everyKey(accepted) // ['k', 's']
 */
export function everyKey(
  accepted: AcceptedCredentials,
  schemes: ReadonlyMap<string, SecurityScheme>,
): string[] {
  const keys = [...accepted.keys];
  for (const [name, values] of accepted.byScheme) {
    const scheme = schemes.get(name);
    if (!(scheme?.type === 'http' && scheme.scheme === 'basic')) keys.push(...values);
  }
  return [...new Set(keys)];
}
