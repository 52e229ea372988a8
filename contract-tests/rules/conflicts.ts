import { conflictOf, overflowing } from '../conflicts.js';
import type { CollectionKit, Kit } from '../kit.js';
import type { PlanOperation } from '../plan.js';
import type { Rule } from '../rule.js';
import { propertiesOf } from '../schema-parts.js';
import { valueNotMade } from '../verdicts.js';

const conflict = { label: '409', accepts: (status: number) => status === 409 };

/**
 * The conflicts a create documents (409), provoked on purpose: a field one record only may
 * hold, reused, gets 409 and makes no second record; a number past what the state allows (a
 * movement larger than the stock) gets 409. Every other request of the run keeps clear of them.
 */
export function conflictRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  for (const collection of kit.collections) {
    const { create } = collection;
    if (!create) continue;
    const documented = conflictOf(create, kit.requestSchema(create));
    for (const field of documented?.unique ?? [])
      rules.push(uniqueRule(kit, collection, create, field));
    if (documented?.limit)
      rules.push(
        limitRule(kit, collection, create, documented.limit.property, documented.limit.way),
      );
  }
  return rules;
}

function uniqueRule(
  kit: Kit,
  collection: CollectionKit,
  create: PlanOperation,
  field: string,
): Rule {
  return {
    name: kit.name(
      create,
      'create',
      `a create reusing the \`${field}\` of a record it holds gets 409, and makes no second record`,
    ),
    createsData: true,
    async check(ctx) {
      const first = await kit.create(ctx, collection, 'unique first');
      const value = first.sent[field];
      if (value === undefined)
        throw valueNotMade(`a \`${field}\` in a valid ${create.operationId} body`);
      const sent = { ...kit.validBody(create, 'unique second'), [field]: value };
      const exchange = await kit.call(ctx, create, { body: JSON.stringify(sent) });
      kit.conforms(ctx, exchange, create, conflict);
      if (!collection.list) return;
      const same = (record: Record<string, unknown>) =>
        JSON.stringify(record[field]) === JSON.stringify(value);
      const { records, pages } = await kit.listPages(
        ctx,
        collection,
        (read) => read.filter(same).length > 1,
      );
      if (records.filter(same).length > 1)
        kit.fail(
          'conflicting creates that made a record anyway',
          [
            `the create was refused with 409 for its \`${field}\` ${JSON.stringify(value)}, and the list holds it twice`,
          ],
          exchange,
          pages.at(-1)!,
        );
    },
  };
}

function limitRule(
  kit: Kit,
  collection: CollectionKit,
  create: PlanOperation,
  field: string,
  way: 'below' | 'above',
): Rule {
  const schema = propertiesOf(kit.requestSchema(create))[field] ?? {};
  const value = overflowing(schema, way);
  return {
    name: kit.name(
      create,
      'create',
      `a create whose \`${field}\` (${value}) takes the state ${way} what it allows gets 409`,
    ),
    createsData: true,
    async check(ctx) {
      const sent = { ...kit.validBody(create, 'past the limit'), [field]: value };
      const missing = kit.notMade(create, sent);
      if (missing !== undefined) throw valueNotMade(missing);
      const exchange = await kit.call(ctx, create, { body: JSON.stringify(sent) });
      kit.conforms(ctx, exchange, create, conflict);
    },
  };
}
