import { createKit } from './kit.js';
import type { Rule } from './rule.js';
import { credentialRules } from './rules/credentials.js';
import { generatedRules } from './rules/generated.js';
import { idRules } from './rules/ids.js';
import { invalidBodyRules } from './rules/invalid-bodies.js';
import { operationRules } from './rules/operations.js';
import { realisticValueRules } from './rules/values.js';
import type { ContractSpec } from './spec.js';
import type { ContractTarget } from './target.js';

export type { Rule, RuleContext } from './rule.js';
export { ContractViolation, TargetUnavailable } from './verdicts.js';

/**
 * The rules of the categories interface, as a table, in the order they run. Each row is named
 * after the rule of the interface document it checks. Negative cases, near-miss credentials
 * and generated bodies are derived from the spec and the key, so they follow them.
 * @example for (const rule of contractRules(spec, target)) await rule.check({ target, advise });
 */
export function contractRules(
  spec: ContractSpec,
  target: Pick<ContractTarget, 'namePrefix' | 'apiKey' | 'seed' | 'budget'>,
): Rule[] {
  const kit = createKit(spec, target.namePrefix);
  return [
    // Rule 4 and the list: what valid calls answer.
    ...operationRules(kit),
    // Rules 1 and 2: bodies that lack or break a field.
    ...invalidBodyRules(kit),
    // Rule 3: missing, invalid and near-miss credentials, on both operations.
    ...credentialRules(kit, target.apiKey),
    // Rule 4 with the values real clients send.
    ...realisticValueRules(kit),
    // Ids are the service's, and what is created is listed at once.
    ...idRules(kit),
    // Rules 1, 2 and 4 on bodies generated from the spec.
    ...generatedRules(kit, target),
  ];
}
