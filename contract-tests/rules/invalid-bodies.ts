import { invalidBodies } from '../bodies.js';
import { onCurrentValues } from '../harmless-bodies.js';
import type { Expectation, Kit } from '../kit.js';
import { jsonRequestOf, type PlanOperation } from '../plan.js';
import { notJudgedIfRefused } from '../refusals.js';
import type { Rule, RuleContext } from '../rule.js';
import { producersOf } from './answers.js';

/**
 * Every request body the spec forbids is refused with a 4xx in the spec's error shape: each
 * required property left out, each property given a type, format, enum value, length,
 * bound or item its schema does not allow, an undeclared property where the schema is
 * closed, bodies that are not an object, empty or malformed. Derived from the request
 * schema, so they follow the spec when it changes.
 */
export function invalidBodyRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  for (const operation of kit.plan.operations) {
    const json = jsonRequestOf(operation);
    if (!json) continue;
    const target = targetOf(kit, operation);
    const error = kit.errorText(operation, kit.clientError(operation));
    const expected = refusalOn(kit, operation, target);
    const base = kit.validBody(operation, 'invalid');
    // A replace of a record that is not the suite's own (`PUT /account`): its cases keep the
    // record's current values, so that a deployment taking them would change nothing.
    const onRecord =
      (operation.method === 'put' || operation.method === 'patch') &&
      !operation.parameters.some((parameter) => parameter.in === 'path');
    const bodies = invalidBodies(kit.requestSchema(operation), base, {
      label: kit.label,
      bodyRequired: operation.requestBody?.required === true,
      breaks: (body) => !kit.spec.acceptsRequest(operation, body),
    });
    for (const body of bodies) {
      rules.push({
        name: kit.name(operation, body.family, `${body.what} gets ${error}`),
        createsData: target.writes,
        async check(ctx) {
          const params = await target.params(ctx);
          const text = onRecord
            ? await onCurrentValues(kit, ctx, operation, params, body.text, base)
            : body.text;
          const exchange = await kit.call(ctx, operation, { params, body: text });
          notJudgedIfRefused(operation, exchange, expected);
          kit.conforms(ctx, exchange, operation, expected);
        },
      });
    }
  }
  return rules;
}

/**
 * The statuses that refuse an invalid request to a target: the operation's client errors,
 * and on a made-up record a 404 too, which refuses it as rightly as a 400 would.
 */
export function refusalOn(
  kit: Kit,
  operation: PlanOperation,
  target: { madeUp: boolean },
): Expectation {
  const refused = kit.clientError(operation);
  return target.madeUp
    ? { label: `${refused.label} or 404`, accepts: (s: number) => refused.accepts(s) || s === 404 }
    : refused;
}

/**
 * What a request to the operation acts on. A create acts on its collection. A write to an
 * item acts on a record the suite created, since a deployment that fails the rule would
 * change it. Anything else takes made-up path parameters.
 */
export function targetOf(
  kit: Kit,
  operation: PlanOperation,
): {
  writes: boolean;
  madeUp: boolean;
  params(ctx: RuleContext): Promise<Record<string, unknown>>;
} {
  const role = kit.roleOf(operation);
  const onItem = operation.parameters.some((parameter) => parameter.in === 'path');
  if (role && onItem && role.action !== 'list' && role.action !== 'create') {
    const { collection } = role;
    return {
      writes: true,
      madeUp: false,
      params: async (ctx) => kit.itemParams(collection, (await kit.ownRecord(ctx, collection)).id),
    };
  }
  // A write outside the collections whose path names records (`POST /orgs/{orgId}/archive`)
  // goes to records the suite created: a 404 there would not be about the body.
  const producers = !role && onItem && operation.method !== 'get' && producersOf(kit, operation);
  if (producers && producers.every(({ collection }) => collection.create))
    return {
      writes: true,
      madeUp: false,
      async params(ctx) {
        const params: Record<string, unknown> = {};
        for (const { parameter, collection } of producers)
          params[parameter] = (await kit.ownRecord(ctx, collection)).id;
        return params;
      },
    };
  return {
    writes: onItem && operation.method !== 'post',
    madeUp: onItem,
    params: () => Promise.resolve(kit.madeUpParams(operation)),
  };
}
