import { without } from '../bodies.js';
import type { Exchange } from '../http.js';
import type { CollectionKit, Kit } from '../kit.js';
import type { Rule } from '../rule.js';
import { setUp } from './writes.js';

/** How many creates the suite sends at once. */
const BURST = 8;

/**
 * State, wherever the spec implies a collection: ids are the service's and unique, within a
 * list and across concurrent creates; what is created is on the next read and the very next
 * list, with the same id and values, whatever was read before. A client-sent id is refused
 * or ignored.
 */
export function stateRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  for (const collection of kit.collections) {
    const { list, create, read } = collection;
    const { idProperty } = collection.plan;
    const idText = idProperty === 'id' ? 'ids' : `\`${idProperty}\` values`;
    if (list)
      rules.push({
        name: kit.name(list, undefined, `${idText} are unique within the list`),
        createsData: false,
        async check(ctx) {
          const listed = await kit.call(ctx, list);
          kit.conforms(ctx, listed, list, kit.success(list));
          const ids = kit.itemsOf(list, listed).map((record) => JSON.stringify(record[idProperty]));
          const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
          if (repeated.length > 0)
            kit.fail(
              'lists that hold two records with the same id',
              [`the list holds ${idProperty} ${[...new Set(repeated)].join(', ')} more than once`],
              listed,
            );
        },
      });
    if (!create) continue;
    if (list)
      rules.push({
        name: kit.name(list, undefined, 'the list holds every record, one just created included'),
        createsData: true,
        async check(ctx) {
          await kit.listedAsSent(ctx, collection, [await setUp(ctx, kit, collection, 'listed')]);
        },
      });
    if (read)
      rules.push({
        name: kit.name(
          read,
          undefined,
          'a record just created reads back with its id and every sent value',
        ),
        createsData: true,
        async check(ctx) {
          await kit.readAsSent(ctx, collection, [await setUp(ctx, kit, collection, 'read back')]);
        },
      });
    rules.push(clientIdRule(kit, collection), burstRule(kit, collection));
    if (list)
      rules.push({
        name: kit.name(
          list,
          undefined,
          'what was created is on the very next list, whatever was read before',
        ),
        createsData: true,
        async check(ctx) {
          // Two reads first: a cache that serves the second would serve the next one too.
          for (let i = 0; i < 2; i++)
            kit.conforms(ctx, await kit.call(ctx, list), list, kit.success(list));
          await kit.listedAsSent(ctx, collection, [
            await setUp(ctx, kit, collection, 'after reads'),
          ]);
        },
      });
  }
  return rules;
}

/** "`id` is never supplied by the client": one that is sent is refused, or ignored for a new one. */
function clientIdRule(kit: Kit, collection: CollectionKit): Rule {
  const create = collection.create!;
  const { idProperty } = collection.plan;
  const invalid = kit.clientError(create);
  // 409 Conflict is what HTTP names for a key another record has, documented or not.
  const refused = {
    label: invalid.accepts(409) ? invalid.label : `${invalid.label} or 409`,
    accepts: (status: number) => status === 409 || invalid.accepts(status),
  };
  return {
    name: kit.name(
      create,
      'create',
      `a client-sent \`${idProperty}\` equal to an existing record's gets ${refused.label}, or is ignored for a new one`,
    ),
    createsData: true,
    async check(ctx) {
      const existing = await setUp(ctx, kit, collection, 'existing');
      const sent = { ...kit.validBody(create, 'client id'), [idProperty]: existing.id };
      const exchange = await kit.call(ctx, create, { body: JSON.stringify(sent) });
      if (refused.accepts(exchange.status)) return kit.conforms(ctx, exchange, create, refused);
      kit.conforms(ctx, exchange, create, kit.success(create));
      const id = kit.createdId(collection, exchange);
      if (JSON.stringify(id) === JSON.stringify(existing.id))
        kit.fail(
          'creates that take the id a client sends',
          [
            `the create sent ${idProperty} ${JSON.stringify(existing.id)} and got it, which an existing record has: the service assigns ids`,
          ],
          existing.exchange,
          exchange,
        );
      await kit.listedAsSent(ctx, collection, [
        existing,
        { exchange, sent: without(sent, idProperty), id },
      ]);
    },
  };
}

function burstRule(kit: Kit, collection: CollectionKit): Rule {
  const create = collection.create!;
  return {
    name: kit.name(
      create,
      'create',
      `a burst of ${BURST} concurrent creates gets ${BURST} distinct ids, all in the next list`,
    ),
    createsData: true,
    async check(ctx) {
      const bodies = Array.from({ length: BURST }, (_, i) =>
        kit.validBody(create, `burst ${i + 1}`, 'all', i),
      );
      const exchanges = await Promise.all(
        bodies.map((body) => kit.call(ctx, create, { body: JSON.stringify(body) })),
      );
      for (const [i, exchange] of exchanges.entries())
        kit.echoed(ctx, exchange, create, bodies[i]!);
      const idOf = (exchange: Exchange) => JSON.stringify(kit.createdId(collection, exchange));
      const ids = exchanges.map(idOf);
      const shared = ids.filter((id, i) => ids.indexOf(id) !== i);
      if (shared.length > 0)
        kit.fail(
          'concurrent creates that got the same id',
          [`${BURST} concurrent creates got ${new Set(ids).size} distinct ids: [${ids.join(',')}]`],
          ...exchanges.filter((exchange) => shared.includes(idOf(exchange))),
        );
      const creations = exchanges.map((exchange, i) => ({
        exchange,
        sent: bodies[i]!,
        id: kit.createdId(collection, exchange),
      }));
      await kit.listedAsSent(ctx, collection, creations);
    },
  };
}
