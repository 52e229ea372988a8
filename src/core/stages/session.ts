// The state stage: which state a request works on, the default one or its session's.
import { errors } from '../../vocabulary/error-catalogue.js';
import type { MockRequest } from '../../vocabulary/request.js';
import { headerValue } from '../headers.js';
import type { MockState, MockStates } from '../state.js';

/** A session id as the `Mock-Session` header gives it. */
const SESSION_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The state a request works on: the session its `Mock-Session` header names, else the default.
 * Only an identified request (one with a credential the mock accepts) makes a session: an
 * anonymous one uses the session if it exists, and the default state if not, so that clients
 * with no credential cannot fill every session slot. A promise only when a session is named.
 * @throws {ApiError} 400 for a header that is not a session id, 503 when no session fits.
 */
export function stateOf(
  request: MockRequest,
  states: MockStates,
  identified: boolean,
): MockState | Promise<MockState> {
  const id = headerValue(request, 'mock-session');
  if (id === undefined) return states.default;
  if (!SESSION_ID.test(id)) throw errors.invalidSession(id);
  if (identified) return states.session(id);
  return states.existing(id).then((state) => state ?? states.default);
}

/**
 * The state of a request refused before its session was read (a 401): its session if that
 * exists, else the default; never an error.
 */
export function knownStateOf(
  request: MockRequest,
  states: MockStates,
): MockState | Promise<MockState> {
  const id = headerValue(request, 'mock-session');
  if (id === undefined || !SESSION_ID.test(id)) return states.default;
  return states.existing(id).then(
    (state) => state ?? states.default,
    () => states.default,
  );
}
