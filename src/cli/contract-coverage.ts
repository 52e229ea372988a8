// What a contract run exercised, as the table the mock's `coverage` command prints for a
// client's run (core/admin/coverage.ts): every operation by documented status, so a team
// lays the two sides beside each other. The suite counts its answers per rule
// (contract-tests/coverage-hits.ts); this sums them.
import { coverageOf, type Coverage, type CoverageTally } from '../core/admin/coverage.js';
import type { OpenApiDocument } from '../openapi/load.js';
import { listOperations } from '../openapi/operations.js';
import { basePathOf } from '../openapi/servers.js';
import type { ContractPlan } from './contract-plan.js';
import type { RuleOutcome } from './contract-report.js';

/** Answers heard, by operationId, then by status (`"200"`): one rule's, or the run's. */
export type HitCounts = Record<string, Record<string, number>>;

/** An operation no valid request of the run got to, and why. */
export interface Unreached {
  /** `createTicket (POST /projects/{projectId}/tickets)`. */
  operation: string;
  why: string;
}

/**
 * The coverage table of a run from the counts of its rules.
 * @example contractCoverage(spec, [{ listCategories: { '200': 2 } }]).percent // 12.5
 */
export function contractCoverage(spec: OpenApiDocument, counts: readonly HitCounts[]): Coverage {
  const sums = new Map<string, Map<string, number>>();
  for (const rule of counts)
    for (const [operationId, byStatus] of Object.entries(rule)) {
      const hits = sums.get(operationId) ?? new Map<string, number>();
      for (const [status, count] of Object.entries(byStatus))
        hits.set(status, (hits.get(status) ?? 0) + count);
      sums.set(operationId, hits);
    }
  const tally: CoverageTally = {
    hit() {},
    hitsOf: (operation) => sums.get(operation.operationId) ?? new Map<string, number>(),
    clear() {},
  };
  let basePath = '';
  try {
    basePath = basePathOf(spec);
  } catch {
    // Servers that disagree on the base path: the table shows the spec's paths as they are.
  }
  return coverageOf(listOperations(spec), basePath, tally);
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
