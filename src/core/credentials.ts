import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../vocabulary/errors.js';
import { repeated } from '../http/headers.js';

/** What the Authorization header of a request holds. */
export type Credential =
  | { kind: 'missing' }
  | { kind: 'repeated' }
  | { kind: 'empty-token' }
  | { kind: 'other-scheme' }
  | { kind: 'malformed' }
  | { kind: 'bearer'; token: string };

/** A bearer token as RFC 6750 writes it (token68). */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Reads an Authorization header. The scheme name is case-insensitive and may be followed
 * by one or more spaces (RFC 9110); the token itself is taken exactly as sent.
 * @example readCredential('bearer abc') // { kind: 'bearer', token: 'abc' }
 */
export function readCredential(header: string | undefined): Credential {
  // Node trims the optional whitespace around a header value already.
  if (header === undefined || header.trim() === '') return { kind: 'missing' };
  const scheme = /^\S*/.exec(header)?.[0] ?? '';
  if (scheme.toLowerCase() !== 'bearer') return { kind: 'other-scheme' };
  const rest = header.slice(scheme.length);
  if (rest.trim() === '') return { kind: 'empty-token' };
  const token = /^ +(.*)$/s.exec(rest)?.[1];
  if (token === undefined || !TOKEN68.test(token)) return { kind: 'malformed' };
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
  // The one-shot hash: no Hash object per request.
  return hash('sha256', value, 'buffer');
}

export interface BearerCheckOptions {
  /** The accepted API keys. */
  keys: readonly string[];
  /** @default 'petstore-kit' */
  realm?: string;
}

/**
 * A check that throws a 401 ApiError, with `WWW-Authenticate`, unless the request carries
 * exactly one `Authorization: Bearer <key>` with an accepted key. The pipeline runs it
 * before reading the body, so a bad credential gets 401 whatever the body holds.
 * @example const check = bearerCheck({ keys: ['secret'] }); check(req); // throws without the key
 */
export function bearerCheck(options: BearerCheckOptions): (req: IncomingMessage) => void {
  const isAccepted = createKeyChecker(options.keys);
  const challenge = `Bearer realm="${options.realm ?? 'petstore-kit'}"`;
  const refuse = (code: string, message: string, error?: string): never => {
    throw new ApiError(401, code, message, {
      'WWW-Authenticate': error ? `${challenge}, error="${error}"` : challenge,
    });
  };

  return function checkBearer(req) {
    const credential = repeated(req, 'authorization')
      ? ({ kind: 'repeated' } as const)
      : readCredential(req.headers.authorization);
    switch (credential.kind) {
      case 'missing':
        return refuse('missing_credential', 'Send the API key as Authorization: Bearer <API_KEY>');
      case 'repeated':
        return refuse(
          'invalid_credential',
          'The request has more than one Authorization header: send exactly one',
          'invalid_request',
        );
      case 'empty-token':
        return refuse(
          'invalid_credential',
          'The Bearer credential is empty: send Authorization: Bearer <API_KEY>',
          'invalid_request',
        );
      case 'other-scheme':
        return refuse(
          'invalid_credential',
          'The Authorization header must use the Bearer scheme: Authorization: Bearer <API_KEY>',
        );
      case 'malformed':
        return refuse(
          'invalid_credential',
          'The bearer token holds characters a token cannot have (spaces, for example)',
          'invalid_request',
        );
      case 'bearer':
        if (!isAccepted(credential.token))
          refuse('invalid_credential', 'The API key is not valid', 'invalid_token');
    }
  };
}
