import { cleanUpWith } from './cleanup.js';
import { createKit } from './kit.js';
import type { ContractPlan } from './plan.js';
import type { Rule } from './rule.js';
import type { CleanUp } from './runner.js';
import { answerRules } from './rules/answers.js';
import { conditionalRules } from './rules/conditional.js';
import { bodilessRules } from './rules/bodiless.js';
import { conflictRules } from './rules/conflicts.js';
import { credentialRules } from './rules/credentials.js';
import { formBodyRules } from './rules/form-bodies.js';
import { generatedRules } from './rules/generated.js';
import { invalidBodyRules } from './rules/invalid-bodies.js';
import { linkRules } from './rules/links.js';
import { mediaBodyRules } from './rules/media-bodies.js';
import { outgoingRules } from './rules/outgoing.js';
import { parameterRules } from './rules/parameters.js';
import { stateRules } from './rules/state.js';
import { streamRules } from './rules/streams.js';
import { upsertRules } from './rules/upserts.js';
import { scopingRules } from './rules/scoping.js';
import { redirectRules } from './rules/redirects.js';
import { scopeRules } from './rules/scopes.js';
import { realisticValueRules } from './rules/values.js';
import { writeRules } from './rules/writes.js';
import { specOf } from './spec.js';
import type { ContractTarget } from './target.js';

export type { Rule } from './rule.js';
/**
 * The rules of an interface, derived from its plan, as a table in the order they run. Each
 * row is named after the operation and, where the interface document numbers it (the
 * spec's `x-contract-rules`), the rule it checks. Negative cases, near-miss credentials and
 * generated bodies are derived from the spec and the credentials, so they follow them.
 * @example for (const rule of contractRules(plan, target)) await rule.check(ctx);
 * @internal for its tests: no part of the package's surface
 */
export function contractRules(plan: ContractPlan, target: SuiteTarget): Rule[] {
  return contractSuite(plan, target).rules;
}

/** What the rules are derived from. */
type SuiteTarget = Pick<
  ContractTarget,
  'namePrefix' | 'credentials' | 'refusedSchemes' | 'seed' | 'budget' | 'replay' | 'ruleTimeMs'
> &
  Partial<Pick<ContractTarget, 'receiver' | 'timeoutMs'>>;

/**
 * The rules of an interface (see contractRules), and the clean-up that deletes, after them,
 * what they created.
 * @example const { rules, cleanUp } = contractSuite(plan, target); await runRules(rules, target, cleanUp);
 */
export function contractSuite(
  plan: ContractPlan,
  target: SuiteTarget,
): { rules: Rule[]; cleanUp: CleanUp } {
  const kit = createKit(specOf(plan), target.namePrefix);
  const rules = [
    // Every operation answers as documented.
    ...answerRules(kit),
    // Streamed answers, event by event, to their end or a bound.
    ...streamRules(kit),
    // What valid writes answer, and that a reader then sees them.
    ...writeRules(kit),
    // Bodies that lack or break a field.
    ...invalidBodyRules(kit),
    // Forms and multipart forms that lack or break a field.
    ...formBodyRules(kit),
    // Text, XML and bytes bodies that lack or break what their schema asks.
    ...mediaBodyRules(kit),
    // Path, query and header parameters that break their schema.
    ...parameterRules(kit),
    // Missing, wrong, near-miss and misplaced credentials, on every operation.
    ...credentialRules(kit, target),
    // Tokens without an operation's scopes, and each alternative requirement alone.
    ...scopeRules(kit, target),
    // Creates with the values real clients send.
    ...realisticValueRules(kit),
    // Ids are the service's, and what is created is read and listed at once.
    ...stateRules(kit),
    // A nested collection's records are found under their own parent only.
    ...scopingRules(kit),
    // A PUT under a client's key creates once, then replaces.
    ...upsertRules(kit),
    // Conditional requests: ETags sent back as read, stale and missing ones refused.
    ...conditionalRules(kit),
    // Documented conflicts, provoked on purpose.
    ...conflictRules(kit),
    // Writes that take no body are called without one.
    ...bodilessRules(kit),
    // Documented redirects lead somewhere.
    ...redirectRules(kit),
    // Links lead where they say.
    ...linkRules(kit),
    // Bodies generated from the spec.
    ...generatedRules(kit, target),
    // The callbacks and webhooks it sends, caught by the suite's receiver.
    ...outgoingRules(kit, target),
  ];
  // Valid bodies name records that exist (`authorId`): whichever rule runs first finds them.
  // A target that cannot be reached is left for the rule's own requests to meet: a rule that
  // skips (a credential not given) or needs no request still says so.
  return {
    rules: rules.map((rule) => ({
      ...rule,
      async check(ctx) {
        await kit.produceIds(ctx).catch((err: unknown) => {
          if (!(err instanceof Error && err.name === 'TargetUnavailable')) throw err;
        });
        return rule.check(ctx);
      },
    })),
    cleanUp: cleanUpWith(kit),
  };
}
