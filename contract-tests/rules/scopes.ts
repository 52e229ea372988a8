import {
  describeScheme,
  emptyCarrier,
  holdsScopes,
  merge,
  place,
  validCarrier,
} from '../credentials.js';
import { harmlessBody } from '../harmless-bodies.js';
import type { Expectation, Kit } from '../kit.js';
import { isOpen, jsonRequestOf, type PlanOperation, type PlanRequirement } from '../plan.js';
import type { Rule, RuleContext } from '../rule.js';
import type { ContractTarget } from '../target.js';
import { RuleSkipped, valueNotMade } from '../verdicts.js';

/**
 * What each credential given for one scheme may do: a token given with scopes that lacks one
 * an operation asks of its scheme is refused (401 or 403, as the operation documents; RFC 6750,
 * section 3.1, names 403 `insufficient_scope`), with a body that changes nothing were it taken;
 * and each alternative security requirement of a read works alone (a cookie API key without
 * the bearer token).
 */
export function scopeRules(
  kit: Kit,
  target: Pick<ContractTarget, 'credentials' | 'refusedSchemes'>,
): Rule[] {
  const rules: Rule[] = [];
  for (const operation of kit.plan.operations) {
    if (isOpen(operation)) continue;
    rules.push(...lackingScopeRules(kit, operation, target));
    const alternatives = operation.security.filter((r) => Object.keys(r).length > 0);
    if (operation.method === 'get' && alternatives.length > 1)
      for (const requirement of alternatives) rules.push(aloneRule(kit, operation, requirement));
  }
  return rules;
}

/** A refusal of a token without the scope: 403 or 401, those of them the operation documents. */
function refusal(operation: PlanOperation): Expectation {
  const documented = [401, 403].filter((status) => String(status) in operation.responses);
  const statuses = documented.length > 0 ? documented : [401, 403];
  return { label: statuses.join(' or '), accepts: (status) => statuses.includes(status) };
}

function lackingScopeRules(
  kit: Kit,
  operation: PlanOperation,
  target: Pick<ContractTarget, 'credentials' | 'refusedSchemes'>,
): Rule[] {
  const rules: Rule[] = [];
  const expected = refusal(operation);
  const error = kit.errorText(operation, expected);
  const names = new Set(operation.security.flatMap(Object.keys));
  for (const name of names) {
    const scheme = kit.plan.securitySchemes[name];
    if (!scheme || name in target.refusedSchemes) continue;
    // Each requirement naming the scheme asks its scopes: a token holding none of those sets
    // opens no alternative by itself.
    const asked = operation.security
      .filter((requirement) => Object.keys(requirement).length === 1 && name in requirement)
      .map((requirement) => requirement[name] ?? []);
    if (asked.length === 0 || asked.some((scopes) => scopes.length === 0)) continue;
    for (const given of target.credentials.byScheme?.[name] ?? []) {
      if (given.scopes === undefined || asked.some((scopes) => holdsScopes(given, scopes)))
        continue;
      const lacking = [...new Set(asked.flat())].filter((scope) => !given.scopes!.includes(scope));
      const held = given.scopes.length > 0 ? `holding ${given.scopes.join(', ')}` : 'holding none';
      rules.push({
        name: kit.name(
          operation,
          'credentials',
          `a token of ${name} without the scope ${lacking.join(', ')} (${held}) gets ${error}`,
        ),
        createsData: false,
        async check(ctx: RuleContext) {
          const params = kit.madeUpParams(operation);
          const body = jsonRequestOf(operation)
            ? await harmlessBody(kit, ctx, operation, params)
            : undefined;
          const exchange = await kit.call(ctx, operation, {
            auth: merge(emptyCarrier(), place(scheme, given.value)),
            params,
            body,
          });
          if (!expected.accepts(exchange.status))
            kit.fail(
              exchange.status < 400 || exchange.status === 404
                ? 'tokens without the scope an operation asks let through'
                : `${exchange.status} answers where the spec wants ${expected.label}`,
              [
                `sent a token of ${name} (${describeScheme(scheme)}) ${held}, where ${operation.operationId} asks ${asked.map((scopes) => scopes.join(' and ')).join(' or ')}: expected status ${expected.label}, got ${exchange.status}`,
              ],
              exchange,
            );
          kit.conforms(ctx, exchange, operation, expected);
        },
      });
    }
  }
  return rules;
}

/** A read called with one alternative requirement's credentials alone gets its success. */
function aloneRule(kit: Kit, operation: PlanOperation, requirement: PlanRequirement): Rule {
  const names = Object.keys(requirement);
  const success = kit.success(operation);
  return {
    name: kit.name(
      operation,
      'credentials',
      `the alternative ${names.join(' and ')} alone, no other credential sent, gets ${success.label}`,
    ),
    createsData: false,
    async check(ctx) {
      const auth = validCarrier(requirement, kit.plan.securitySchemes, (name) =>
        kit.secret(ctx.target, name, requirement[name]),
      );
      if (!auth)
        throw new RuleSkipped(
          `no credential given for ${names.join(' and ')}${names.some((name) => (requirement[name] ?? []).length > 0) ? ' with the scopes it asks' : ''}`,
        );
      const role = kit.roleOf(operation);
      let params: Record<string, unknown> = {};
      if (role?.action === 'read') {
        const id = await kit.someRecordId(ctx, role.collection);
        if (id === undefined)
          throw valueNotMade(
            `no ${role.collection.plan.name} record to read: ${kit.noRecordWhy(ctx, role.collection)}`,
          );
        params = kit.itemParams(role.collection, id);
      } else if (operation.parameters.some((p) => p.in === 'path' && p.required))
        throw new RuleSkipped(`${operation.operationId} names no record the suite can find`);
      const exchange = await kit.call(ctx, operation, { auth, params });
      kit.conforms(ctx, exchange, operation, success);
    },
  };
}
