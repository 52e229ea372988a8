import { hash, timingSafeEqual } from 'node:crypto';
import { SpecError, type OpenApiDocument } from '../openapi/load.js';
import type { Operation } from '../openapi/operations.js';
import { errors } from '../vocabulary/error-catalogue.js';
import type { MockRequest } from '../vocabulary/request.js';
import { repeated } from './headers.js';

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

/** How a client sends the key, in every message that asks for it. */
const SEND_KEY = 'Authorization: Bearer <API_KEY>';

/**
 * A check that throws a 401 ApiError, with `WWW-Authenticate`, unless the request carries
 * exactly one `Authorization: Bearer <key>` with an accepted key. The core runs it before
 * reading the body, so a bad credential gets 401 whatever the body holds.
 * @example const check = bearerCheck({ keys: ['secret'] }); check(request); // throws without the key
 */
export function bearerCheck(options: BearerCheckOptions): (request: MockRequest) => void {
  const isAccepted = createKeyChecker(options.keys);
  const challenge = `Bearer realm="${options.realm ?? 'petstore-kit'}"`;
  const withError = (error: string) => `${challenge}, error="${error}"`;

  return function checkBearer(request) {
    const header = request.headers.authorization;
    const credential = repeated(request, 'authorization')
      ? ({ kind: 'repeated' } as const)
      : readCredential(typeof header === 'string' ? header : undefined);
    switch (credential.kind) {
      case 'missing':
        throw errors.missingCredential(challenge, `the API key as ${SEND_KEY}`);
      case 'repeated':
        throw errors.repeatedCredential(withError('invalid_request'), 'Authorization');
      case 'empty-token':
        throw errors.emptyCredential(withError('invalid_request'), 'Bearer', SEND_KEY);
      case 'other-scheme':
        throw errors.otherScheme(challenge, 'Bearer', SEND_KEY);
      case 'malformed':
        throw errors.malformedCredential(withError('invalid_request'), 'bearer token');
      case 'bearer':
        if (!isAccepted(credential.token))
          throw errors.invalidCredential(withError('invalid_token'), 'API key');
    }
  };
}

/**
 * Refuses a spec whose operations need a scheme the mock does not enforce: any other would be
 * silently left open.
 * @throws {SpecError}
 */
export function assertEnforceable(
  document: OpenApiDocument,
  operations: readonly Operation[],
): void {
  const schemes = document.components?.securitySchemes ?? {};
  const used = new Set(
    operations.flatMap((op) => op.security.flatMap((requirement) => Object.keys(requirement))),
  );
  for (const name of used) {
    const scheme = schemes[name] as { type?: string; scheme?: string } | undefined;
    if (scheme?.type !== 'http' || scheme.scheme?.toLowerCase() !== 'bearer') {
      throw new SpecError(
        `security scheme "${name}" is not HTTP bearer, the only scheme the mock enforces`,
      );
    }
  }
}
