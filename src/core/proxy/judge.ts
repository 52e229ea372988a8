import type { Operation } from '../../openapi/operations.js';
import type { MockRequest } from '../../vocabulary/request.js';
import type { MockCore } from '../mock-core.js';
import type { ObservedAnswer, createAnswerRules } from './answer-rules.js';
import { requestAdvisories, requestBreaches, type Breach } from './request-rules.js';

/** What judging an exchange needs: the reading of the spec that routes and checks, with no state. */
export interface JudgeReading {
  route: MockCore['route'];
  inspect: MockCore['inspect'];
  answerRules: ReturnType<typeof createAnswerRules>;
}

/** A request as it was sent, its body's bytes decoded from any Content-Encoding. */
export interface SentRequest {
  method: string;
  /** The path below the server's origin, base path and query included: `/v1/pets?limit=2`. */
  target: string;
  /** By lower-case name. */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  body?: Buffer | undefined;
}

/** The verdict on one exchange: what its request broke, what its answer broke. */
export interface Judgement {
  /** The operation the request matched, if any. */
  operation: Operation | undefined;
  /** What the request breaks (an empty list when it fits the spec). */
  request: Breach[];
  /** What the request holds that the spec does not describe but does not forbid. */
  advisories: Breach[];
  /** What the answer breaks; empty when it fits, or when there was no operation to judge it by. */
  answer: Breach[];
}

/**
 * Judges a request against the spec: the same rules the validating proxy applies before it
 * forwards one.
 * @example await judgeRequest(reading, { method: 'POST', target: '/v1/categories', headers, body })
 */
async function judgeRequest(
  reading: JudgeReading,
  sent: SentRequest,
): Promise<Pick<Judgement, 'operation' | 'request' | 'advisories'>> {
  const route = reading.route(sent.method, sent.target);
  const operation = route.kind === 'operation' ? route.operation : undefined;
  const request: MockRequest = {
    method: sent.method,
    target: sent.target,
    headers: sent.headers,
    body: sent.body ?? Buffer.alloc(0),
  };
  const { found } = await reading.inspect(request, route);
  return { operation, request: requestBreaches(found), advisories: requestAdvisories(found) };
}

/**
 * Judges a whole exchange, as the proxy does one that passes through it: for offline traffic
 * (a HAR), a workflow's steps, and every other caller that holds both halves.
 * @example await judgeExchange(reading, { request, answer: { method: 'GET', status: 200, headers, body } })
 */
export async function judgeExchange(
  reading: JudgeReading,
  exchange: { request: SentRequest; answer: ObservedAnswer },
): Promise<Judgement> {
  const judged = await judgeRequest(reading, exchange.request);
  const answer = judged.operation ? reading.answerRules(judged.operation, exchange.answer) : [];
  return { ...judged, answer };
}
