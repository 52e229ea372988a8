import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ApiError } from './errors.js';

/** What the Authorization header of a request holds. */
export type Credential =
  { kind: 'missing' } | { kind: 'other-scheme' } | { kind: 'bearer'; token: string };

/**
 * Reads an Authorization header. The scheme name is case-insensitive (RFC 9110).
 * @example readCredential('bearer abc') // { kind: 'bearer', token: 'abc' }
 */
export function readCredential(header: string | undefined): Credential {
  const value = header?.trim();
  if (!value) return { kind: 'missing' };
  const match = /^(\S+)(?:\s+(.*))?$/.exec(value);
  const scheme = match?.[1] ?? '';
  const token = match?.[2]?.trim() ?? '';
  if (scheme.toLowerCase() !== 'bearer' || token === '') return { kind: 'other-scheme' };
  return { kind: 'bearer', token };
}

/**
 * A predicate that tells whether a token is one of `keys`. It compares digests in
 * constant time and checks every key, so timing says nothing of how close a guess was.
 * @throws {Error} when `keys` is empty or holds an empty key.
 */
export function createKeyChecker(keys: readonly string[]): (token: string) => boolean {
  if (keys.length === 0) throw new Error('at least one API key is needed');
  if (keys.some((key) => key === '')) throw new Error('an API key cannot be empty');
  const digests = keys.map(digest);
  return (token) => {
    const candidate = digest(token);
    let found = false;
    for (const known of digests) found = timingSafeEqual(known, candidate) || found;
    return found;
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export interface BearerAuthOptions {
  /** The accepted API keys. */
  keys: readonly string[];
  /**
   * Whether a request needs a credential; derived from the spec's security requirements.
   * @default every request needs one
   */
  isProtected?: (method: string, path: string) => boolean;
  /** @default 'petstore-kit' */
  realm?: string;
}

/**
 * Middleware that answers 401 with an Error body unless the request carries
 * `Authorization: Bearer <key>` with an accepted key. It runs before the body is read,
 * so a bad credential gets 401 whatever the body holds.
 * @example app.use('/v1', bearerAuth({ keys: ['secret'] }));
 */
export function bearerAuth(options: BearerAuthOptions): RequestHandler {
  const isAccepted = createKeyChecker(options.keys);
  const isProtected = options.isProtected ?? (() => true);
  const challenge = `Bearer realm="${options.realm ?? 'petstore-kit'}"`;

  return function requireBearer(req, _res, next) {
    if (!isProtected(req.method, req.path)) return next();
    const credential = readCredential(req.headers.authorization);
    switch (credential.kind) {
      case 'missing':
        return next(
          new ApiError(
            401,
            'missing_credential',
            'Send the API key as Authorization: Bearer <API_KEY>',
            {
              'WWW-Authenticate': challenge,
            },
          ),
        );
      case 'other-scheme':
        return next(
          new ApiError(
            401,
            'invalid_credential',
            'The Authorization header must use the Bearer scheme',
            {
              'WWW-Authenticate': challenge,
            },
          ),
        );
      case 'bearer':
        if (isAccepted(credential.token)) return next();
        return next(
          new ApiError(401, 'invalid_credential', 'The API key is not valid', {
            'WWW-Authenticate': `${challenge}, error="invalid_token"`,
          }),
        );
    }
  };
}
