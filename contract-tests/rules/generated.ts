import fc, { type Arbitrary } from 'fast-check';
import { invalidBodyArbitrary, validBodyArbitrary } from '../arbitraries.js';
import type { Kit } from '../kit.js';
import { jsonRequestOf } from '../plan.js';
import type { Rule } from '../rule.js';
import type { ContractTarget } from '../target.js';
import { BudgetReached, ContractViolation, RuleSkipped, TargetUnavailable } from '../verdicts.js';

/**
 * Creates with bodies fast-check generates from the spec's request schema: valid ones get a
 * documented 2xx echoing them exactly, or a 4xx; invalid ones get a 4xx. Seeded, and bounded
 * by the target's budget, spread over the create operations; a failure is shrunk to a
 * minimal body, which the report shows with the command that replays the run.
 */
export function generatedRules(
  kit: Kit,
  options: Pick<ContractTarget, 'seed' | 'budget' | 'replay' | 'ruleTimeMs'>,
): Rule[] {
  const creates = kit.collections.flatMap((collection) =>
    collection.create && jsonRequestOf(collection.create) ? [collection.create] : [],
  );
  if (options.budget === 0 || creates.length === 0) return [];
  const budget = Math.max(2, Math.floor(options.budget / creates.length));
  const validRuns = Math.ceil(budget / 2);
  const invalidRuns = Math.floor(budget / 2);
  const shrinkRequests = Math.max(MIN_SHRINK_REQUESTS, budget);
  const run = {
    seed: options.seed,
    replay: options.replay,
    shrinkRequests,
    // The time of the whole rule, the shrinking's included: a verdict comes within it.
    timeMs: options.ruleTimeMs,
  };

  return creates.flatMap((create) => {
    const schema = kit.requestSchema(create);
    const success = kit.success(create);
    const refused = kit.clientError(create);
    const valid = validBodyArbitrary(schema).filter((body) =>
      kit.spec.acceptsRequest(create, body),
    );
    const invalid = invalidBodyArbitrary(schema).filter(
      (body) => !kit.spec.acceptsRequest(create, body),
    );
    const rules: Rule[] = [
      {
        name: kit.name(
          create,
          'create',
          `generated valid bodies get ${success.label} echoing them exactly, or ${kit.errorText(create, refused)}`,
        ),
        createsData: true,
        check: (ctx) =>
          holdsFor(valid, { ...run, runs: validRuns }, async (body) => {
            const exchange = await kit.call(ctx, create, { body: JSON.stringify(body) });
            kit.acceptedOrRefused(ctx, exchange, create, body);
          }),
      },
    ];
    if (invalidRuns > 0)
      rules.push({
        name: kit.name(
          create,
          ['required', 'invalid'],
          `generated invalid bodies get ${kit.errorText(create, refused)}`,
        ),
        createsData: false,
        check: (ctx) =>
          holdsFor(invalid, { ...run, runs: invalidRuns }, async (body) => {
            const exchange = await kit.call(ctx, create, { body: JSON.stringify(body) });
            kit.conforms(ctx, exchange, create, refused);
          }),
      });
    return rules;
  });
}

/**
 * Runs `check` on `runs` generated values. On a violation, fast-check shrinks the value, one
 * request per try and at most `shrinkRequests` of them; the violation of the smallest failing
 * value is thrown, headed by that value and how to replay the run.
 *
 * It always ends: once the shrink requests are spent, or the rule's time is up, the run is
 * interrupted (a try that passes without a request would let fast-check walk the rest of the
 * shrink tree, which for a long text is millions of values, and no request is ever sent).
 * Time up before any failure is no verdict: `BudgetReached`, with what was checked.
 */
async function holdsFor<T>(
  arbitrary: Arbitrary<T>,
  run: { runs: number; seed: number; replay: string; shrinkRequests: number; timeMs: number },
  check: (value: T) => Promise<void>,
): Promise<void> {
  let unavailable: TargetUnavailable | RuleSkipped | undefined;
  let failed = false;
  let shrinkRequests = 0;
  let checked = 0;
  const result = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      if (unavailable || (failed && ++shrinkRequests > run.shrinkRequests))
        throw new fc.PreconditionFailure(true);
      try {
        await check(value);
        checked += 1;
      } catch (err) {
        if (err instanceof TargetUnavailable || err instanceof RuleSkipped) {
          unavailable = err;
          throw new fc.PreconditionFailure(true);
        }
        failed = true;
        throw err;
      }
    }),
    { seed: run.seed, numRuns: run.runs, interruptAfterTimeLimit: run.timeMs },
  );
  if (unavailable) throw unavailable;
  if (!result.failed) {
    if (result.interrupted && checked < run.runs)
      throw new BudgetReached(
        `generated bodies reached the rule's time bound (${run.timeMs / 1000} s) after ${checked} of ${run.runs}, all of them kept`,
      );
    return;
  }
  const cause = result.errorInstance;
  if (!(cause instanceof ContractViolation)) throw cause;
  const [summary, ...rest] = cause.message.split('\n');
  const cut = result.interrupted ? ' (shrinking stopped at its bound)' : '';
  throw new ContractViolation(
    [
      summary,
      `generated body ${result.numRuns} of ${run.runs} broke the rule (seed ${result.seed}); shrunk in ${result.numShrinks} steps${cut} to:`,
      `  ${JSON.stringify(result.counterexample?.[0])}`,
      `Replay: ${run.replay}`,
      '',
      ...rest,
    ].join('\n'),
  );
}

/**
 * Requests spent on shrinking one failure, at the least: a failure usually shrinks to a
 * minimal body in a few dozen. The budget raises it: one knob bounds the whole run.
 */
const MIN_SHRINK_REQUESTS = 50;
