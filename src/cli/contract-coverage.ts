// What a contract run exercised, as the table the mock's `coverage` command prints for a
// client's run: every operation by documented status and by security scheme, one definition
// (openapi/coverage-table.ts), so a team lays the two sides beside each other. The suite
// counts its answers per rule, with where each request put credentials
// (contract-tests/coverage-hits.ts); this sums them and reads the schemes they fill as the
// mock reads a request's.
import {
  coverageOf,
  schemesSent,
  type Coverage,
  type SentCredentialParts,
} from '../openapi/coverage-table.js';
import type { OpenApiDocument } from '../openapi/load.js';
import { listOperations } from '../openapi/operations.js';
import { securitySchemesOf, type SecurityScheme } from '../openapi/security-schemes.js';
import { basePathOf } from '../openapi/servers.js';
import type { ContractPlan } from './contract-plan.js';
import type { RuleOutcome } from './contract-report.js';

/** Answers received, by operationId, then by status (`"200"`): one rule's, or the run's. */
export type HitCounts = Record<string, Record<string, number>>;

/**
 * Answers heard by operationId, then by where the request put credentials (the JSON of
 * contract-tests/coverage-hits.ts `SentPlaces`), then by status.
 */
export type PlaceHitCounts = Record<string, Record<string, Record<string, number>>>;

/** One rule's counts, as its test's metadata hands them over. */
export interface RuleHits {
  statuses: HitCounts;
  /** @default none: a rule that sent nothing counts no scheme */
  places?: PlaceHitCounts;
}

/** An operation no valid request of the run got to, and why. */
export interface Unreached {
  /** `createTicket (POST /projects/{projectId}/tickets)`. */
  operation: string;
  why: string;
}

/**
 * The coverage table of a run from the counts of its rules.
 * @example contractCoverage(spec, [{ statuses: { listCategories: { '200': 2 } } }]).percent // 12.5
 */
export function contractCoverage(spec: OpenApiDocument, counts: readonly RuleHits[]): Coverage {
  let schemes: ReadonlyMap<string, SecurityScheme> = new Map();
  try {
    schemes = securitySchemesOf(spec);
  } catch {
    // A scheme the mock cannot read: the table counts the statuses alone.
  }
  const statuses = new Map<string, Map<string, number>>();
  const bySchemes = new Map<string, Map<string, Map<string, number>>>();
  const add = (hits: Map<string, number>, byStatus: Record<string, number>) => {
    for (const [status, count] of Object.entries(byStatus))
      hits.set(status, (hits.get(status) ?? 0) + count);
  };
  const schemeOf = new Map<string, string>();
  for (const rule of counts) {
    for (const [operationId, byStatus] of Object.entries(rule.statuses)) {
      const hits = statuses.get(operationId) ?? new Map<string, number>();
      add(hits, byStatus);
      statuses.set(operationId, hits);
    }
    for (const [operationId, byPlaces] of Object.entries(rule.places ?? {})) {
      const perScheme = bySchemes.get(operationId) ?? new Map<string, Map<string, number>>();
      for (const [places, byStatus] of Object.entries(byPlaces)) {
        let scheme = schemeOf.get(places);
        if (scheme === undefined)
          schemeOf.set(places, (scheme = schemesSent(partsOf(places), schemes)));
        const hits = perScheme.get(scheme) ?? new Map<string, number>();
        add(hits, byStatus);
        perScheme.set(scheme, hits);
      }
      bySchemes.set(operationId, perScheme);
    }
  }
  let basePath = '';
  try {
    basePath = basePathOf(spec);
  } catch {
    // Servers that disagree on the base path: the table shows the spec's paths as they are.
  }
  return coverageOf(listOperations(spec), basePath, schemes, (operation) => ({
    statuses: statuses.get(operation.operationId) ?? new Map(),
    schemes: bySchemes.get(operation.operationId) ?? new Map(),
  }));
}

/** The places a request filled, from the JSON the suite keys its counts by. */
function partsOf(key: string): SentCredentialParts {
  const sent = JSON.parse(key) as {
    authorization?: string;
    headers?: string[];
    query?: string[];
    cookies?: string[];
  };
  const places = {
    header: new Set((sent.headers ?? []).map((name) => name.toLowerCase())),
    query: new Set(sent.query ?? []),
    cookie: new Set(sent.cookies ?? []),
  };
  return {
    authorization: sent.authorization,
    has: (place, name) => places[place].has(place === 'header' ? name.toLowerCase() : name),
  };
}

/**
 * The operations no request of the run got a 2xx from, each with why: the reason its rules
 * were skipped, `--read-only`, no producer of its path parameters, or what it answered.
 */
export function unreachedOperations(
  plan: ContractPlan,
  coverage: Coverage,
  outcomes: readonly RuleOutcome[],
  readOnly: boolean,
): Unreached[] {
  const produced = new Set(
    plan.collections.flatMap((collection) => Object.values(collection.operations)),
  );
  const found: Unreached[] = [];
  for (const row of coverage.operations) {
    const operation = plan.operations.find((op) => op.operationId === row.operationId);
    if (!operation) continue;
    const answered = row.statuses.filter(({ hits }) => hits > 0);
    if (answered.some(({ status }) => /^2/.test(status))) continue;
    const notes = [
      ...new Set(
        outcomes
          .filter(
            (outcome) =>
              outcome.state === 'skipped' &&
              (outcome.name.startsWith(`${row.operationId}:`) ||
                outcome.name.startsWith(`${row.operationId} rule`)),
          )
          .map((outcome) => outcome.note ?? 'skipped'),
      ),
    ];
    const pathParameters = operation.parameters
      .filter((parameter) => parameter.in === 'path')
      .map((parameter) => parameter.name);
    let why: string;
    if (notes.length > 0) why = notes.join('; ');
    else if (readOnly && operation.method !== 'get')
      why = 'it writes, and --read-only skips what writes';
    else if (pathParameters.length > 0 && !produced.has(row.operationId))
      why = `no operation the suite calls produces its ${pathParameters.map((name) => `\`${name}\``).join(', ')}`;
    else if (answered.length > 0)
      why = `every request got ${answered.map(({ status }) => status).join(', ')}: none was a valid call`;
    else why = 'no rule of the suite calls it';
    found.push({ operation: `${row.operationId} (${row.method} ${row.path})`, why });
  }
  return found;
}
