// The request stages: its credential, its body read once, and its parameters and body checked
// against the spec. The mock runs them in its pipeline; `inspect` (the proxy, the judge) runs
// the same ones and collects what they refuse instead of answering.
import { errors } from '../../vocabulary/error-catalogue.js';
import type { ApiError } from '../../vocabulary/errors.js';
import type { MockRequest } from '../../vocabulary/request.js';
import type { Operation } from '../../openapi/operations.js';
import { toApiError } from '../error-mapping.js';
import type { Inspection, Route } from '../mock-core.js';
import { createBodyDecoder, type ReadBody } from '../request-body.js';
import type { RequestInput, ValidRequest } from '../request-validator.js';
import type { ApiRoute } from './route.js';

export interface RequestChecks {
  /**
   * Throws a 401 unless the request meets its API's security requirements for the route.
   * @returns whether the request is identified, and so may make a session.
   */
  credential(request: MockRequest, to: ApiRoute): boolean;
  /** The body, read and decoded as the operation's media type; a promise only when there is one. */
  body(request: MockRequest, operation: Operation): Promise<ReadBody | undefined> | undefined;
  /** The parameters and body as the spec reads them. @throws {ApiError} 400 for what breaks it. */
  validation(
    request: MockRequest,
    to: Extract<Route, { kind: 'operation' }>,
    body: ReadBody | undefined,
  ): ValidRequest;
  /**
   * What a request breaks of the spec, without answering it (see MockCore.inspect), and the
   * body as read, for the request log. Never throws.
   */
  inspect(request: MockRequest, to: Route): Promise<Inspection>;
}

export function createRequestChecks(
  validate: (operation: Operation, input: RequestInput) => ValidRequest,
): RequestChecks {
  const decodeBody = createBodyDecoder();
  const checks: RequestChecks = {
    credential: (request, to) =>
      to.api.checkCredential(
        request,
        to.search,
        to.kind === 'operation' ? to.operation : undefined,
      ),
    body: (request, operation) =>
      operation.requestBody ? decodeBody(request, operation.requestBody) : undefined,
    validation: (request, to, body) =>
      validate(to.operation, {
        params: to.params,
        search: to.search,
        headers: request.headers,
        body,
      }),
    async inspect(request, to) {
      if (to.kind === 'invalid') return { found: [to.error] };
      if (to.kind === 'not-found' || !to.api)
        return { found: [errors.noOperation(request.method, to.pathname)] };
      if (to.kind === 'method-not-allowed')
        // OPTIONS is allowed wherever the spec has a path (a CORS preflight, a plain OPTIONS).
        return {
          found:
            request.method === 'OPTIONS' ? [] : [errors.methodNotAllowed(to.pathname, to.allow)],
        };
      const found: ApiError[] = [];
      try {
        checks.credential(request, to as ApiRoute);
      } catch (err) {
        found.push(toApiError(err));
      }
      let body: ReadBody | undefined;
      try {
        body = await checks.body(request, to.operation);
      } catch (err) {
        // A body that cannot be read leaves the schemas unchecked.
        found.push(toApiError(err));
        return { found };
      }
      try {
        checks.validation(request, to, body);
      } catch (err) {
        found.push(toApiError(err));
      }
      return body ? { found, body } : { found };
    },
  };
  return checks;
}
