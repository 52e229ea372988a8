// The produce stage: the answer a forced preference makes, else the operation's handler's.
import type { Answer } from '../../vocabulary/answer.js';
import type { MockRequest } from '../../vocabulary/request.js';
import { errors } from '../../vocabulary/error-catalogue.js';
import { headerValue } from '../headers.js';
import type { Exchange, OperationRoute } from '../mock-core.js';
import { NO_PREFERENCES } from './scenario.js';

/**
 * The answer to a checked request, on the state it works on: the forced one, else its
 * operation's handler's.
 * @throws {ApiError} 501 for an operation with no handler.
 */
export function produce(
  request: MockRequest,
  to: OperationRoute,
  exchange: Exchange,
): Answer | Promise<Answer> {
  const { api, operation } = to;
  const handler = api.handlers.get(operation);
  if (!handler) throw errors.notImplemented(operation.operationId);
  const { preferences, state, valid } = exchange;
  // Set by the state and validation stages, which the mock never passes without them.
  if (!state || !valid) throw new Error(`${operation.operationId} produced unchecked`);
  const hooks = api.scenarios;
  const forced =
    hooks && preferences && preferences !== NO_PREFERENCES && hooks.forced(operation, preferences);
  if (forced) return forced;
  // Objects built field by field, not spread: a spread of objects of many shapes (every
  // operation's, every handler's) is V8's slow path here.
  const { params, query, headers, cookies } = valid;
  const { store, session } = state;
  const conditions = conditionsOf(request);
  return handler(
    {
      params,
      query,
      headers,
      cookies,
      body: valid.body,
      operation,
      pathname: to.pathname,
      ...(conditions ? { conditions } : {}),
    },
    session ? { store, state, session } : { store, state },
  );
}

/** The conditional fields of a request (RFC 9110 §13), when it sent any. */
function conditionsOf(
  request: MockRequest,
): { ifMatch?: string; ifNoneMatch?: string } | undefined {
  const { headers } = request;
  if (headers['if-match'] === undefined && headers['if-none-match'] === undefined) return undefined;
  const ifMatch = headerValue(request, 'if-match');
  const ifNoneMatch = headerValue(request, 'if-none-match');
  return {
    ...(ifMatch === undefined ? {} : { ifMatch }),
    ...(ifNoneMatch === undefined ? {} : { ifNoneMatch }),
  };
}
