import type { Kit } from '../kit.js';
import type { Rule } from '../rule.js';

/** Rule 4 and the list: what a valid call answers. */
export function operationRules(kit: Kit): Rule[] {
  const { list, create } = kit;

  return [
    {
      name: 'listCategories: answers 200 with a JSON array of Category objects',
      createsData: false,
      async check(ctx) {
        kit.conforms(ctx, await kit.call(ctx, list), list, 200);
      },
    },
    {
      name: 'createCategory rule 4: a valid body gets 201 and a Category echoing every submitted field, with a new integer id',
      createsData: true,
      async check(ctx) {
        const sent = kit.validBody('echo');
        kit.echoed(ctx, await kit.call(ctx, create, { body: JSON.stringify(sent) }), sent);
      },
    },
    {
      name: 'createCategory rule 4: a body with only the required fields gets 201 echoing them',
      createsData: true,
      async check(ctx) {
        const sent = kit.requiredBody('required-only');
        kit.echoed(ctx, await kit.call(ctx, create, { body: JSON.stringify(sent) }), sent);
      },
    },
    {
      name: 'createCategory rule 4: each create gets a new id (two creates, two ids)',
      createsData: true,
      async check(ctx) {
        const first = await kit.call(ctx, create, { body: JSON.stringify(kit.validBody('first')) });
        const second = await kit.call(ctx, create, {
          body: JSON.stringify(kit.validBody('second')),
        });
        kit.conforms(ctx, first, create, 201);
        kit.conforms(ctx, second, create, 201);
        const ids = [first, second].map((exchange) => (exchange.json as { id?: unknown }).id);
        if (ids[0] === ids[1])
          kit.fail([`both creates got id ${JSON.stringify(ids[0])}`], first, second);
      },
    },
    {
      name: 'listCategories: the list holds all categories, one just created included',
      createsData: true,
      async check(ctx) {
        const sent = kit.validBody('listed');
        const created = await kit.call(ctx, create, { body: JSON.stringify(sent) });
        kit.conforms(ctx, created, create, 201);
        await kit.listedAsSent(ctx, [{ exchange: created, sent }]);
      },
    },
  ];
}
