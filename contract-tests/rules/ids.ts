import type { Exchange } from '../http.js';
import type { Kit } from '../kit.js';
import type { Rule } from '../rule.js';

/** How many creates the suite sends at once. */
export const BURST = 8;

/**
 * Ids are assigned by the service, one per category, and what is created is in the next list.
 * "`id` is never supplied by the client": one that is sent is refused or ignored.
 */
export function idRules(kit: Kit): Rule[] {
  const { list, create } = kit;
  const idOf = (exchange: Exchange) => (exchange.json as { id?: unknown }).id;
  const idsIn = (exchange: Exchange) =>
    new Set((exchange.json as { id?: unknown }[]).map((c) => c.id));

  return [
    {
      name: "createCategory rule 4: a client-sent `id` equal to an existing category's gets 400, or is ignored for a new id",
      createsData: true,
      async check(ctx) {
        const existingBody = kit.validBody('existing');
        const existing = await kit.call(ctx, create, { body: JSON.stringify(existingBody) });
        kit.conforms(ctx, existing, create, 201);
        const before = await kit.call(ctx, list);
        kit.conforms(ctx, before, list, 200);
        const sent = { ...kit.validBody('client id'), id: idOf(existing) };
        const exchange = await kit.call(ctx, create, { body: JSON.stringify(sent) });
        if (exchange.status === 400) return kit.conforms(ctx, exchange, create, 400);
        kit.conforms(ctx, exchange, create, 201);
        if (idsIn(before).has(idOf(exchange))) {
          kit.fail(
            [
              `the create sent id ${JSON.stringify(sent.id)} and got id ${JSON.stringify(idOf(exchange))}, which an existing category has: the service assigns ids`,
            ],
            existing,
            exchange,
          );
        }
        await kit.listedAsSent(ctx, [
          { exchange: existing, sent: existingBody },
          { exchange, sent },
        ]);
      },
    },
    {
      name: `createCategory rule 4: a burst of ${BURST} concurrent creates gets ${BURST} distinct ids, all in the next list`,
      createsData: true,
      async check(ctx) {
        const bodies = Array.from({ length: BURST }, (_, i) => kit.validBody(`burst ${i + 1}`));
        const exchanges = await Promise.all(
          bodies.map((body) => kit.call(ctx, create, { body: JSON.stringify(body) })),
        );
        for (const exchange of exchanges) kit.conforms(ctx, exchange, create, 201);
        const ids = exchanges.map(idOf);
        const shared = ids.filter((id, i) => ids.indexOf(id) !== i);
        if (shared.length > 0) {
          kit.fail(
            [
              `${BURST} concurrent creates got ${new Set(ids).size} distinct ids: ${JSON.stringify(ids)}`,
            ],
            ...exchanges.filter((exchange) => shared.includes(idOf(exchange))),
          );
        }
        await kit.listedAsSent(
          ctx,
          exchanges.map((exchange, i) => ({ exchange, sent: bodies[i]! })),
        );
      },
    },
    {
      name: 'listCategories: what was created is on the very next list, whatever was read before',
      createsData: true,
      async check(ctx) {
        // Two reads first: a cache that serves the second would serve the next one too.
        for (let read = 0; read < 2; read++)
          kit.conforms(ctx, await kit.call(ctx, list), list, 200);
        const sent = kit.validBody('after reads');
        const created = await kit.call(ctx, create, { body: JSON.stringify(sent) });
        kit.conforms(ctx, created, create, 201);
        await kit.listedAsSent(ctx, [{ exchange: created, sent }]);
      },
    },
  ];
}
