import { invalidBodies } from '../bodies.js';
import type { Kit } from '../kit.js';
import type { Rule } from '../rule.js';

/**
 * Rules 1 and 2: each required property left out, each property given each JSON type it
 * does not allow, bodies that are not an object. Generated from the spec's request schema,
 * so they follow it when it changes.
 */
export function invalidBodyRules(kit: Kit): Rule[] {
  return invalidBodies(kit.newCategory, kit.label).map((body) => ({
    name: `createCategory rule ${body.rule}: ${body.what} gets 400 with an Error body`,
    createsData: false,
    async check(ctx) {
      const exchange = await kit.call(ctx, kit.create, { body: body.text });
      kit.conforms(ctx, exchange, kit.create, 400);
    },
  }));
}
