// The mock's tally of a state's requests, for the coverage table its admin API answers
// (`GET /__mock/coverage`). The table itself is openapi/coverage-table.ts, which
// `petstore-kit contract` makes of its own run too.
import {
  coverageOf,
  type Coverage,
  type OperationHits,
  type SentCredentialParts,
} from '../../openapi/coverage-table.js';
import type { Operation } from '../../openapi/operations.js';
import type { SecurityScheme } from '../../openapi/security-schemes.js';
import type { FaultKind } from '../../vocabulary/answer.js';
import type { MockRequest } from '../../vocabulary/request.js';
import { readCookies } from '../credentials.js';
import { headerValue } from '../headers.js';

export type { Coverage } from '../../openapi/coverage-table.js';
/** What a request came to, for the tally: a status sent, a fault played, a delay. */
interface Outcome {
  status?: number;
  fault?: FaultKind;
  delayed: boolean;
  /**
   * The schemes whose credential it carried (openapi/coverage-table.ts `schemesSent`).
   * @default not counted by scheme
   */
  scheme?: string;
}

/**
 * How many requests each operation answered with each outcome, since the state's last reset:
 * a counter per (operation, outcome) and per (operation, scheme, outcome), so a suite of any
 * length is counted whole (the request log keeps only the newest requests).
 */
export interface CoverageTally {
  hit(operation: Operation, outcome: Outcome): void;
  /** The hits of one operation, by outcome (`"200"`, `"fault:reset"`, `"delay"`) and by scheme. */
  hitsOf(operation: Operation): OperationHits;
  clear(): void;
}

const NONE: OperationHits = { statuses: new Map(), schemes: new Map() };

/**
 * @param run the tally of the whole run, which counts every hit too and which no reset of
 * this one clears (a state's tally is cleared by its reset; the run's, never).
 * @example const tally = createCoverageTally(); tally.hit(operation, { status: 200, delayed: false });
 */
export function createCoverageTally(run?: CoverageTally): CoverageTally {
  const byOperation = new Map<
    Operation,
    { statuses: Map<string, number>; schemes: Map<string, Map<string, number>> }
  >();
  const add = (hits: Map<string, number>, key: string) => hits.set(key, (hits.get(key) ?? 0) + 1);
  return {
    hit(operation, seen) {
      run?.hit(operation, seen);
      const { status, fault, delayed, scheme } = seen;
      let hits = byOperation.get(operation);
      if (!hits) byOperation.set(operation, (hits = { statuses: new Map(), schemes: new Map() }));
      // A malformed answer carries its status, but what the client saw is the fault.
      const outcome = fault ? `fault:${fault}` : status === undefined ? undefined : String(status);
      if (outcome !== undefined) {
        add(hits.statuses, outcome);
        if (scheme !== undefined) {
          let bySchemes = hits.schemes.get(scheme);
          if (!bySchemes) hits.schemes.set(scheme, (bySchemes = new Map()));
          add(bySchemes, outcome);
        }
      }
      if (delayed) add(hits.statuses, 'delay');
    },
    hitsOf: (operation) => byOperation.get(operation) ?? NONE,
    clear: () => byOperation.clear(),
  };
}

/**
 * The coverage table of a state's requests.
 * @example tallied(operations, '/v1', schemes, state.coverage).percent // 62.5
 */
export function tallied(
  operations: readonly Operation[],
  basePath: string,
  schemes: ReadonlyMap<string, SecurityScheme>,
  tally: CoverageTally,
): Coverage {
  return coverageOf(operations, basePath, schemes, (operation) => tally.hitsOf(operation));
}

/**
 * Where a request the mock got carried credentials, read only as far as the spec's schemes ask
 * (a cookie header is parsed only for a cookie scheme).
 * @param search the query of its target, with or without its `?`.
 */
export function credentialPartsOf(request: MockRequest, search: string): SentCredentialParts {
  return new RequestCredentialParts(request, search);
}

/** A class, not an object with a closure: one object per request counted. */
class RequestCredentialParts implements SentCredentialParts {
  readonly authorization: string | undefined;
  #query: URLSearchParams | undefined;
  #cookies: Map<string, string[]> | undefined;

  constructor(
    private readonly request: MockRequest,
    private readonly search: string,
  ) {
    const authorization = headerValue(request, 'authorization');
    this.authorization = authorization === undefined ? undefined : schemeWord(authorization);
  }

  has(place: 'header' | 'query' | 'cookie', name: string): boolean {
    const { request } = this;
    if (place === 'header') return headerValue(request, name.toLowerCase()) !== undefined;
    if (place === 'query') return (this.#query ??= new URLSearchParams(this.search)).has(name);
    return (this.#cookies ??= readCookies(headerValue(request, 'cookie'))).has(name);
  }
}

/** The first word of an Authorization header (its scheme), in lower case; no array made for it. */
function schemeWord(authorization: string): string {
  const space = authorization.search(/\s/);
  return (space === -1 ? authorization : authorization.slice(0, space)).toLowerCase();
}
