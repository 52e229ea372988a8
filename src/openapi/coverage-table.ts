// The coverage table of an API: every operation by documented status and by security
// scheme, with the answers heard. One definition for both sides of a team's run: the mock
// tallies a client's requests (core/admin/coverage.ts), `petstore-kit contract` its own
// (cli/contract-coverage.ts); both classify a request's credential here, from what it
// carried, so the two tables line up row for row.
import type { Operation } from './operations.js';
import type { SecurityScheme } from './security-schemes.js';

/** One status of an operation, and how many requests were answered with it. */
interface CoverageStatus {
  /** As the spec writes it (`200`, `4XX`, `default`), a status it does not document, or a forced scenario (`fault:reset`, `delay`). */
  status: string;
  documented: boolean;
  hits: number;
}

/**
 * The requests of an operation that carried one credential (or none), and what they got.
 * A scheme the operation's security accepts is `expected: 'accepted'` (a valid credential
 * gets its documented answer, a wrong one still a 401); any other is `expected: '401'`.
 */
export interface CoverageScheme {
  /** The spec's name of the scheme, several joined by ` + ` (sent together), or `none`. */
  scheme: string;
  expected: 'accepted' | '401';
  /** Whether the spec makes this row (its schemes and `none`), or only a request did. */
  documented: boolean;
  hits: number;
  /** The statuses got, lowest first (`fault:reset` and the like after them). */
  got: { status: string; hits: number }[];
}

/** An operation's row: its documented statuses first, in the spec's order, then the others seen. */
interface CoverageOperation {
  /** In upper case. */
  method: string;
  /** The spec's path template under the base path: `/v1/categories/{categoryId}`. */
  path: string;
  operationId: string;
  statuses: CoverageStatus[];
  /** Every scheme of the spec on this operation, then `none`, then combinations only requests made. */
  schemes: CoverageScheme[];
}

/**
 * The coverage table (spec/admin.yaml's Coverage), the same shape the contract suite reports:
 * `covered` and `total` count documented (operation, status) pairs, `schemesCovered` and
 * `schemesTotal` documented (operation, scheme) pairs.
 */
export interface Coverage {
  covered: number;
  total: number;
  /** 100 × covered / total, to one decimal; 100 when the spec documents no status. */
  percent: number;
  schemesCovered: number;
  schemesTotal: number;
  operations: CoverageOperation[];
}

/** The scheme key of a request that carried no credential of any scheme of the spec. */
const NO_SCHEME = 'none';

/**
 * What a request carried where credentials travel, as both sides can tell: the mock from the
 * request it got, the contract suite from the request it sent.
 */
export interface SentCredentialParts {
  /** The first word of its Authorization header, in lower case (`bearer`, `basic`). */
  authorization: string | undefined;
  /** Whether it carried this header (any case), query parameter or cookie. */
  has(place: 'header' | 'query' | 'cookie', name: string): boolean;
}

/**
 * The schemes of the spec whose place a request filled, valid or not: `api_key`, `basic +
 * api_key` for two, {@link NO_SCHEME} for none. An API key by its header, query parameter or
 * cookie; an HTTP scheme by the Authorization header's scheme word; OAuth 2 and OpenID Connect
 * as bearer tokens. Mutual TLS is not seen in a request.
 * @example schemesSent({ authorization: 'bearer', has: () => false }, schemes) // 'bearerAuth'
 */
export function schemesSent(
  sent: SentCredentialParts,
  schemes: ReadonlyMap<string, SecurityScheme>,
): string {
  // Counted on every request: no entry arrays, and a list only when two schemes or more are filled.
  let first: string | undefined;
  let more: string[] | undefined;
  schemes.forEach((scheme, name) => {
    if (!filledBy(sent, scheme)) return;
    if (first === undefined) first = name;
    else (more ??= [first]).push(name);
  });
  return more ? more.sort().join(' + ') : (first ?? NO_SCHEME);
}

function filledBy(sent: SentCredentialParts, scheme: SecurityScheme): boolean {
  return scheme.type === 'apiKey'
    ? sent.has(scheme.in, scheme.name)
    : scheme.type === 'http'
      ? sent.authorization === scheme.scheme
      : scheme.type !== 'mutualTLS' && sent.authorization === 'bearer';
}

/** Answers received for one operation: by status, and by scheme key then status. */
export interface OperationHits {
  /** By outcome (`"200"`, `"fault:reset"`, `"delay"`). */
  statuses: ReadonlyMap<string, number>;
  /** By scheme key ({@link schemesSent}), then by outcome. */
  schemes: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

/**
 * The documented status a sent one counts for: itself, else its class (`4XX`), else `default`;
 * undefined when the spec documents none of them.
 * @example documentedAs('404', ['200', '4XX']) // '4XX'
 */
function documentedAs(status: string, documented: readonly string[]): string | undefined {
  if (documented.includes(status)) return status;
  const range = documented.find((key) => key.toUpperCase() === `${status[0]}XX`);
  return range ?? documented.find((key) => key === 'default');
}

/**
 * The coverage table of the operations of one API from the answers heard.
 * @param schemes the security schemes the spec declares (openapi/security-schemes.ts).
 * @example coverageOf(operations, '/v1', schemes, (op) => hits.get(op)).percent // 62.5
 */
export function coverageOf(
  operations: readonly Operation[],
  basePath: string,
  schemes: ReadonlyMap<string, SecurityScheme>,
  hitsOf: (operation: Operation) => OperationHits,
): Coverage {
  let covered = 0;
  let total = 0;
  let schemesCovered = 0;
  let schemesTotal = 0;
  const rows = operations.map((operation): CoverageOperation => {
    const seen = hitsOf(operation);
    const documented = Object.keys(operation.responses);
    const hits = new Map(documented.map((status) => [status, 0]));
    const others = new Map<string, number>();
    for (const [outcome, count] of seen.statuses) {
      const as = /^\d{3}$/.test(outcome) ? documentedAs(outcome, documented) : undefined;
      if (as === undefined) others.set(outcome, (others.get(outcome) ?? 0) + count);
      else hits.set(as, (hits.get(as) ?? 0) + count);
    }
    total += documented.length;
    covered += documented.filter((status) => (hits.get(status) ?? 0) > 0).length;
    const schemeRows = schemeRowsOf(operation, schemes, seen.schemes);
    const listed = schemeRows.filter((row) => row.documented);
    schemesTotal += listed.length;
    schemesCovered += listed.filter((row) => row.hits > 0).length;
    return {
      method: operation.method.toUpperCase(),
      path: `${basePath}${operation.path}`,
      operationId: operation.operationId,
      statuses: [
        ...documented.map((status) => ({ status, documented: true, hits: hits.get(status) ?? 0 })),
        ...[...others]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([status, count]) => ({ status, documented: false, hits: count })),
      ],
      schemes: schemeRows,
    };
  });
  const percent = total === 0 ? 100 : Math.round((1000 * covered) / total) / 10;
  return { covered, total, percent, schemesCovered, schemesTotal, operations: rows };
}

/**
 * An operation's scheme rows: each scheme of the spec alone, each requirement that asks for
 * several together, `none`, then every other combination a request carried.
 */
function schemeRowsOf(
  operation: Operation,
  schemes: ReadonlyMap<string, SecurityScheme>,
  seen: ReadonlyMap<string, ReadonlyMap<string, number>>,
): CoverageScheme[] {
  const requirements = operation.security.map((requirement) => Object.keys(requirement));
  const accepts = (key: string) => {
    const sent = key === NO_SCHEME ? [] : key.split(' + ');
    return (
      requirements.length === 0 ||
      requirements.some((names) => names.every((name) => sent.includes(name)))
    );
  };
  const listed = [
    ...schemes.keys(),
    ...requirements
      .filter((names) => names.length > 1)
      .map((names) => [...names].sort().join(' + ')),
    NO_SCHEME,
  ];
  const keys = [
    ...new Set(listed),
    ...[...seen.keys()].filter((key) => !listed.includes(key)).sort(),
  ];
  return keys.map((key) => {
    const got = [...(seen.get(key) ?? new Map<string, number>())]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, hits]) => ({ status, hits }));
    return {
      scheme: key,
      expected: accepts(key) ? 'accepted' : '401',
      documented: listed.includes(key),
      hits: got.reduce((sum, { hits }) => sum + hits, 0),
      got,
    };
  });
}
