import type { Operation } from '../openapi/operations.js';
import type { Store } from '../store/store.js';
import type { Answer } from '../vocabulary/answer.js';
import type { MockState } from './state.js';

/** A request as a handler gets it: checked against the spec, its parameters of their types. */
export interface HandlerRequest {
  operation: Operation;
  /**
   * The path the client asked for, its base path included (`/v1/categories`): links to other
   * pages of a list are made from it. Absent from requests a test builds by hand.
   */
  pathname?: string;
  /** Path parameters, by name. */
  params: Record<string, unknown>;
  /** Query parameters, by name, converted to the types their schemas give. */
  query: Record<string, unknown>;
  /** The header parameters the spec documents, by lower-case name. */
  headers: Record<string, unknown>;
  /**
   * The request's `If-Match` and `If-None-Match` fields as sent, documented or not: the
   * conditions of RFC 9110 §13 a write or a read of a tagged record meets. Absent when it sent neither.
   */
  conditions?: { readonly ifMatch?: string; readonly ifNoneMatch?: string };
  /** The cookie parameters the spec documents, by name. */
  cookies: Record<string, unknown>;
  /**
   * The parsed body: JSON as sent; a form-urlencoded or multipart form as an object (its values
   * converted to the schema's types, a file as the base64 of its bytes); text as a string; the
   * bytes of any other media type. Undefined when there was none.
   */
  body: unknown;
}

/** What a handler works on besides its request: the state of the mock it belongs to. */
export interface HandlerContext {
  /** Where the records of the spec's collections live, for the request's session. */
  store: Store;
  /** The session of the request (its `Mock-Session` header); undefined for the default state. */
  session?: string;
  /** The whole state of the request's session: its store, scenario settings and request log. */
  state: MockState;
}

/** Serves one operation: returns its answer (checked against the spec after), or throws an ApiError. */
export type OperationHandler = (
  request: HandlerRequest,
  context: HandlerContext,
) => Answer | Promise<Answer>;

/** What a custom handler may use besides its request. */
export interface CustomHandlerContext extends HandlerContext {
  /** The answer the mock would give without this handler: the inferred state, or the spec's example. */
  next(): Promise<Answer>;
}

/**
 * Replaces the behaviour of one operation in code; its answer is still checked against the
 * spec (one that breaks it is a 500 naming the problem).
 * @example
 * { getHealth: () => ({ status: 200, body: { status: 'degraded' } }) }
 */
export type CustomHandler = (
  request: HandlerRequest,
  context: CustomHandlerContext,
) => Answer | Promise<Answer>;
