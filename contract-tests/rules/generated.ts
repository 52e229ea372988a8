import fc, { type Arbitrary } from 'fast-check';
import { invalidBodyArbitrary, validBodyArbitrary } from '../arbitraries.js';
import type { Kit } from '../kit.js';
import type { Rule } from '../rule.js';
import type { ContractTarget } from '../target.js';
import { ContractViolation, TargetUnavailable } from '../verdicts.js';

/**
 * Rules 1, 2 and 4 on bodies fast-check generates from the spec's request schema: valid ones
 * get 201 echoing them exactly, or 400; invalid ones get 400. Seeded and bounded by the
 * target's budget; a failure is shrunk to a minimal body, which the report shows.
 */
export function generatedRules(kit: Kit, options: Pick<ContractTarget, 'seed' | 'budget'>): Rule[] {
  const { spec, create, newCategory } = kit;
  if (options.budget === 0) return [];
  const validRuns = Math.ceil(options.budget / 2);
  const invalidRuns = Math.floor(options.budget / 2);
  const replay = `--seed ${options.seed} --budget ${options.budget}`;
  const shrinkRequests = Math.max(MIN_SHRINK_REQUESTS, options.budget);
  const valid = validBodyArbitrary(newCategory).filter((body) =>
    spec.acceptsRequest(create.operationId, body),
  );
  const invalid = invalidBodyArbitrary(newCategory).filter(
    (body) => !spec.acceptsRequest(create.operationId, body),
  );

  const rules: Rule[] = [
    {
      name: 'createCategory rule 4: generated valid bodies get 201 echoing them exactly, or 400 with an Error body',
      createsData: true,
      check: (ctx) =>
        holdsFor(
          valid,
          { runs: validRuns, seed: options.seed, replay, shrinkRequests },
          async (body) => {
            const exchange = await kit.call(ctx, create, { body: JSON.stringify(body) });
            kit.createdOrRefused(ctx, exchange, body);
          },
        ),
    },
  ];
  if (invalidRuns > 0) {
    rules.push({
      name: 'createCategory rules 1 and 2: generated invalid bodies get 400 with an Error body',
      createsData: false,
      check: (ctx) =>
        holdsFor(
          invalid,
          { runs: invalidRuns, seed: options.seed, replay, shrinkRequests },
          async (body) => {
            const exchange = await kit.call(ctx, create, { body: JSON.stringify(body) });
            kit.conforms(ctx, exchange, create, 400);
          },
        ),
    });
  }
  return rules;
}

/**
 * Runs `check` on `runs` generated values. On a violation, fast-check shrinks the value, one
 * request per try and at most `shrinkRequests` of them; the violation of the smallest failing
 * value is thrown, headed by that value and how to replay the run.
 */
async function holdsFor<T>(
  arbitrary: Arbitrary<T>,
  run: { runs: number; seed: number; replay: string; shrinkRequests: number },
  check: (value: T) => Promise<void>,
): Promise<void> {
  let unavailable: TargetUnavailable | undefined;
  let failed = false;
  let shrinkRequests = 0;
  const result = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      // Passing without a request ends the run (or the shrinking) without touching the target.
      if (unavailable) return;
      if (failed && ++shrinkRequests > run.shrinkRequests) return;
      try {
        await check(value);
      } catch (err) {
        if (err instanceof TargetUnavailable) {
          unavailable = err;
          return;
        }
        failed = true;
        throw err;
      }
    }),
    { seed: run.seed, numRuns: run.runs },
  );
  if (unavailable) throw unavailable;
  if (!result.failed) return;
  const cause = result.errorInstance;
  if (!(cause instanceof ContractViolation)) throw cause;
  throw new ContractViolation(
    [
      `generated body ${result.numRuns} of ${run.runs} broke the rule (seed ${result.seed}); shrunk in ${result.numShrinks} steps to:`,
      `  ${JSON.stringify(result.counterexample?.[0])}`,
      `Replay: ${run.replay}`,
      '',
      cause.message,
    ].join('\n'),
  );
}

/**
 * Requests spent on shrinking one failure, at the least: a failure usually shrinks to a
 * minimal body in a few dozen. The budget raises it: one knob bounds the whole run.
 */
const MIN_SHRINK_REQUESTS = 50;
