// The produce stage: the answer a forced preference makes, else the operation's handler's.
import type { Answer } from '../../vocabulary/answer.js';
import type { MockRequest } from '../../vocabulary/request.js';
import type { OperationHandler } from '../handler.js';
import { headerValue } from '../headers.js';
import type { Exchange, Route, ScenarioHooks } from '../mock-core.js';
import type { MockState } from '../state.js';
import type { ValidRequest } from '../request-validator.js';
import { NO_PREFERENCES } from './scenario.js';

/** The answer to a checked request, on the state it works on. */
export function produce(
  request: MockRequest,
  to: Extract<Route, { kind: 'operation' }>,
  handler: OperationHandler,
  hooks: ScenarioHooks | undefined,
  state: MockState,
  valid: ValidRequest,
  exchange: Exchange,
): Answer | Promise<Answer> {
  const { operation } = to;
  const { preferences } = exchange;
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
